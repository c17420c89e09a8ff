"""Blitz Bowl pre-match rules (../shared/rules/blitzbowl.md, "Pre-match sequence": weather, inducements, fans and
FAME).

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).
"""

import pytest

from campaigns import house_rules
from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset
from campaigns.rulesets.base import PositionSpec
from campaigns.rulesets.blitzbowl import prematch as pre
from campaigns.rulesets.blitzbowl.prematch import InducementTeam, Purchase

BB = get_ruleset("blitzbowl")
HR = BB.default_house_rules()
ROSTERS = {r["key"]: r for r in BB.roster_data()}


def override(**changes) -> dict:
    """The effective house rules after a commissioner's (validated) overrides."""
    return house_rules.merge(HR, house_rules.validate_overrides(HR, changes))


def team(roster: str = "hume", *, counts=None, able: int = 11) -> InducementTeam:
    """A team of a shipped roster: `counts` players per position on the roster, `able` able to play this match."""
    data = ROSTERS[roster]
    positions = {
        p["key"]: PositionSpec(
            key=p["key"],
            name=p["name"],
            min=p["min"],
            max=p["max"],
            cost=p["cost"],
            skills=tuple(p["skills"]),
            extra={"skill_access": p["skill_access"]},
        )
        for p in data["positions"]
    }
    counts = {"lineman": 11} if counts is None else counts
    return InducementTeam(
        roster_key=roster,
        white_mage_allowed=bool(data["white_mage"]),
        special_prices=dict(data.get("special_prices", {})),
        positions=positions,
        roster_counts=counts,
        able_players=able,
    )


HUME = team("hume")


def check(item, quantity=1, *, t=HUME, bought=(), hr=HR, **kw):
    return pre.check_inducement(item, quantity, team=t, bought=list(bought), hr=hr, **kw)


def refused(field, item, quantity=1, **kw) -> RuleViolation:
    with pytest.raises(RuleViolation) as exc:
        check(item, quantity, **kw)
    assert exc.value.field == field
    return exc.value


# --- 1. Weather ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "key", "words"),
    [
        (2, "sweltering_heat", "Sweltering Heat"),
        (3, "very_sunny", "Very Sunny"),
        (4, "perfect_conditions", "Perfect Conditions"),
        (7, "perfect_conditions", "Perfect Conditions"),
        (10, "perfect_conditions", "Perfect Conditions"),
        (11, "pouring_rain", "Pouring Rain"),
        (12, "blizzard", "Blizzard"),
    ],
)
def test_weather_table(total, key, words):
    """H: 2 Sweltering Heat; 3 Very Sunny; 4–10 Perfect Conditions; 11 Pouring Rain; 12 Blizzard."""
    assert pre.weather(total, HR) == key
    assert pre.weather_words(key) == words


@pytest.mark.parametrize("total", [1, 13, 0])
def test_weather_refuses_a_total_outside_2d6(total):
    """H ("Dice and rolls"): `weather` is 2d6; anything else is a programming error (ValueError)."""
    with pytest.raises(ValueError):
        pre.weather(total, HR)


def test_weather_follows_the_commissioners_table():
    """H: the weather table is a house rule; unknown result keys are shown readably."""
    hr = override(weather_table=[{"min": 2, "max": 12, "result": "acid_rain"}])
    assert pre.weather(7, hr) == "acid_rain"
    assert pre.weather_words("acid_rain") == "Acid Rain"


# --- 3. Fans and FAME ------------------------------------------------------------------------------------


def test_fans_are_two_dice_plus_fan_factor_times_1000():
    """H: fans = (2d6 + FF) × 1,000."""
    assert pre.fans([3, 4], 5, HR) == (3 + 4 + 5) * 1000 == 12_000
    assert pre.fans((1, 1), 0, HR) == 2000


def test_fans_refuse_bad_dice():
    """H ("Dice and rolls"): `fans` is 2d6."""
    with pytest.raises(ValueError):
        pre.fans([7, 1], 3, HR)
    with pytest.raises(ValueError):
        pre.fans([6], 3, HR)
    with pytest.raises(ValueError):
        pre.fans([3, 3], -1, HR)


def test_gate_is_both_teams_fans_together():
    """H: gate = both teams' fans."""
    assert pre.gate({1: 12_000, 2: 9000}) == 21_000


@pytest.mark.parametrize(
    ("ours", "theirs", "fame"),
    [
        (10_000, 10_000, 0),  # equal
        (9000, 10_000, 0),  # fewer
        (11_000, 10_000, 1),  # more
        (19_000, 10_000, 1),  # more, not double
        (20_000, 10_000, 2),  # exactly double
        (25_000, 10_000, 2),  # more than double
        (5000, 0, 2),  # the opponent has none
        (0, 0, 0),
    ],
)
def test_fame(ours, theirs, fame):
    """H: FAME 0 if your fans ≤ the opponent's, 1 if more, 2 if at least double."""
    assert pre.fame(ours, theirs, HR) == fame


# --- 2. Inducements: superior team and budgets -----------------------------------------------------------


def test_higher_tv_is_superior():
    """R: the higher TV is the superior team, the lower the underdog — whoever is at home."""
    assert pre.superior_and_underdog(tv={1: 120_000, 2: 100_000}, home=2) == (1, 2)
    assert pre.superior_and_underdog(tv={1: 100_000, 2: 120_000}, home=2) == (2, 1)


def test_equal_tv_counts_the_home_team_as_higher():
    """I: with equal TV the home team counts as the higher."""
    assert pre.superior_and_underdog(tv={1: 100_000, 2: 100_000}, home=1) == (1, 2)
    assert pre.superior_and_underdog(tv={1: 100_000, 2: 100_000}, home=2) == (2, 1)


def test_superior_refuses_a_home_team_not_in_the_match():
    with pytest.raises(ValueError):
        pre.superior_and_underdog(tv={1: 1, 2: 2}, home=3)


def test_underdog_receives_the_tv_difference():
    """R: the underdog receives inducement gil equal to the TV difference (no home stadium)."""
    assert pre.inducement_budgets(tv={1: 130_000, 2: 112_000}, home=1, stadium_home_of=None, hr=HR) == {
        1: 0,
        2: 18_000,
    }


def test_equal_tv_without_stadium_gives_nothing():
    """R/I: equal TV: no difference to receive; no home stadium: no bonus."""
    assert pre.inducement_budgets(tv={1: 100_000, 2: 100_000}, home=1, stadium_home_of=None, hr=HR) == {1: 0, 2: 0}


def test_stadium_bonus_goes_to_the_visiting_underdog_on_top_of_the_difference():
    """R: at team 1's home stadium, team 2 (the underdog) receives 18,000 + 5,000 = 23,000."""
    assert pre.inducement_budgets(tv={1: 130_000, 2: 112_000}, home=1, stadium_home_of=1, hr=HR) == {
        1: 0,
        2: 23_000,
    }


def test_stadium_bonus_goes_to_the_visiting_superior_team():
    """R: at the underdog's home stadium, the superior team receives 5,000; the underdog still gets 18,000."""
    assert pre.inducement_budgets(tv={1: 130_000, 2: 112_000}, home=1, stadium_home_of=2, hr=HR) == {
        1: 5000,
        2: 18_000,
    }


def test_stadium_bonus_with_equal_tv():
    """R: equal TV, at team 2's home stadium: only team 1 receives 5,000."""
    assert pre.inducement_budgets(tv={1: 100_000, 2: 100_000}, home=2, stadium_home_of=2, hr=HR) == {1: 5000, 2: 0}


def test_stadium_of_neither_team_gives_no_bonus():
    """I: a stadium that is neither team's home gives no bonus."""
    assert pre.inducement_budgets(tv={1: 100_000, 2: 90_000}, home=1, stadium_home_of=7, hr=HR) == {1: 0, 2: 10_000}


def test_stadium_bonus_follows_the_commissioner():
    """H: the home stadium bonus is house rule `inducement_home_stadium_bonus`."""
    hr = override(inducement_home_stadium_bonus=8000)
    assert pre.inducement_budgets(tv={1: 100_000, 2: 100_000}, home=1, stadium_home_of=1, hr=hr) == {1: 0, 2: 8000}


def test_budget_spends_inducement_gil_first_and_loses_the_rest():
    """R: inducement gil is spent first; the rest comes from the treasury; unspent inducement gil is lost."""
    assert pre.budget(induced=23_000, spent=15_000) == {"induced": 23_000, "treasury_spent": 0, "remaining": 8000}
    assert pre.budget(induced=23_000, spent=30_000) == {"induced": 23_000, "treasury_spent": 7000, "remaining": 0}
    assert pre.budget(induced=0, spent=10_000) == {"induced": 0, "treasury_spent": 10_000, "remaining": 0}
    assert pre.budget(induced=5000, spent=0) == {"induced": 5000, "treasury_spent": 0, "remaining": 5000}


def test_check_affordable_lets_the_treasury_top_up():
    """R: either coach may add gil from the treasury: 18,000 induced + 12,000 treasury buys up to 30,000."""
    pre.check_affordable(induced=18_000, spent_before=10_000, price=20_000, treasury=12_000)
    pre.check_affordable(induced=0, spent_before=0, price=10_000, treasury=10_000)


def test_check_affordable_refuses_over_budget():
    """R/I: the treasury never goes below 0: 10,000 + 21,000 − 18,000 = 13,000 > 12,000 is over budget."""
    with pytest.raises(RuleViolation) as exc:
        pre.check_affordable(induced=18_000, spent_before=10_000, price=21_000, treasury=12_000)
    assert exc.value.field == "quantity"
    assert "over budget" in exc.value.message.lower()


def test_shared_stars_play_for_neither():
    """R: a star induced by both teams plays for neither."""
    assert pre.shared_stars({1: ["rolf_stormhand", "mogrin_the_magnificent"], 2: ["rolf_stormhand"]}) == {
        "rolf_stormhand"
    }
    assert pre.shared_stars({1: ["rolf_stormhand"], 2: ["grimbeard_anvilfist"]}) == set()
    assert pre.shared_stars({1: [], 2: []}) == set()


# --- 2. Inducements: prices ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "roster", "price"),
    [
        ("keg", "hume", 5000),
        ("bribe", "hume", 10_000),
        ("bribe", "goblin", 5000),  # R: Goblin rosters pay 5,000
        ("extra_training", "hume", 10_000),
        ("chef", "hume", 30_000),
        ("chef", "allstar9", 10_000),  # R: Allstar 9 rosters pay 10,000
        ("wandering_white_mage", "hume", 10_000),
        ("black_mage", "hume", 15_000),
    ],
)
def test_list_and_special_prices(item, roster, price):
    """R: list prices; roster special prices (Goblin bribes, Allstar 9 chef)."""
    assert pre.inducement_price(item, team=team(roster), hr=HR) == price


def test_star_price_comes_from_the_star_list():
    """H: a Star Player's price is his entry in house rules `star_players`."""
    assert pre.inducement_price("star_player", team=HUME, star="rolf_stormhand", hr=HR) == 28_000
    assert pre.inducement_price("star_player", team=HUME, star="mogrin_the_magnificent", hr=HR) == 12_000


def test_mercenary_price_is_position_cost_plus_surcharge_plus_skill():
    """R: a Hume Lineman mercenary costs 5,000 + 3,000 = 8,000; with an extra skill + 5,000 = 13,000."""
    assert pre.inducement_price("mercenary", team=HUME, position="lineman", hr=HR) == 8000
    assert pre.inducement_price("mercenary", team=HUME, position="lineman", skill="Block", hr=HR) == 13_000
    assert pre.inducement_price("mercenary", team=HUME, position="ogre", hr=HR) == 17_000


def test_price_of_an_unknown_item_is_refused():
    with pytest.raises(RuleViolation) as exc:
        pre.inducement_price("cheerleader", team=HUME, hr=HR)
    assert exc.value.field == "item"


# --- 2. Inducements: checks ------------------------------------------------------------------------------


def test_check_returns_the_total_price():
    """R: 2 kegs 10,000; 3 Goblin bribes 15,000; 2 Hume Blitzer mercenaries with Tackle 2 × 17,000."""
    assert check("keg", 2) == 10_000
    assert check("bribe", 3, t=team("goblin", counts={"goblin": 11})) == 15_000
    assert check("mercenary", 2, position="blitzer", skill="Tackle") == 34_000


def test_unknown_item_and_bad_quantity_are_refused():
    refused("item", "cheerleader")
    refused("quantity", "keg", 0)
    refused("quantity", "keg", -1)


@pytest.mark.parametrize(
    ("item", "maximum"),
    [("keg", 2), ("bribe", 3), ("extra_training", 4), ("chef", 1), ("wandering_white_mage", 2), ("black_mage", 1)],
)
def test_item_maximums_count_what_was_bought(item, maximum):
    """R: Kegs 0–2, Bribes 0–3, Extra Team Training 0–4, Chef 0–1, Wandering White Mages 0–2, Black Mage 0–1."""
    unit = pre.inducement_price(item, team=HUME, hr=HR)
    assert check(item, maximum) == maximum * unit
    refused("quantity", item, maximum + 1)
    bought = [Purchase(item, maximum - 1)] if maximum > 1 else []
    if bought:
        assert check(item, 1, bought=bought) == unit
    full = [Purchase(item, maximum)]
    refused("quantity", item, 1, bought=full)


def test_other_items_do_not_count_against_a_maximum():
    assert check("keg", 2, bought=[Purchase("bribe", 3), Purchase("black_mage", 1)]) == 10_000


def test_wandering_white_mage_refused_for_undead():
    """R: Wandering White Mages only if the roster may buy a permanent White Mage (Undead may not)."""
    undead = team("undead", counts={"zombie": 11})
    error = refused("item", "wandering_white_mage", t=undead)
    assert "White Mage" in error.message
    assert check("wandering_white_mage", t=team("goblin", counts={"goblin": 11})) == 10_000


def test_star_for_his_roster():
    """R/H: Rolf Stormhand plays for Hume: 28,000."""
    assert check("star_player", star="rolf_stormhand") == 28_000


def test_star_for_a_wrong_roster_is_refused():
    """H: Count Lazarus plays only for Undead; Ragnash does not play for Hume."""
    refused("star", "star_player", star="count_lazarus")
    refused("star", "star_player", star="ragnash_the_hungry")
    assert check("star_player", star="count_lazarus", t=team("undead", counts={"zombie": 11})) == 18_000


def test_star_must_be_named_and_known():
    refused("star", "star_player")
    refused("star", "star_player", star="nobody")


def test_star_one_at_a_time():
    refused("quantity", "star_player", 2, star="rolf_stormhand")


def test_star_not_induced_twice():
    bought = [Purchase("star_player", 1, star="rolf_stormhand", price=28_000)]
    refused("star", "star_player", star="rolf_stormhand", bought=bought)


def test_at_most_two_stars():
    """R: Star Players 0–2."""
    one = [Purchase("star_player", 1, star="rolf_stormhand", price=28_000)]
    assert check("star_player", star="mogrin_the_magnificent", bought=one) == 12_000
    two = [*one, Purchase("star_player", 1, star="mogrin_the_magnificent", price=12_000)]
    refused("quantity", "star_player", star="grimbeard_anvilfist", bought=two)


def test_star_maximum_follows_the_commissioner():
    hr = override(inducements={"star_player": {"max": 1}})
    one = [Purchase("star_player", 1, star="rolf_stormhand", price=28_000)]
    refused("quantity", "star_player", star="mogrin_the_magnificent", bought=one, hr=hr)


def test_mercenary_needs_a_position_of_the_roster():
    refused("position", "mercenary")
    refused("position", "mercenary", position="zombie")


def test_mercenary_skill_must_be_known():
    """R: optional extra skill; it must be a skill of house rules `skills` (matched regardless of case)."""
    refused("skill", "mercenary", position="lineman", skill="Laser Eyes")
    assert check("mercenary", position="lineman", skill="sure hands") == 13_000


def test_mercenary_skill_comes_from_the_positions_normal_access_and_is_new():
    """R ("Unlimited Mercenaries"): one additional skill from those the position takes on a Normal roll — a Hume
    Lineman's Normal access is General, so Mighty Blow (Strength) is refused; a Blitzer already has Block."""
    refused("skill", "mercenary", position="lineman", skill="Mighty Blow")
    refused("skill", "mercenary", position="blitzer", skill="Block")
    assert check("mercenary", position="blitzer", skill="Tackle") == 9_000 + 3_000 + 5_000


def test_mercenary_position_limit_counts_the_roster():
    """R: position limits apply to mercenaries: a Hume team with its Ogre (max 1) cannot hire an Ogre mercenary."""
    with_ogre = team("hume", counts={"lineman": 10, "ogre": 1})
    refused("position", "mercenary", position="ogre", t=with_ogre)
    assert check("mercenary", position="ogre") == 17_000


def test_mercenary_position_limit_counts_mercenaries_bought():
    """R: Hume Blitzers 0–4: 3 on the roster + 1 mercenary bought leave no room; a second is refused."""
    t = team("hume", counts={"lineman": 8, "blitzer": 3})
    assert check("mercenary", position="blitzer", t=t) == 12_000
    bought = [Purchase("mercenary", 1, position="blitzer", price=12_000)]
    refused("position", "mercenary", position="blitzer", t=t, bought=bought)
    refused("position", "mercenary", 2, position="blitzer", t=t)
    # another position is not affected
    assert check("mercenary", position="catcher", t=t, bought=bought) == 10_000


def test_sixteen_players_limit():
    """R: stars and mercenaries may not take the able players above 16: 14 able + 2 mercenaries ok, a 3rd refused."""
    t = team("hume", counts={"lineman": 14}, able=14)
    assert check("mercenary", 2, position="lineman", t=t) == 16_000
    two = [Purchase("mercenary", 2, position="lineman", price=16_000)]
    refused("quantity", "mercenary", position="lineman", t=t, bought=two)
    refused("quantity", "star_player", star="rolf_stormhand", t=t, bought=two)
    refused("quantity", "mercenary", 3, position="lineman", t=t)


def test_sixteen_players_limit_counts_stars_and_mercenaries_together():
    t = team("hume", counts={"lineman": 14}, able=14)
    star = [Purchase("star_player", 1, star="rolf_stormhand", price=28_000)]
    assert check("mercenary", position="lineman", t=t, bought=star) == 8000
    both = [*star, Purchase("mercenary", 1, position="lineman", price=8000)]
    refused("quantity", "star_player", star="mogrin_the_magnificent", t=t, bought=both)


def test_players_missing_the_match_do_not_count_toward_sixteen():
    """R: 16 on the roster, 3 injured (missing the match): 13 able, so 3 mercenaries fit; a 4th does not."""
    t = team("hume", counts={"lineman": 12, "blitzer": 4}, able=13)
    assert check("mercenary", 3, position="catcher", t=t) == 3 * 10_000
    refused("quantity", "mercenary", 4, position="catcher", t=t)


def test_other_inducements_ignore_the_sixteen_players_limit():
    t = team("hume", counts={"lineman": 16}, able=16)
    assert check("keg", 2, t=t) == 10_000
