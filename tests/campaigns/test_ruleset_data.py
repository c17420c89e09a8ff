"""The rulesets' shipped data against the rules files: rosters, team lists, races and their numbers."""

import pytest

from campaigns.rulesets import get_ruleset


def rosters(key):
    return {r["key"]: r for r in get_ruleset(key).roster_data()}


def positions(roster):
    return {p["key"]: p for p in roster["positions"]}


def test_blitzbowl_ships_hume_goblin_allstar9_and_more():
    """H: rosters ship as data — at least Hume, Goblin, Allstar 9 and one more."""
    shipped = rosters("blitzbowl")
    assert {"hume", "goblin", "allstar9"} <= set(shipped)
    assert len(shipped) >= 4


def test_blitzbowl_scale_a_hume_lineman_costs_5000_gil():
    """H: scale — a Hume lineman costs 5,000 gil (the rulebook's mercenary example: 8,000 with +3,000)."""
    lineman = positions(rosters("blitzbowl")["hume"])["lineman"]
    assert lineman["cost"] == 5000
    assert (lineman["min"], lineman["max"]) == (0, 16)


def test_blitzbowl_special_prices_goblin_bribes_and_allstar9_chef():
    """R: Goblin teams buy bribes for 5,000; Allstar 9 teams hire the Master Chef for 10,000."""
    shipped = rosters("blitzbowl")
    assert shipped["goblin"]["special_prices"]["bribe"] == 5000
    assert shipped["allstar9"]["special_prices"]["chef"] == 10000


@pytest.mark.parametrize("key", sorted(rosters("blitzbowl")))
def test_every_blitzbowl_roster_is_complete(key):
    roster = rosters("blitzbowl")[key]
    assert roster["reroll_cost"] > 0
    assert isinstance(roster["white_mage"], bool)
    assert roster["journeyman_position"] in positions(roster)
    assert positions(roster)[roster["journeyman_position"]]["max"] in (12, 16)
    for pos in roster["positions"]:
        assert set(pos["attributes"]) == {"ma", "st", "ag", "av"}
        assert pos["skill_access"]["normal"]
    cheapest_eleven = sorted(p["cost"] for p in roster["positions"] for _ in range(p["max"]))[:11]
    assert sum(cheapest_eleven) <= 100_000, "a legal team must be affordable from the starting treasury"


ELFBALL_LISTS = {
    "black_widows",
    "deadlings",
    "desert_dogs",
    "divine_wind",
    "gnolls",
    "night_elves",
    "razorbacks",
    "valkyries",
}
KNOWN_ROWS = {  # ../shared/rules/elfball.md, "Team lists": jog might tackle dodge skill grit base
    "hunter": (5, 3, 4, 3, 2, 3, 25),
    "midfielder": (5, 3, 3, 3, 3, 3, 25),
    "striker": (5, 3, 2, 4, 4, 2, 25),
    "defender": (4, 4, 4, 2, 2, 4, 25),
    "imp": (6, 2, 2, 5, 3, 2, 25),
    "deadwood": (3, 6, 5, 1, 1, 4, 40),
    "mummy": (4, 4, 4, 2, 1, 5, 25),
    "ice_troll": (4, 5, 4, 2, 1, 4, 40),
}
ATTRS = ("jog", "might", "tackle", "dodge", "skill", "grit", "base")


def test_elfball_ships_all_eight_team_lists():
    """R: Appendix A's eight lists."""
    assert set(rosters("elfball")) == ELFBALL_LISTS


def test_elfball_known_complete_rows_match_the_rulebook():
    seen = set()
    for roster in rosters("elfball").values():
        for pos in roster["positions"]:
            assert pos["cost"] == 15, "R: a rookie costs 15 points"
            assert tuple(pos["attributes"][a] for a in ATTRS) == KNOWN_ROWS.get(
                pos["key"], tuple(pos["attributes"][a] for a in ATTRS)
            ), f"{roster['key']} {pos['key']}"
            seen.add(pos["key"])
    assert set(KNOWN_ROWS) <= seen


def test_elfball_cut_short_rows_are_completed_from_the_midfielder():
    """H: a position that appears nowhere complete takes its listed values and the Midfielder's for the rest."""
    for roster in rosters("elfball").values():
        for pos in roster["positions"]:
            if pos["key"] == "skeleton_zombie":
                assert tuple(pos["attributes"][a] for a in ATTRS) == (5, 2, 3, 3, 3, 3, 25)
            if pos["key"] == "safety":
                assert tuple(pos["attributes"][a] for a in ATTRS) == (6, 3, 3, 3, 3, 3, 25)


HEALTH = {  # ../shared/rules/bonecruncher.md: total head torso leg arm protection
    "amazons": (33, 5, 9, 5, 4, 4),
    "humans_barbarians": (35, 5, 10, 6, 4, 2),
    "elves": (36, 5, 9, 6, 5, 3),
    "dwarves": (34, 6, 12, 4, 4, 4),
    "halflings": (27, 3, 8, 5, 3, 2),
    "orcs_goblins": (39, 5, 12, 6, 5, 3),
    "lizardmen": (34, 4, 10, 6, 4, 4),
    "undead_zombies": (25, 3, 6, 4, 4, 1),
}


def test_bonecruncher_ships_eight_races_with_the_rulebook_health_templates():
    """R: the advanced health templates, totals kept as the rulebook gives them (I)."""
    shipped = rosters("bonecruncher")
    assert set(shipped) == set(HEALTH)
    for key, (total, head, torso, leg, arm, protection) in HEALTH.items():
        t = shipped[key]["health_template"]
        assert (
            t["total"],
            t["head"],
            t["torso"],
            t["left_leg"],
            t["right_leg"],
            t["left_arm"],
            t["right_arm"],
            t["protection"],
        ) == (total, head, torso, leg, leg, arm, arm, protection), key


def test_bonecruncher_races_carry_their_traits():
    """R: each race's traits are shown on the team sheet (data)."""
    for key, race in rosters("bonecruncher").items():
        assert race["traits"], key
    assert any("four hexes" in t or "4" in t for t in rosters("bonecruncher")["halflings"]["traits"])
