"""API v1 "Rulesets and rosters": the three rulesets, their shipped rosters and default house rules.

Rules pinned here come from ../shared/rules/{blitzbowl,elfball,bonecruncher}.md (team-building sections).
All of these reads are public: every test uses the anonymous client.
"""

from __future__ import annotations

import pytest

from tests.assertions import assert_refused

pytestmark = pytest.mark.django_db

ELFBALL_LISTS = {
    "black_widows": "Black Widows",
    "deadlings": "Deadlings",
    "desert_dogs": "Desert Dogs",
    "divine_wind": "Divine Wind",
    "gnolls": "Gnolls",
    "night_elves": "Night Elves",
    "razorbacks": "Razorbacks",
    "valkyries": "Valkyries",
}
ELFBALL_ATTRIBUTES = ("jog", "might", "tackle", "dodge", "skill", "grit", "base")

# bonecruncher.md "Wounds", the rulebook's advanced health templates:
# race: (total, head, torso, each leg, each arm, protection)
HEALTH_TEMPLATES = {
    "amazons": (33, 5, 9, 5, 4, 4),
    "humans_barbarians": (35, 5, 10, 6, 4, 2),
    "elves": (36, 5, 9, 6, 5, 3),
    "dwarves": (34, 6, 12, 4, 4, 4),
    "halflings": (27, 3, 8, 5, 3, 2),
    "orcs_goblins": (39, 5, 12, 6, 5, 3),
    "lizardmen": (34, 4, 10, 6, 4, 4),
    "undead_zombies": (25, 3, 6, 4, 4, 1),
}


def rosters(api, ruleset: str) -> dict[str, dict]:
    response = api.get(f"/api/v1/rulesets/{ruleset}/rosters/")
    assert response.status_code == 200, response.content
    return {roster["key"]: roster for roster in response.json()}


def position(roster: dict, key: str) -> dict:
    return next(p for p in roster["positions"] if p["key"] == key)


# --- the rulesets ------------------------------------------------------------------------------


def test_rulesets_lists_blitzbowl_elfball_and_bonecruncher_with_names(api):
    response = api.get("/api/v1/rulesets/")

    assert response.status_code == 200, response.content
    body = response.json()
    assert {r["key"] for r in body} == {"blitzbowl", "elfball", "bonecruncher"}
    assert all(isinstance(r["name"], str) and r["name"] for r in body)


@pytest.mark.parametrize("endpoint", ["rosters", "house-rules"])
def test_an_unknown_ruleset_is_404_with_detail(api, endpoint):
    assert_refused(api.get(f"/api/v1/rulesets/quidditch/{endpoint}/"), 404)


@pytest.mark.parametrize("ruleset", ["blitzbowl", "elfball", "bonecruncher"])
def test_every_roster_position_carries_key_name_limits_cost_and_flat_attributes(api, ruleset):
    """api-v1: positions `[{key, name, min, max, cost, ...attributes}]`; a migrated database already has them."""
    shipped = rosters(api, ruleset)

    assert shipped, f"no {ruleset} rosters in a freshly migrated database"
    for roster in shipped.values():
        assert roster["name"]
        assert roster["positions"], roster["key"]
        for pos in roster["positions"]:
            assert {"key", "name", "min", "max", "cost"} <= pos.keys(), pos
            assert 0 <= pos["min"] <= pos["max"], pos
            for attribute, value in pos["attributes"].items():
                assert pos[attribute] == value, (roster["key"], pos["key"], attribute)


# --- Blitz Bowl --------------------------------------------------------------------------------


def test_blitzbowl_ships_hume_goblin_allstar9_and_more(api):
    """H: rosters ship as data — at least Hume, Goblin, Allstar 9 and one more."""
    shipped = rosters(api, "blitzbowl")

    assert {"hume", "goblin", "allstar9"} <= shipped.keys()
    assert len(shipped) >= 4


def test_hume_lineman_costs_5000_gil_with_a_0_to_16_limit(api):
    """H: the price scale — a Hume lineman costs 5,000 gil (the Mercenary example); R: 0–16 linemen."""
    lineman = position(rosters(api, "blitzbowl")["hume"], "lineman")

    assert (lineman["cost"], lineman["min"], lineman["max"]) == (5000, 0, 16)
    assert lineman["attributes"].keys() == {"ma", "st", "ag", "av"}


def test_every_blitzbowl_roster_has_a_reroll_cost_and_a_white_mage_flag(api):
    """H: rosters carry the re-roll price and whether a White Mage may be hired."""
    for key, roster in rosters(api, "blitzbowl").items():
        assert isinstance(roster["reroll_cost"], int) and roster["reroll_cost"] > 0, key
        assert isinstance(roster["white_mage"], bool), key
    assert rosters(api, "blitzbowl")["hume"]["white_mage"] is True


def test_goblin_bribes_cost_5000_gil(api):
    """R: Bribes 10,000 gil (Goblin rosters 5,000)."""
    assert rosters(api, "blitzbowl")["goblin"]["special_prices"]["bribe"] == 5000


def test_allstar9_qu_master_chef_costs_10000_gil(api):
    """R: Qu Master Chef 30,000 gil (Allstar 9 rosters 10,000)."""
    assert rosters(api, "blitzbowl")["allstar9"]["special_prices"]["chef"] == 10000


# --- ElfBall -----------------------------------------------------------------------------------


def test_elfball_ships_the_eight_team_lists(api):
    """R (Appendix A): Black Widows, Deadlings, Desert Dogs, Divine Wind, Gnolls, Night Elves, Razorbacks, Valkyries."""
    shipped = rosters(api, "elfball")

    assert {key: roster["name"] for key, roster in shipped.items()} == ELFBALL_LISTS


def test_elfball_positions_cost_a_rookies_15_points_and_have_all_seven_attributes(api):
    """R: a rookie costs 15 points; attributes Jog, Might, Tackle, Dodge, Skill, Grit, Base (25 or 40 mm)."""
    for roster in rosters(api, "elfball").values():
        for pos in roster["positions"]:
            assert pos["cost"] == 15, (roster["key"], pos["key"])
            assert set(ELFBALL_ATTRIBUTES) <= pos["attributes"].keys(), (roster["key"], pos["key"])
            assert pos["base"] in (25, 40)


@pytest.mark.parametrize(
    ("team_list", "key", "row"),
    [
        ("razorbacks", "hunter", (5, 3, 4, 3, 2, 3, 25)),
        ("razorbacks", "midfielder", (5, 3, 3, 3, 3, 3, 25)),
        ("night_elves", "striker", (5, 3, 2, 4, 4, 2, 25)),
        ("divine_wind", "defender", (4, 4, 4, 2, 2, 4, 25)),
        ("night_elves", "imp", (6, 2, 2, 5, 3, 2, 25)),
        ("deadlings", "deadwood", (3, 6, 5, 1, 1, 4, 40)),
        ("deadlings", "mummy", (4, 4, 4, 2, 1, 5, 25)),
        ("valkyries", "ice_troll", (4, 5, 4, 2, 1, 4, 40)),
    ],
)
def test_elfball_known_complete_rows(api, team_list, key, row):
    """R (Appendix A): the known complete rows (Jog Might Tackle Dodge Skill Grit Base)."""
    pos = position(rosters(api, "elfball")[team_list], key)

    assert tuple(pos[a] for a in ELFBALL_ATTRIBUTES) == row


# --- Bone Cruncher -----------------------------------------------------------------------------


def test_bonecruncher_ships_eight_races_each_with_traits(api):
    """R: eight races; each race's traits shown on the team sheet (data)."""
    shipped = rosters(api, "bonecruncher")

    assert shipped.keys() == HEALTH_TEMPLATES.keys()
    for key, race in shipped.items():
        assert race["traits"] and all(isinstance(t, str) and t for t in race["traits"]), key


@pytest.mark.parametrize("race", sorted(HEALTH_TEMPLATES))
def test_bonecruncher_health_template_is_the_rulebooks(api, race):
    """R (advanced wounds): hit squares per body area and protection boxes, the rulebook's total beside them."""
    total, head, torso, leg, arm, protection = HEALTH_TEMPLATES[race]

    template = rosters(api, "bonecruncher")[race]["health_template"]

    assert template["total"] == total
    assert (template["head"], template["torso"], template["protection"]) == (head, torso, protection)
    assert template["left_leg"] == template["right_leg"] == leg
    assert template["left_arm"] == template["right_arm"] == arm


def test_halflings_may_field_one_elite_elf_or_human(api):
    """R: Halfling teams may include one Elite player of the Elf or Human race."""
    halflings = rosters(api, "bonecruncher")["halflings"]

    elites = [p for p in halflings["positions"] if p["key"] != "player"]
    assert {p["key"] for p in elites} == {"elite_elf", "elite_human"}
    assert all(p["max"] == 1 for p in elites)


# --- default house rules -----------------------------------------------------------------------


def test_blitzbowl_default_house_rules(api):
    """The numbers of blitzbowl.md "Teams, treasury and value" and "League"."""
    response = api.get("/api/v1/rulesets/blitzbowl/house-rules/")

    assert response.status_code == 200, response.content
    hr = response.json()
    assert hr["starting_treasury"] == 100_000  # R: treasury starts at 100,000 gil
    assert hr["max_roster"] == 16  # R: at most 16 players
    assert hr["min_fielded"] == 11  # R: at least 11 can be fielded
    assert hr["coach_may_run_several_teams"] is False  # H: not allowed
    assert hr["reroll_price_multiplier_after_creation"] == 2  # R: re-rolls after creation cost double
    assert {k: v["price"] for k, v in hr["staff"].items()} == {  # H: staff prices
        "assistant_coach": 1000,
        "cheerleader": 1000,
        "white_mage": 5000,
    }
    assert hr["fan_factor"]["price"] == 1000  # H: 1,000 per point at creation
    assert hr["fan_factor"]["value"] == 1000  # H: FF value = FF × 1,000
    assert hr["fan_factor"]["max_at_creation"] == 9  # H: starting FF 0–9
    assert hr["league_points"] == {"win": 3, "draw": 1, "loss": 0}  # R
    assert hr["tie_breakers"] == ["points", "touchdown_difference", "casualties_inflicted", "head_to_head", "name"]
    assert hr["inducements"]["bribe"] == {"max": 3, "price": 10000}  # R
    assert hr["inducements"]["chef"] == {"max": 1, "price": 30000}  # R


def test_elfball_default_house_rules(api):
    """The numbers of elfball.md "Team building"."""
    hr = api.get("/api/v1/rulesets/elfball/house-rules/").json()

    assert hr["points_budget"] == 150  # R: 150 points
    assert hr["rookie_cost"] == 15  # R: a rookie costs 15 points
    assert hr["min_players"] == 6  # R: never cut below 6
    assert hr["basic_roster_size"] == 10  # R: basic-rules teams are exactly 10
    assert {k: (v["points"], v["max"]) for k, v in hr["support"].items()} == {
        "magic_potion": (5, 3),
        "beer_garden_beauty": (5, 2),
        "cheerleader": (5, 4),
        "hired_gun_wizard": (20, 1),
    }


def test_bonecruncher_default_house_rules(api):
    """The numbers of bonecruncher.md "Squad"."""
    hr = api.get("/api/v1/rulesets/bonecruncher/house-rules/").json()

    assert hr["squad_limit"] == 12  # R/H: squads of 12
    assert hr["olympic_squad_limit"] == 15  # R: 15 for Olympic-style events
    assert {k: v["max"] for k, v in hr["support_staff"].items()} == {"cheerleader": 2, "coach": 2, "trainer": 2}
    assert set(hr["races"]) == set(HEALTH_TEMPLATES)  # R: the eight races
