"""The pre-match sequence through the public API (api-v1: `GET/POST /matches/{id}/prematch/`,
`GET/POST /matches/{id}/inducements/{team_id}/`, `DELETE /matches/{id}/inducements/{team_id}/{id}/`).

Rules: ../shared/rules/blitzbowl.md "Pre-match sequence" (R = rulebook, I = the service's interpretation,
H = house default) and ../shared/rules/bonecruncher.md "Pre-game". Every die is entered unless a test says
otherwise. Team Values and treasuries of the squads are worked out in prematch_helpers.py:

    Hume 55,000 TV / 45,000 gil · Goblin 44,000 / 56,000 · Allstar 9 33,000 / 67,000 · Undead 44,000 / 56,000
"""

from __future__ import annotations

import pytest

from league.models import Membership
from teams import services as team_services
from teams.models import Team
from tests.dugout.export.test_export import export_doc
from tests.factories import LeagueFactory, StadiumFactory, TeamFactory, UserFactory
from tests.matches.bonecruncher_helpers import squad_team
from tests.matches.prematch_helpers import BLITZBOWL_STEPS, BONECRUNCHER_STEPS, Flow, injure, refused, squad

pytestmark = pytest.mark.django_db


@pytest.fixture
def flow(commissioner):
    return Flow(commissioner)


@pytest.fixture
def make_team(league):
    """`make_team(roster, n=11, extra=(), name=…)`: a squad with a coach of its own (H: one team per coach)."""
    made = []

    def make(roster: str = "hume", n: int = 11, extra: tuple[str, ...] = (), name: str | None = None) -> Team:
        made.append(roster)
        return squad(league, UserFactory(), name or f"{roster.title()} {len(made)}", roster, n=n, extra=extra)

    return make


@pytest.fixture
def hume(league, coach):
    """Alice's Humes: 55,000 TV, 45,000 gil."""
    return squad(league, coach, "Alice's Humes")


@pytest.fixture
def goblins(league, other_coach):
    """Bob's Goblins: 44,000 TV, 56,000 gil — the underdog against the Humes by 11,000."""
    return squad(league, other_coach, "Bob's Goblins", "goblin")


def budgets(state: dict) -> dict[int, tuple[int, int, int]]:
    return {int(k): (b["induced"], b["treasury_spent"], b["remaining"]) for k, b in state["budgets"].items()}


def items(state: dict, team: Team) -> list[tuple]:
    return [(i["item"], i["quantity"], i["price"]) for i in state["inducements"][str(team.pk)]]


def log_lines(state: dict, step: str) -> list[str]:
    return next(entry["lines"] for entry in state["log"] if entry["step"] == step)


def message(body: dict) -> str:
    return " ".join(" ".join(v) if isinstance(v, list) else str(v) for v in body.values())


# === The sequence ==========================================================================================


def test_a_blitz_bowl_match_walks_weather_fans_then_the_two_shopping_turns(flow, league, hume, goblins):
    """Contract: Blitz Bowl steps in order weather, fans, inducements_superior, inducements_underdog; GET shows
    the whole state; a match whose sequence has not started shows its first step."""
    mid = flow.schedule(league, hume, goblins)
    state = flow.state(mid)
    assert (state["step"], state["steps"], state["complete"], state["shopping"]) == (
        "weather",
        BLITZBOWL_STEPS,
        False,
        None,
    )
    assert (state["weather"], state["fans"], state["fame"], state["budgets"]) == (None, {}, {}, {})
    # R + H: a four-minute limit for choosing inducements, shown as a countdown, not enforced by the server.
    assert state["time_limit_seconds"] == 240
    assert state["inducements"] == {str(hume.pk): [], str(goblins.pk): []}

    # H: weather 2d6 5 + 6 = 11: Pouring Rain.
    state = flow.weather(mid, (5, 6))
    assert (state["step"], state["weather"]) == ("fans", "pouring_rain")
    state = flow.fans(mid, {hume: (3, 4), goblins: (2, 2)})
    assert state["step"] == "inducements_superior"
    assert (state["superior"], state["underdog"], state["shopping"]) == (hume.pk, goblins.pk, hume.pk)
    state = flow.close(mid, "inducements_superior", who=hume.coach)
    assert (state["step"], state["shopping"]) == ("inducements_underdog", goblins.pk)
    state = flow.close(mid, "inducements_underdog", who=goblins.coach)
    assert (state["step"], state["complete"], state["shopping"]) == (None, True, None)
    assert [entry["step"] for entry in state["log"]] == BLITZBOWL_STEPS


@pytest.mark.parametrize(
    ("dice", "weather"),
    [
        ((1, 1), "sweltering_heat"),
        ((1, 2), "very_sunny"),
        ((2, 2), "perfect_conditions"),
        ((5, 5), "perfect_conditions"),
        ((5, 6), "pouring_rain"),
        ((6, 6), "blizzard"),
    ],
)
def test_weather_follows_the_2d6_table(flow, league, hume, goblins, dice, weather):
    """H (1. Weather, 2d6): 2 Sweltering Heat; 3 Very Sunny; 4–10 Perfect Conditions; 11 Pouring Rain;
    12 Blizzard."""
    mid = flow.schedule(league, hume, goblins)
    assert flow.weather(mid, dice)["weather"] == weather


def test_fans_are_entered_per_team_and_make_the_gate(flow, league, hume, goblins):
    """H (3. Fans and FAME): each team's fans = (2d6 `fans` + FF) × 1,000, the gate both together; the dice
    are entered as {"fans": {"<team_id>": [a, b]}} and stored per team."""
    team_services.team_purchase(team_id=goblins.pk, user=goblins.coach, item="fan_factor", quantity=3)
    mid = flow.schedule(league, hume, goblins)
    flow.weather(mid, (3, 4))
    # Humes: (2 + 5 + FF 0) × 1,000 = 7,000; Goblins: (6 + 6 + FF 3) × 1,000 = 15,000; gate 22,000.
    # FAME: Humes 7,000 ≤ 15,000 → 0; Goblins 15,000 ≥ 2 × 7,000 → 2.
    state = flow.fans(mid, {goblins: (6, 6), hume: (2, 5)})
    assert state["fans"] == {str(hume.pk): 7_000, str(goblins.pk): 15_000}
    assert state["gate"] == 22_000
    assert state["fame"] == {str(hume.pk): 0, str(goblins.pk): 2}
    fans = [(r["team"], r["key"], r["expression"], r["values"], r["entered"]) for r in flow.rolls(mid)[1:]]
    assert sorted(fans) == sorted([(hume.pk, "fans", "2d6", [2, 5], True), (goblins.pk, "fans", "2d6", [6, 6], True)])


def test_dice_not_entered_are_rolled_by_the_server_and_stored(flow, league, hume, goblins):
    """Dice and rolls: a roll not entered is rolled by the server and stored (entered: false)."""
    mid = flow.schedule(league, hume, goblins)
    flow.run(flow.commissioner, mid, "weather")
    state = flow.run(flow.commissioner, mid, "fans")
    rolls = flow.rolls(mid)
    assert [(r["key"], r["entered"], r["expression"]) for r in rolls] == [("weather", False, "2d6")] + [
        ("fans", False, "2d6")
    ] * 2
    assert all(len(r["values"]) == 2 and all(1 <= v <= 6 for v in r["values"]) for r in rolls)
    by_team = {r["team"]: sum(r["values"]) * 1_000 for r in rolls[1:]}
    assert state["fans"] == {str(k): v for k, v in by_team.items()}


@pytest.mark.parametrize(
    ("home_dice", "away_dice", "fame"),
    [
        ((3, 4), (4, 3), (0, 0)),  # 7,000 = 7,000: neither has more.
        ((4, 4), (3, 4), (1, 0)),  # 8,000 > 7,000, not double.
        ((6, 5), (3, 3), (1, 0)),  # 11,000 < 2 × 6,000.
        ((6, 6), (3, 3), (2, 0)),  # 12,000 = 2 × 6,000: at least double.
        ((1, 1), (5, 6), (0, 2)),  # 2,000 vs 11,000: the away team has more than double.
    ],
)
def test_fame_is_0_when_not_more_1_when_more_2_when_at_least_double(
    flow, league, hume, goblins, home_dice, away_dice, fame
):
    """H (3. Fans and FAME): FAME = 0 if your fans ≤ the opponent's, 1 if more, 2 if at least double."""
    mid = flow.schedule(league, hume, goblins)
    flow.weather(mid)
    state = flow.fans(mid, {hume: home_dice, goblins: away_dice})
    assert (state["fame"][str(hume.pk)], state["fame"][str(goblins.pk)]) == fame


def test_the_prematch_rolls_appear_in_the_match_rolls(flow, league, hume, goblins, commissioner):
    """Dice and rolls: every pre-match roll is stored with league, match, team, step, key, dice, values,
    entered-or-server and who rolled it."""
    mid = flow.schedule(league, hume, goblins)
    flow.weather(mid, (1, 2))
    flow.fans(mid, {hume: (6, 6), goblins: (1, 1)}, who=hume.coach)
    rows = [
        (r["league"], r["match"], r["team"], r["step"], r["key"], r["expression"], r["values"], r["entered"])
        for r in flow.rolls(mid)
    ]
    assert rows == [
        (league.pk, mid, None, "weather", "weather", "2d6", [1, 2], True),
        (league.pk, mid, hume.pk, "fans", "fans", "2d6", [6, 6], True),
        (league.pk, mid, goblins.pk, "fans", "fans", "2d6", [1, 1], True),
    ]
    assert [r["rolled_by"] for r in flow.rolls(mid)] == [commissioner.pk, hume.coach.pk, hume.coach.pk]


def test_a_step_that_is_not_current_is_409_and_changes_nothing(flow, league, hume, goblins):
    """Contract: 409 for a step that is not current; a refused request changes nothing."""
    mid = flow.schedule(league, hume, goblins)
    before = flow.snapshot(mid, hume, goblins)
    for step in ("fans", "inducements_superior", "inducements_underdog", "kick_off"):
        r = flow.step(flow.commissioner, mid, step, rolls={"fans": {str(hume.pk): [6, 6]}}, choices={"done": True})
        refused(r, 409)
    assert flow.snapshot(mid, hume, goblins) == before

    flow.weather(mid, (3, 3))
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.step(flow.commissioner, mid, "weather", rolls={"weather": [6, 6]}), 409)
    refused(flow.step(flow.commissioner, mid, "inducements_superior", choices={"done": True}), 409)
    assert flow.snapshot(mid, hume, goblins) == before
    assert flow.state(mid)["weather"] == "perfect_conditions"

    flow.fans(mid, {hume: (3, 4), goblins: (3, 4)})
    flow.finish(mid)
    before = flow.snapshot(mid, hume, goblins)
    for step in BLITZBOWL_STEPS:
        refused(flow.step(flow.commissioner, mid, step, choices={"done": True}), 409)
    assert flow.snapshot(mid, hume, goblins) == before


def test_bad_dice_are_400_and_change_nothing(flow, league, hume, goblins, make_team):
    """Dice and rolls: entered values outside the dice, unknown roll keys, another match's team: 400."""
    stranger_team = make_team("hume")
    mid = flow.schedule(league, hume, goblins)
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.step(flow.commissioner, mid, "weather", rolls={"weather": [7, 1]}), 400, "rolls.weather")
    refused(flow.step(flow.commissioner, mid, "weather", rolls={"weather_dice": [1, 1]}), 400)
    assert flow.snapshot(mid, hume, goblins) == before
    flow.weather(mid)
    before = flow.snapshot(mid, hume, goblins)
    bad = {"fans": {str(stranger_team.pk): [3, 3], str(hume.pk): [3, 3]}}
    refused(flow.step(flow.commissioner, mid, "fans", rolls=bad), 400)
    refused(flow.step(flow.commissioner, mid, "fans", rolls={"fans": {str(hume.pk): [0, 3]}}), 400)
    assert flow.snapshot(mid, hume, goblins) == before


def test_a_shopping_turn_closes_only_with_done(flow, league, hume, goblins):
    """Contract: the coach closes his shopping with {"choices": {"done": true}}; anything else is 400."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.step(hume.coach, mid, "inducements_superior"), 400)
    refused(flow.step(hume.coach, mid, "inducements_superior", choices={"done": False}), 400)
    assert flow.snapshot(mid, hume, goblins) == before


# === Budgets ===============================================================================================


@pytest.mark.parametrize(
    ("order", "stadium", "expected"),
    [
        # R: the underdog (the Goblins, 44,000) receives the TV difference 55,000 − 44,000 = 11,000 …
        ("hume_first", None, {"hume": 0, "goblins": 11_000}),
        ("goblins_first", None, {"hume": 0, "goblins": 11_000}),
        # R: … and, at the Humes' home stadium, the other team (the Goblins) + 5,000: both apply.
        ("hume_first", "hume", {"hume": 0, "goblins": 16_000}),
        ("goblins_first", "hume", {"hume": 0, "goblins": 16_000}),
        # R: at the Goblins' home stadium the Humes get + 5,000 although they are the superior team.
        ("hume_first", "goblins", {"hume": 5_000, "goblins": 11_000}),
        ("goblins_first", "goblins", {"hume": 5_000, "goblins": 11_000}),
        # I: a stadium that is the home of neither (a third team's, or nobody's) gives no bonus.
        ("hume_first", "third", {"hume": 0, "goblins": 11_000}),
        ("hume_first", "nobody", {"hume": 0, "goblins": 11_000}),
    ],
)
def test_inducement_budget_is_the_tv_difference_plus_5000_at_the_other_teams_home(
    flow, league, hume, goblins, make_team, order, stadium, expected
):
    """R (2. Inducements): the underdog receives the TV difference; the team playing at the other team's home
    stadium receives +5,000; the higher TV shops first whatever the order of the teams."""
    teams = {"hume": hume, "goblins": goblins}
    venue = None
    if stadium is not None:
        venue = StadiumFactory(league=league, name="The Pit")
        if stadium in teams:
            Team.objects.filter(pk=teams[stadium].pk).update(home_stadium=venue)
        elif stadium == "third":
            Team.objects.filter(pk=make_team("orc").pk).update(home_stadium=venue)
    first, second = (hume, goblins) if order == "hume_first" else (goblins, hume)
    mid = flow.schedule(league, first, second, stadium=venue)
    state = flow.to_shopping(mid, first, second)
    assert state["team_values"] == {str(hume.pk): 55_000, str(goblins.pk): 44_000}
    assert (state["superior"], state["underdog"], state["shopping"]) == (hume.pk, goblins.pk, hume.pk)
    assert budgets(state) == {
        hume.pk: (expected["hume"], 0, expected["hume"]),
        goblins.pk: (expected["goblins"], 0, expected["goblins"]),
    }


@pytest.mark.parametrize("first", ["a", "b"])
def test_equal_tv_the_home_team_counts_as_the_higher(flow, league, make_team, first):
    """I (2. Inducements): with equal TV the home team (first in the match's teams) counts as the higher and
    shops first; nobody receives inducement gil."""
    a, b = make_team("hume"), make_team("hume")
    home, away = (a, b) if first == "a" else (b, a)
    mid = flow.schedule(league, home, away)
    state = flow.to_shopping(mid, home, away)
    assert state["team_values"] == {str(a.pk): 55_000, str(b.pk): 55_000}
    assert (state["superior"], state["underdog"], state["shopping"]) == (home.pk, away.pk, home.pk)
    assert budgets(state) == {home.pk: (0, 0, 0), away.pk: (0, 0, 0)}
    assert "(level: the home team counts as the higher)" in " ".join(log_lines(state, "fans"))


def test_equal_tv_at_the_away_teams_home_stadium_the_home_team_gets_5000(flow, league, make_team):
    """I + R: equal TV — the home team is the superior — at the away team's home stadium: +5,000 to the
    home team, nothing to the away team."""
    home, away = make_team("hume"), make_team("hume")
    venue = StadiumFactory(league=league, name="Away Ground")
    Team.objects.filter(pk=away.pk).update(home_stadium=venue)
    mid = flow.schedule(league, home, away, stadium=venue)
    state = flow.to_shopping(mid, home, away)
    assert (state["superior"], state["underdog"]) == (home.pk, away.pk)
    assert budgets(state) == {home.pk: (5_000, 0, 5_000), away.pk: (0, 0, 0)}
    # R: its inducement gil is spent first: a keg and a bribe (15,000) take 10,000 from the treasury.
    flow.buy(mid, home, "keg")
    flow.buy(mid, home, "bribe")
    state = flow.close(mid, "inducements_superior")
    assert budgets(state)[home.pk] == (5_000, 10_000, 0)
    assert (flow.ledger(home)[-1]["amount"], flow.treasury(home)) == (-10_000, 35_000)


def test_tv_for_the_budget_leaves_out_players_missing_the_match(flow, league, hume, goblins):
    """R (Teams, treasury and value; 2. Inducements): TV as of the pre-match counts only players who can play
    this match. Three Humes miss it: 8 × 5,000 = 40,000 < the Goblins' 44,000 — the Humes are the underdog by
    4,000 and the Goblins shop first."""
    injure(hume, 1, 2, 3)
    mid = flow.schedule(league, hume, goblins)
    state = flow.to_shopping(mid, hume, goblins)
    assert state["team_values"] == {str(hume.pk): 40_000, str(goblins.pk): 44_000}
    assert (state["superior"], state["underdog"], state["shopping"]) == (goblins.pk, hume.pk, goblins.pk)
    assert budgets(state) == {hume.pk: (4_000, 0, 4_000), goblins.pk: (0, 0, 0)}


# === Purchase order ========================================================================================


def test_the_underdog_cannot_buy_during_the_superiors_turn(flow, league, hume, goblins):
    """R (2. Inducements): the team with the higher TV commits its purchases first, then the underdog buys:
    the underdog's POST during the superior's turn is 409 and changes nothing."""
    mid = flow.schedule(league, hume, goblins)
    flow.weather(mid)
    before = flow.snapshot(mid, hume, goblins)
    # Before the shopping turns: nobody buys.
    for team in (hume, goblins):
        refused(flow.buy_response(team.coach, mid, team, "keg"), 409)
    assert flow.snapshot(mid, hume, goblins) == before
    flow.fans(mid, {hume: (3, 4), goblins: (3, 4)})
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.buy_response(goblins.coach, mid, goblins, "bribe"), 409)
    refused(flow.buy_response(flow.commissioner, mid, goblins, "bribe"), 409)
    refused(flow.step(goblins.coach, mid, "inducements_underdog", choices={"done": True}), 409)
    assert flow.snapshot(mid, hume, goblins) == before
    flow.buy(mid, hume, "keg")
    state = flow.close(mid, "inducements_superior", who=hume.coach)
    assert state["shopping"] == goblins.pk
    assert flow.buy(mid, goblins, "bribe")["price"] == 5_000


def test_the_superior_cannot_buy_after_closing_its_turn(flow, league, hume, goblins):
    """R (2. Inducements): the superior's shopping is over once it commits; a later POST is 409, and nobody
    buys once the sequence is complete."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    flow.buy(mid, hume, "keg")
    flow.close(mid, "inducements_superior", who=hume.coach)
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.buy_response(hume.coach, mid, hume, "keg"), 409)
    refused(flow.buy_response(flow.commissioner, mid, hume, "keg"), 409)
    assert flow.snapshot(mid, hume, goblins) == before
    flow.close(mid, "inducements_underdog", who=goblins.coach)
    before = flow.snapshot(mid, hume, goblins)
    for team in (hume, goblins):
        refused(flow.buy_response(team.coach, mid, team, "keg"), 409)
    assert flow.snapshot(mid, hume, goblins) == before


def test_an_inducement_can_be_given_back_only_while_the_turn_is_open(flow, league, hume, goblins):
    """Contract: DELETE returns an inducement while the team's shopping turn is open (204); after it closes,
    409 and the inducement stays (and stays paid for)."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    keg = flow.buy(mid, hume, "keg", 2)
    mage = flow.buy(mid, hume, "black_mage")
    assert budgets(flow.state(mid))[hume.pk] == (0, 25_000, 0)
    flow.remove(hume.coach, mid, hume, keg["id"], status=204)
    state = flow.state(mid)
    assert items(state, hume) == [("black_mage", 1, 15_000)]
    assert budgets(state)[hume.pk] == (0, 15_000, 0)
    # Gone: a second DELETE finds nothing; the other team's URL does not reach it either.
    refused(flow.remove(hume.coach, mid, hume, keg["id"]), (400, 404))
    refused(flow.remove(flow.commissioner, mid, goblins, mage["id"]), (400, 404, 409))
    flow.close(mid, "inducements_superior", who=hume.coach)
    # The turn is closed: the mage stays, and only the 15,000 left the treasury.
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.remove(hume.coach, mid, hume, mage["id"]), 409)
    refused(flow.remove(flow.commissioner, mid, hume, mage["id"]), 409)
    assert flow.snapshot(mid, hume, goblins) == before
    assert flow.treasury(hume) == 45_000 - 15_000
    # The underdog's own turn: it can give back what it bought.
    bribe = flow.buy(mid, goblins, "bribe")
    flow.remove(flow.commissioner, mid, goblins, bribe["id"], status=204)
    assert flow.bought(mid, goblins) == []


# === Prices and limits =====================================================================================


@pytest.mark.parametrize(
    ("roster", "item", "quantity", "extra", "total"),
    [
        ("hume", "keg", 1, {}, 5_000),
        ("hume", "keg", 2, {}, 10_000),
        ("hume", "bribe", 1, {}, 10_000),
        ("goblin", "bribe", 3, {}, 15_000),  # R: Goblin rosters pay 5,000 a bribe.
        ("hume", "extra_training", 3, {}, 30_000),
        ("hume", "chef", 1, {}, 30_000),
        ("goblin", "chef", 1, {}, 30_000),
        ("allstar9", "chef", 1, {}, 10_000),  # R: Allstar 9 rosters pay 10,000 for the chef.
        ("hume", "wandering_white_mage", 2, {}, 20_000),
        ("hume", "black_mage", 1, {}, 15_000),
        ("hume", "star_player", 1, {"star": "rolf_stormhand"}, 28_000),  # H: the star list.
        ("goblin", "star_player", 1, {"star": "gizzik_quickfingers"}, 10_000),
        ("hume", "mercenary", 1, {"position": "lineman"}, 8_000),  # R: position price 5,000 + 3,000.
        ("hume", "mercenary", 2, {"position": "blitzer"}, 24_000),  # 2 × (9,000 + 3,000).
        ("hume", "mercenary", 1, {"position": "lineman", "skill": "Block"}, 13_000),  # + 5,000 extra skill.
    ],
)
def test_each_inducement_has_its_price(flow, league, make_team, roster, item, quantity, extra, total):
    """R (2. Inducements): Kegs 5,000; Bribes 10,000 (Goblin rosters 5,000); Extra Team Training 10,000; Qu
    Master Chef 30,000 (Allstar 9 rosters 10,000); Wandering White Mages 10,000; Black Mage 15,000; Star
    Players their price (H: star list); Mercenaries position price + 3,000, extra skill + 5,000."""
    team, opponent = make_team(roster), make_team("hume")
    mid = flow.schedule(league, team, opponent)
    flow.open_turn(mid, team, opponent, team)
    bought = flow.buy(mid, team, item, quantity, **extra)
    assert (bought["team"], bought["item"], bought["quantity"], bought["price"]) == (team.pk, item, quantity, total)
    state = flow.state(mid)
    assert items(state, team) == [(item, quantity, total)]
    induced = budgets(state)[team.pk][0]
    assert budgets(state)[team.pk] == (induced, max(0, total - induced), max(0, induced - total))


@pytest.mark.parametrize(
    ("item", "maximum"),
    [("keg", 2), ("bribe", 3), ("extra_training", 4), ("chef", 1), ("wandering_white_mage", 2), ("black_mage", 1)],
)
def test_each_inducement_has_its_limit(flow, league, hume, goblins, item, maximum):
    """R (2. Inducements): Kegs 0–2, Bribes 0–3, Extra Team Training 0–4, Chef 0–1, Wandering White Mages 0–2,
    Black Mage 0–1 — counting what the team already bought; a purchase over the limit is 400 and changes
    nothing (the Humes' 45,000 gil would pay for it: the limit refuses it, not the budget)."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    before = flow.snapshot(mid, hume, goblins)
    body = refused(flow.buy_response(hume.coach, mid, hume, item, maximum + 1), 400, "quantity")
    assert "at most" in message(body)
    assert flow.snapshot(mid, hume, goblins) == before
    for _ in range(maximum):
        flow.buy(mid, hume, item)
    before = flow.snapshot(mid, hume, goblins)
    body = refused(flow.buy_response(hume.coach, mid, hume, item), 400, "quantity")
    assert "at most" in message(body)
    assert flow.snapshot(mid, hume, goblins) == before
    assert sum(i["quantity"] for i in flow.bought(mid, hume)) == maximum


def test_at_most_two_star_players_one_at_a_time_never_the_same_twice(flow, league, hume, goblins):
    """R (2. Inducements): Star Players 0–2; H: induced one at a time, a star at most once per team."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.buy_response(hume.coach, mid, hume, "star_player", 2, star="mogrin_the_magnificent"), 400)
    flow.buy(mid, hume, "star_player", star="mogrin_the_magnificent")  # 12,000
    refused(flow.buy_response(hume.coach, mid, hume, "star_player", star="mogrin_the_magnificent"), 400)
    flow.buy(mid, hume, "star_player", star="rolf_stormhand")  # 28,000: 40,000 of the 45,000 gil
    before = flow.snapshot(mid, hume, goblins)
    body = refused(flow.buy_response(hume.coach, mid, hume, "star_player", star="grimbeard_anvilfist"), 400)
    assert "at most 2" in message(body)
    assert flow.snapshot(mid, hume, goblins) == before


@pytest.mark.parametrize(
    ("star", "field"),
    [("count_lazarus", "star"), ("gizzik_quickfingers", "star"), ("no_such_star", "star")],
)
def test_a_star_who_does_not_play_for_the_roster_is_refused(flow, league, hume, goblins, star, field):
    """R (2. Inducements) + H (star list as data): only stars whose `plays_for` names the team's roster (Count
    Lazarus plays for Undead, Gizzik for Goblin, Orc and Qiqirn) — and only known stars."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.buy_response(hume.coach, mid, hume, "star_player", star=star), 400, field)
    assert flow.snapshot(mid, hume, goblins) == before


def test_wandering_white_mages_are_refused_to_a_roster_without_a_white_mage(flow, league, make_team):
    """R (2. Inducements): Wandering White Mages only if the roster may buy a permanent White Mage (Undead:
    `white_mage: false`); a Hume team may."""
    hume, undead = make_team("hume"), make_team("undead")
    mid = flow.schedule(league, hume, undead)
    flow.to_shopping(mid, hume, undead)
    assert flow.buy(mid, hume, "wandering_white_mage")["price"] == 10_000
    flow.close(mid, "inducements_superior")
    before = flow.snapshot(mid, hume, undead)
    body = refused(flow.buy_response(undead.coach, mid, undead, "wandering_white_mage"), 400, "item")
    assert "White Mage" in message(body)
    assert flow.snapshot(mid, hume, undead) == before
    # Everything else is open to the Undead (11,000 inducement gil).
    assert flow.buy(mid, undead, "black_mage")["price"] == 15_000


def test_unknown_items_positions_and_skills_are_400(flow, league, hume, goblins, make_team):
    """Contract: items are keg, bribe, extra_training, chef, wandering_white_mage, black_mage, star_player,
    mercenary; a mercenary needs a position of the team's roster and a known skill; the team plays the match."""
    outsider = make_team("orc")
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.buy_response(hume.coach, mid, hume, "cheerleader"), 400, "item")
    refused(flow.buy_response(hume.coach, mid, hume, "keg", 0), 400, "quantity")
    refused(flow.buy_response(hume.coach, mid, hume, "mercenary"), 400, "position")
    refused(flow.buy_response(hume.coach, mid, hume, "mercenary", position="troll"), 400, "position")
    refused(flow.buy_response(hume.coach, mid, hume, "mercenary", position="lineman", skill="Flying"), 400)
    refused(flow.buy_response(hume.coach, mid, hume, "star_player"), 400, "star")
    refused(flow.buy_response(flow.commissioner, mid, outsider, "keg"), (400, 404))
    assert flow.snapshot(mid, hume, goblins) == before
    assert flow.bought(mid, outsider) == []


def test_a_mercenarys_extra_skill_comes_from_the_positions_normal_access(flow, league, hume, goblins):
    """R (Inducements in detail, seeds/003): "you may choose to give a Mercenary one additional skill selected
    from those available to a player of that position on a Normal roll" (+5,000; the rulebook's example: a Hume
    lineman with Tackle, 13,000). A Hume lineman's Normal access is General: Mighty Blow (Strength) is refused."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    assert flow.buy(mid, hume, "mercenary", position="lineman", skill="Tackle")["price"] == 13_000
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.buy_response(hume.coach, mid, hume, "mercenary", position="lineman", skill="Mighty Blow"), 400)
    assert flow.snapshot(mid, hume, goblins) == before


def test_a_mercenarys_extra_skill_is_one_he_does_not_have(flow, league, hume, goblins):
    """R (Inducements in detail): the extra skill is "one additional skill" — a Hume Blitzer already has Block."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.buy_response(hume.coach, mid, hume, "mercenary", position="blitzer", skill="Block"), 400)
    assert flow.snapshot(mid, hume, goblins) == before


def test_an_empty_optional_field_means_none(flow, league, hume, goblins):
    """Contract: `position?`, `skill?`, `star?` are optional — a client that sends them empty ("no extra skill")
    buys the plain inducement: a mercenary Hume lineman without a skill, 8,000; a keg."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    merc = flow.buy(mid, hume, "mercenary", position="lineman", skill="", star="")
    assert (merc["skill"], merc["price"]) == ("", 8_000)
    assert flow.buy(mid, hume, "keg", position="", skill="", star="")["price"] == 5_000


def test_mercenaries_obey_the_position_limits(flow, league, make_team):
    """R (2. Inducements): position limits apply to mercenaries — players of the position on the roster plus
    mercenaries of it. Hume throwers 0–2: with one on the roster, one mercenary thrower is the last."""
    team = make_team("hume", extra=("thrower",))  # 11 × 5,000 + 7,000 = 62,000 TV, 38,000 gil
    opponent = make_team("hume")
    mid = flow.schedule(league, team, opponent)
    flow.to_shopping(mid, team, opponent)
    assert flow.buy(mid, team, "mercenary", position="thrower")["price"] == 10_000
    before = flow.snapshot(mid, team, opponent)
    body = refused(flow.buy_response(team.coach, mid, team, "mercenary", position="thrower"), 400, "position")
    assert "Thrower" in message(body)
    assert flow.snapshot(mid, team, opponent) == before
    # Another position still has room: Blitzers 0–4.
    assert flow.buy(mid, team, "mercenary", 2, position="blitzer")["price"] == 24_000


def test_stars_and_mercenaries_may_not_take_the_able_players_above_16(flow, league, make_team):
    """R (2. Inducements): stars and mercenaries may not take the players able to play above 16; players
    missing the match do not count. Sixteen Goblins, two of them missing the match: 14 able (56,000 TV,
    36,000 gil) — a star and a mercenary make 16, a third inducement is refused although the gil is there."""
    team = make_team("goblin", n=16)
    injure(team, 15, 16)
    opponent = make_team("hume")
    mid = flow.schedule(league, team, opponent)
    flow.open_turn(mid, team, opponent, team)
    assert flow.buy(mid, team, "star_player", star="gizzik_quickfingers")["price"] == 10_000
    assert flow.buy(mid, team, "mercenary", position="troll")["price"] == 14_000
    before = flow.snapshot(mid, team, opponent)
    body = refused(flow.buy_response(team.coach, mid, team, "mercenary", position="pogoer"), 400)
    assert "16" in message(body)
    refused(flow.buy_response(team.coach, mid, team, "star_player", star="ragnash_the_hungry"), 400)
    assert flow.snapshot(mid, team, opponent) == before
    # The other inducements are not players: they still fit.
    assert flow.buy(mid, team, "bribe")["price"] == 5_000


def test_a_full_sixteen_can_induce_no_player(flow, league, make_team):
    """R (2. Inducements): sixteen Goblins able to play leave no room for a star or a mercenary."""
    team = make_team("goblin", n=16)  # 64,000 TV: the superior against 11 Humes
    opponent = make_team("hume")
    mid = flow.schedule(league, team, opponent)
    flow.open_turn(mid, team, opponent, team)
    before = flow.snapshot(mid, team, opponent)
    refused(flow.buy_response(team.coach, mid, team, "star_player", star="gizzik_quickfingers"), 400)
    refused(flow.buy_response(team.coach, mid, team, "mercenary", position="troll"), 400)
    assert flow.snapshot(mid, team, opponent) == before


def test_purchases_over_inducement_gil_plus_treasury_are_400(flow, league, hume, goblins):
    """R (2. Inducements) + I (the treasury never goes below 0): the Goblins have 11,000 inducement gil and
    56,000 gil in the treasury = 67,000. Chef 30,000 + Black Mage 15,000 + Extra Training 10,000 + a mercenary
    Goblin 7,000 + a keg 5,000 = 67,000 exactly; one more keg is over the budget."""
    mid = flow.schedule(league, hume, goblins)
    flow.open_turn(mid, hume, goblins, goblins)
    for item, extra in (
        ("chef", {}),
        ("black_mage", {}),
        ("extra_training", {}),
        ("mercenary", {"position": "goblin"}),
        ("keg", {}),
    ):
        flow.buy(mid, goblins, item, **extra)
    assert budgets(flow.state(mid))[goblins.pk] == (11_000, 56_000, 0)
    before = flow.snapshot(mid, hume, goblins)
    body = refused(flow.buy_response(goblins.coach, mid, goblins, "keg"), 400)
    assert "Over budget" in message(body)
    assert flow.snapshot(mid, hume, goblins) == before
    state = flow.close(mid, "inducements_underdog", who=goblins.coach)
    assert flow.treasury(goblins) == 0
    assert flow.ledger(goblins)[-1]["amount"] == -56_000
    assert state["complete"] is True


def test_the_superior_has_only_its_treasury(flow, league, hume, goblins):
    """R (2. Inducements): the superior (no inducement gil) pays everything from its 45,000 gil."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    flow.buy(mid, hume, "chef")
    flow.buy(mid, hume, "black_mage")
    before = flow.snapshot(mid, hume, goblins)
    refused(flow.buy_response(hume.coach, mid, hume, "keg"), 400)
    assert flow.snapshot(mid, hume, goblins) == before


def test_the_inducement_numbers_are_the_leagues_house_rules(flow, commissioner):
    """H: every number is league configuration — here a home-stadium bonus of 7,000, kegs 0–1 at 4,000 and at
    most 12 players able to play with stars and mercenaries."""
    league = LeagueFactory(
        created_by=commissioner,
        name="House Cup",
        ruleset="blitzbowl",
        house_rules_overrides={
            "inducement_home_stadium_bonus": 7_000,
            "inducements": {"keg": {"max": 1, "price": 4_000}},
            "inducement_max_players": 12,
        },
    )
    hume = squad(league, UserFactory(), "House Humes")
    goblins = squad(league, UserFactory(), "House Goblins", "goblin")
    venue = StadiumFactory(league=league, name="Hume Hall")
    Team.objects.filter(pk=hume.pk).update(home_stadium=venue)
    mid = flow.schedule(league, hume, goblins, stadium=venue)
    state = flow.to_shopping(mid, hume, goblins)
    # 11,000 TV difference + 7,000 at the Humes' home.
    assert budgets(state) == {hume.pk: (0, 0, 0), goblins.pk: (18_000, 0, 18_000)}
    assert flow.buy(mid, hume, "keg")["price"] == 4_000
    refused(flow.buy_response(hume.coach, mid, hume, "keg"), 400, "quantity")
    assert flow.buy(mid, hume, "mercenary", position="lineman")["price"] == 8_000  # 11 + 1 = 12
    refused(flow.buy_response(hume.coach, mid, hume, "mercenary", position="lineman"), 400, "quantity")


# === Money =================================================================================================


def test_treasury_funded_purchases_leave_the_ledger_when_the_turn_closes(flow, league, hume, goblins):
    """R (2. Inducements) + I (one ledger entry per gil movement): the treasury-funded part of a team's
    shopping is one ledger entry, kind "inducements", with the reason and the match, when its coach closes
    the turn — nothing moves before."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    ledger = flow.ledger(hume)
    flow.buy(mid, hume, "keg", 2)
    flow.buy(mid, hume, "black_mage")
    assert (flow.ledger(hume), flow.treasury(hume)) == (ledger, 45_000)
    state = flow.close(mid, "inducements_superior", who=hume.coach)
    assert budgets(state)[hume.pk] == (0, 25_000, 0)
    entries = flow.ledger(hume)
    assert entries[:-1] == ledger
    entry = entries[-1]
    assert (entry["amount"], entry["balance_after"], entry["kind"], entry["match"]) == (
        -25_000,
        20_000,
        "inducements",
        mid,
    )
    assert "Blitzweiser Keg" in entry["reason"] and "Black Mage" in entry["reason"]
    assert flow.treasury(hume) == 20_000
    assert log_lines(state, "inducements_superior")[-1] == "25,000 gil of it comes from the treasury."

    # The underdog: 11,000 inducement gil first, the other 19,000 of the 30,000 chef from the treasury.
    goblin_ledger = flow.ledger(goblins)
    flow.buy(mid, goblins, "chef")
    state = flow.close(mid, "inducements_underdog", who=goblins.coach)
    assert budgets(state)[goblins.pk] == (11_000, 19_000, 0)
    entries = flow.ledger(goblins)
    assert entries[:-1] == goblin_ledger
    assert (entries[-1]["amount"], entries[-1]["kind"], entries[-1]["match"]) == (-19_000, "inducements", mid)
    assert flow.treasury(goblins) == 56_000 - 19_000


def test_unspent_inducement_gil_is_lost_and_never_reaches_the_treasury(flow, league, hume, goblins):
    """R (2. Inducements): unspent inducement gil is lost. The Goblins spend 10,000 of their 11,000 on bribes:
    the treasury is untouched (no ledger entry) and the other 1,000 is gone."""
    mid = flow.schedule(league, hume, goblins)
    flow.open_turn(mid, hume, goblins, goblins)
    ledger = flow.ledger(goblins)
    flow.buy(mid, goblins, "bribe", 2)
    state = flow.close(mid, "inducements_underdog", who=goblins.coach)
    assert budgets(state)[goblins.pk] == (11_000, 0, 1_000)
    assert log_lines(state, "inducements_underdog")[-1] == "1,000 gil of inducement gil is left unspent and lost."
    assert (flow.ledger(goblins), flow.treasury(goblins)) == (ledger, 56_000)


def test_a_team_that_buys_nothing_loses_all_its_inducement_gil(flow, league, hume, goblins):
    """R (2. Inducements): unspent inducement gil never enters the treasury, even when nothing is bought."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    ledgers = [flow.ledger(hume), flow.ledger(goblins)]
    state = flow.finish(mid)
    assert budgets(state) == {hume.pk: (0, 0, 0), goblins.pk: (11_000, 0, 11_000)}
    assert [flow.ledger(hume), flow.ledger(goblins)] == ledgers
    assert (flow.treasury(hume), flow.treasury(goblins)) == (45_000, 56_000)
    assert log_lines(state, "inducements_underdog") == [
        "Bob's Goblins buys no inducements.",
        "11,000 gil of inducement gil is left unspent and lost.",
    ]


def test_a_star_induced_by_both_teams_plays_for_neither_and_both_pay(flow, league, make_team):
    """R (2. Inducements): if both teams induce the same Star Player, neither may use him and he keeps both
    fees: both teams are charged, and `shared_stars` names him."""
    a, b = make_team("hume"), make_team("dwarf", n=8)  # Dwarf: 8 × 7,000 = 56,000 TV, 44,000 gil
    mid = flow.schedule(league, a, b)
    state = flow.to_shopping(mid, a, b)
    assert (state["superior"], state["underdog"]) == (b.pk, a.pk)
    flow.buy(mid, b, "star_player", star="rolf_stormhand")
    state = flow.close(mid, "inducements_superior")
    assert state["shared_stars"] == []
    flow.buy(mid, a, "star_player", star="rolf_stormhand")
    flow.buy(mid, a, "star_player", star="mogrin_the_magnificent")
    state = flow.close(mid, "inducements_underdog")
    assert state["shared_stars"] == ["rolf_stormhand"]
    # The Dwarfs: 28,000 from the treasury (44,000 → 16,000). The Humes: 1,000 inducement gil, then
    # 28,000 + 12,000 − 1,000 = 39,000 from the treasury (45,000 → 6,000).
    assert budgets(state) == {b.pk: (0, 28_000, 0), a.pk: (1_000, 39_000, 0)}
    assert (flow.treasury(b), flow.treasury(a)) == (16_000, 6_000)
    assert (flow.ledger(b)[-1]["amount"], flow.ledger(a)[-1]["amount"]) == (-28_000, -39_000)


# === Permissions and idempotency ===========================================================================


ACTORS = ("home_coach", "away_coach", "commissioner", "league_coach", "stranger", "anonymous")


@pytest.fixture
def actors(hume, goblins, commissioner, stranger, make_team):
    league_coach = make_team("orc").coach  # a coach of the league, not of this match
    return {
        "home_coach": hume.coach,
        "away_coach": goblins.coach,
        "commissioner": commissioner,
        "league_coach": league_coach,
        "stranger": stranger,
        "anonymous": None,
    }


REFUSED = {"league_coach": 403, "stranger": 403, "anonymous": (401, 403)}


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("step", ["weather", "fans"])
def test_weather_and_fans_are_run_by_a_coach_of_the_match_or_the_commissioner(
    flow, league, hume, goblins, actors, actor, step
):
    """Contract (permissions): weather/fans — a coach of the match or the commissioner; strangers (and a coach
    of another team) 403, anonymous 401/403; a refused request changes nothing. GET is public."""
    mid = flow.schedule(league, hume, goblins)
    if step == "fans":
        flow.weather(mid)
    rolls = {"weather": [3, 3]} if step == "weather" else {"fans": [3, 3, 4, 4]}
    before = flow.snapshot(mid, hume, goblins)
    response = flow.step(actors[actor], mid, step, rolls=rolls)
    if actor in REFUSED:
        refused(response, REFUSED[actor])
        assert flow.snapshot(mid, hume, goblins) == before
    else:
        assert response.status_code == 200, response.json()
        assert response.json()["step"] != step


@pytest.mark.parametrize("actor", ACTORS)
def test_a_shopping_turn_belongs_to_that_teams_coach_or_the_commissioner(flow, league, hume, goblins, actors, actor):
    """Contract (permissions): in the superior's turn only its coach or the commissioner buys, gives back and
    closes; the opposing coach, other coaches and strangers 403, anonymous 401/403."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    keg = flow.buy(mid, hume, "keg")
    who = actors[actor]
    expected = {"away_coach": 403, **REFUSED}.get(actor)
    before = flow.snapshot(mid, hume, goblins)
    bought = flow.buy_response(who, mid, hume, "bribe")
    removed = flow.remove(who, mid, hume, keg["id"])
    closed = flow.step(who, mid, "inducements_superior", choices={"done": True})
    if expected is not None:
        for response in (bought, removed, closed):
            refused(response, expected)
        assert flow.snapshot(mid, hume, goblins) == before
    else:
        assert (bought.status_code, removed.status_code, closed.status_code) == (201, 204, 200)
        assert closed.json()["shopping"] == goblins.pk
        assert [(i["item"], i["price"]) for i in flow.bought(mid, hume)] == [("bribe", 10_000)]


def test_anyone_reads_the_prematch_and_the_inducements(flow, league, hume, goblins, api):
    """api-v1: reads of public data need no auth."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    flow.buy(mid, hume, "keg")
    assert api.get(f"/api/v1/matches/{mid}/prematch/").status_code == 200
    r = api.get(f"/api/v1/matches/{mid}/inducements/{hume.pk}/")
    assert r.status_code == 200 and [i["item"] for i in r.json()] == ["keg"]


def test_a_repeated_inducement_post_with_the_same_idempotency_key_buys_once(flow, league, hume, goblins):
    """api-v1: a repeat with the same Idempotency-Key returns the first answer and changes nothing."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    body = {"item": "keg", "quantity": 1}
    url = flow.inducements_url(mid, hume)
    first = flow.call(hume.coach, "post", url, body, HTTP_IDEMPOTENCY_KEY="keg-1")
    again = flow.call(hume.coach, "post", url, body, HTTP_IDEMPOTENCY_KEY="keg-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert [(i["item"], i["quantity"]) for i in flow.bought(mid, hume)] == [("keg", 1)]
    # A new key is a new purchase.
    assert flow.call(hume.coach, "post", url, body, HTTP_IDEMPOTENCY_KEY="keg-2").status_code == 201
    assert [(i["item"], i["quantity"]) for i in flow.bought(mid, hume)] == [("keg", 1), ("keg", 1)]


def test_a_repeated_close_with_the_same_idempotency_key_charges_once(flow, league, hume, goblins):
    """api-v1: Idempotency-Key on a step POST — the treasury is charged once."""
    mid = flow.schedule(league, hume, goblins)
    flow.to_shopping(mid, hume, goblins)
    flow.buy(mid, hume, "chef")
    first = flow.step(hume.coach, mid, "inducements_superior", choices={"done": True}, HTTP_IDEMPOTENCY_KEY="c")
    again = flow.step(hume.coach, mid, "inducements_superior", choices={"done": True}, HTTP_IDEMPOTENCY_KEY="c")
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json() == first.json()
    assert flow.treasury(hume) == 15_000
    assert [e["kind"] for e in flow.ledger(hume)].count("inducements") == 1


# === The result and the export =============================================================================


def result_body(home: Team, away: Team, fame: dict | None = None) -> dict:
    home_mvp, away_mvp = (t.players.order_by("number").first().pk for t in (home, away))
    sides = [
        {"team": home.pk, "score": 1, "casualties_inflicted": 0, "mvp": home_mvp},
        {"team": away.pk, "score": 0, "casualties_inflicted": 0, "mvp": away_mvp},
    ]
    for side in sides:
        if side["team"] in (fame or {}):
            side["fame"] = fame[side["team"]]
    return {"teams": sides, "players": [{"player": home_mvp, "touchdowns": 1}]}


@pytest.mark.parametrize("stop", ["weather", "fans", "inducements_superior", "inducements_underdog"])
def test_a_result_cannot_be_entered_while_a_started_prematch_is_unfinished(flow, league, hume, goblins, stop):
    """Contract: a result cannot be entered while a started pre-match sequence is unfinished (400, nothing
    changes); once it is complete, it can."""
    mid = flow.schedule(league, hume, goblins)
    for step in BLITZBOWL_STEPS[: BLITZBOWL_STEPS.index(stop)]:
        if step == "weather":
            flow.weather(mid)
        elif step == "fans":
            flow.fans(mid, {hume: (3, 4), goblins: (3, 4)})
        else:
            flow.close(mid, step)
    if stop == "weather":
        # Not started: the result is welcome (the sequence is recorded, not compulsory).
        response = flow.call(hume.coach, "post", f"/api/v1/matches/{mid}/result/", result_body(hume, goblins))
        assert response.status_code == 201, response.json()
        return
    before = (flow.snapshot(mid, hume, goblins), flow.get(f"/api/v1/matches/{mid}/"))
    response = flow.call(hume.coach, "post", f"/api/v1/matches/{mid}/result/", result_body(hume, goblins))
    refused(response, 400)
    assert (flow.snapshot(mid, hume, goblins), flow.get(f"/api/v1/matches/{mid}/")) == before
    flow.finish(mid)
    response = flow.call(hume.coach, "post", f"/api/v1/matches/{mid}/result/", result_body(hume, goblins))
    assert response.status_code == 201, response.json()
    # The result is in: the pre-match sequence is closed.
    refused(flow.step(flow.commissioner, mid, "weather"), (400, 409))


def test_the_prematch_fame_is_the_results_fame(flow, league, hume, goblins):
    """Contract: FAME from the fans step feeds the post-match winnings, so the result no longer needs `fame`
    (and a FAME entered with the result does not override the pre-match's)."""
    mid = flow.schedule(league, hume, goblins)
    flow.weather(mid)
    flow.fans(mid, {hume: (6, 6), goblins: (4, 4)})  # 12,000 vs 8,000: Humes FAME 1, Goblins 0
    flow.finish(mid)
    body = result_body(hume, goblins, {hume.pk: 0, goblins.pk: 2})
    assert flow.call(hume.coach, "post", f"/api/v1/matches/{mid}/result/", body).status_code == 201
    assert flow.call(goblins.coach, "post", f"/api/v1/matches/{mid}/confirm/").status_code == 200
    sides = {s["team"]: s["fame"] for s in flow.get(f"/api/v1/matches/{mid}/")["sides"]}
    assert sides == {hume.pk: 1, goblins.pk: 0}


def test_the_league_export_carries_the_prematch_and_the_inducements(flow, league, hume, goblins):
    """api-v1 `GET /leagues/{id}/export/`: the whole league — each match with its pre-match (weather, gate,
    FAME) and inducements; the inducement ledger entries and the pre-match rolls too."""
    mid = flow.schedule(league, hume, goblins)
    flow.weather(mid, (6, 6))
    flow.fans(mid, {hume: (5, 5), goblins: (2, 3)})  # 10,000 vs 5,000: FAME 2 / 0, gate 15,000
    flow.buy(mid, hume, "keg")
    flow.close(mid, "inducements_superior")
    flow.buy(mid, goblins, "star_player", star="gizzik_quickfingers")
    flow.close(mid, "inducements_underdog")
    doc = export_doc(flow.public, league.pk)
    match = next(m for m in doc["matches"] if m["id"] == mid)
    pre = match["prematch"]
    assert (pre["weather"], pre["gate"], pre["fame"]) == ("blizzard", 15_000, {str(hume.pk): 2, str(goblins.pk): 0})
    assert pre["fans"] == {str(hume.pk): 10_000, str(goblins.pk): 5_000}
    assert [(i["team"], i["item"], i["star"], i["price"]) for i in match["inducements"]] == [
        (hume.pk, "keg", "", 5_000),
        (goblins.pk, "star_player", "gizzik_quickfingers", 10_000),
    ]
    assert [e["amount"] for e in doc["ledgers"][str(hume.pk)] if e["kind"] == "inducements"] == [-5_000]
    # The Goblins' star cost 10,000 < 11,000 inducement gil: nothing from their treasury.
    assert [e for e in doc["ledgers"][str(goblins.pk)] if e["kind"] == "inducements"] == []
    assert [(r["match"], r["key"]) for r in doc["rolls"]] == [(mid, "weather"), (mid, "fans"), (mid, "fans")]


# === Other rulesets ========================================================================================


def test_elfball_has_no_prematch_sequence(commissioner):
    """Contract: ElfBall has no pre-match sequence: POST is 400; GET shows no steps; no inducements."""
    league = LeagueFactory(created_by=commissioner, name="Elf Cup", ruleset="elfball")
    home = TeamFactory(league=league, coach=UserFactory(), name="Widows")
    away = TeamFactory(league=league, coach=UserFactory(), name="Widows Too")
    flow = Flow(commissioner)
    mid = flow.schedule(league, home, away)
    state = flow.state(mid)
    assert (state["steps"], state["step"], state["shopping"]) == ([], None, None)
    for step in ("weather", "aggressor"):
        refused(flow.step(commissioner, mid, step, rolls={}), 400)
    refused(flow.buy_response(commissioner, mid, home, "keg"), (400, 409))
    assert flow.rolls(mid) == []


@pytest.fixture
def crunch(commissioner):
    """A Bone Cruncher league with two squads: (flow, league, home id, away id)."""
    league = LeagueFactory(created_by=commissioner, name="Crunch Cup", ruleset="bonecruncher")
    users = [UserFactory(), UserFactory()]
    for user in users:
        Membership.objects.get_or_create(league=league, user=user, role=Membership.Role.COACH)
    home, _ = squad_team(league, users[0], "Reavers", "humans_barbarians")
    away, _ = squad_team(league, users[1], "Stompers", "orcs_goblins")
    flow = Flow(commissioner)
    mid = flow.call(
        commissioner, "post", "/api/v1/matches/", {"league": league.pk, "teams": [home, away], "kind": "league"}
    ).json()["id"]
    return flow, mid, home, away, users


def test_bone_cruncher_aggressor_ties_re_roll_with_entered_dice(crunch):
    """R (Pre-game): Aggressor — 2d6 each, the higher starts with the ball; ties re-roll. Entered: 3 + 4 = 7
    against 4 + 3 = 7 (tie), then 1 + 1 = 2 against 2 + 1 = 3: the away team is the Aggressor."""
    flow, mid, home, away, users = crunch
    state = flow.state(mid)
    assert (state["steps"], state["step"]) == (BONECRUNCHER_STEPS, "aggressor")
    state = flow.run(
        users[0], mid, "aggressor", rolls={"aggressor": {str(home): [3, 4, 1, 1], str(away): [4, 3, 2, 1]}}
    )
    assert (state["aggressor"], state["step"]) == (away, "terrain")
    lines = log_lines(state, "aggressor")
    assert lines[0] == "Aggressor roll: Reavers 7, Stompers 7."
    assert lines[1] == "Re-roll of the tie: Reavers 2, Stompers 3."
    assert "Stompers is the Aggressor" in lines[2]
    rolls = [(r["team"], r["key"], r["values"], r["entered"]) for r in flow.rolls(mid)]
    assert sorted(rolls) == sorted(
        [
            (home, "aggressor", [3, 4], True),
            (away, "aggressor", [4, 3], True),
            (home, "aggressor", [1, 1], True),
            (away, "aggressor", [2, 1], True),
        ]
    )


@pytest.mark.parametrize(
    ("home_dice", "away_dice", "home_traps", "away_traps"),
    [
        # R: 2 → one may be a Death trap (H: as shipped, one Delay trap too); 12 → two may be Delay traps.
        ((1, 1), (6, 6), (2, 1, 1), (12, 0, 2)),
        # R: otherwise no Death trap and at most one Delay trap.
        ((3, 4), (5, 6), (7, 0, 1), (11, 0, 1)),
    ],
)
def test_bone_cruncher_terrain_allowances(crunch, home_dice, away_dice, home_traps, away_traps):
    """R (Pre-game): each coach rolls 2d6 `terrain` for his number of terrain pieces; 2 allows a Death trap,
    12 two Delay traps, otherwise no Death trap and at most one Delay trap."""
    flow, mid, home, away, users = crunch
    flow.run(users[0], mid, "aggressor", rolls={"aggressor": {str(home): [6, 6], str(away): [1, 1]}})
    rolls = {"terrain": {str(home): list(home_dice), str(away): list(away_dice)}}
    state = flow.run(users[1], mid, "terrain", rolls=rolls)
    assert (state["complete"], state["step"], state["aggressor"]) == (True, None, home)
    terrain = {int(k): (v["pieces"], v["death_traps_max"], v["delay_traps_max"]) for k, v in state["terrain"].items()}
    assert terrain == {home: home_traps, away: away_traps}
    assert [(r["team"], r["values"]) for r in flow.rolls(mid) if r["key"] == "terrain"] == [
        (home, list(home_dice)),
        (away, list(away_dice)),
    ]


def test_bone_cruncher_pregame_is_for_its_coaches_and_in_order(crunch, stranger):
    """Contract: 409 for a step that is not current; strangers 403; Bone Cruncher has no inducements."""
    flow, mid, _, _, users = crunch
    refused(flow.step(users[0], mid, "terrain", rolls={"terrain": [2, 2, 3, 3]}), 409)
    refused(flow.step(stranger, mid, "aggressor"), 403)
    refused(flow.step(None, mid, "aggressor"), (401, 403))
    assert flow.rolls(mid) == []
    state = flow.state(mid)
    assert (state["step"], state["budgets"], state["shopping"]) == ("aggressor", {}, None)


def test_a_mercenary_may_replace_an_injured_player_of_a_full_position(flow, league, make_team):
    """R (2. Inducements): players missing the game do not count towards the team, so a mercenary can replace
    them — a Hume team whose Ogre (0–1) misses the match may induce a mercenary Ogre (14,000 + 3,000)."""
    team = make_team("hume", extra=("ogre",))
    ogre = team.players.get(position__key="ogre")
    injure(team, ogre.number)
    opponent = make_team("hume", extra=("blitzer", "blitzer", "blitzer"))
    mid = flow.schedule(league, team, opponent)
    flow.open_turn(mid, team, opponent, team)
    assert flow.buy(mid, team, "mercenary", position="ogre")["price"] == 17_000
