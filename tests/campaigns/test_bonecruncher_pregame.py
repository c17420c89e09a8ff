"""Bone Cruncher pre-game rules (../shared/rules/bonecruncher.md "Pre-game (recorded, optional)": the Aggressor
roll-off and terrain).

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).
"""

import copy

import pytest

from campaigns.rulesets import get_ruleset
from campaigns.rulesets.bonecruncher import pregame as pg

HR = get_ruleset("bonecruncher").default_house_rules()


def scripted(rolls: dict[int, list[tuple[int, int]]]):
    """A `roll` callable giving each team its scripted dice in order (and recording the calls)."""
    queues = {team: list(dice) for team, dice in rolls.items()}
    calls: list[int] = []

    def roll(team: int) -> tuple[int, int]:
        calls.append(team)
        return queues[team].pop(0)

    roll.calls = calls
    return roll


# --- Aggressor -------------------------------------------------------------------------------------------------


def test_highest_total_is_the_aggressor():
    """R: each team rolls 2d6; the highest total starts with the ball."""
    roll = scripted({1: [(3, 4)], 2: [(6, 2)]})
    assert pg.aggressor(roll, [1, 2]) == (2, [{1: 7, 2: 8}])


def test_a_tie_re_rolls():
    """R: ties re-roll until one team wins."""
    roll = scripted({1: [(3, 4), (1, 1), (5, 5)], 2: [(5, 2), (1, 1), (4, 5)]})
    winner, rounds = pg.aggressor(roll, [1, 2])
    assert winner == 1
    assert rounds == [{1: 7, 2: 7}, {1: 2, 2: 2}, {1: 10, 2: 9}]


def test_three_team_tie_re_rolls_only_the_tied_teams():
    """I: with three teams, 9–9–5: only the two 9s re-roll; then 6–6 both tied again; then 11 beats 4."""
    roll = scripted({1: [(4, 5), (3, 3), (5, 6)], 2: [(6, 3), (2, 4), (2, 2)], 3: [(1, 4)]})
    winner, rounds = pg.aggressor(roll, [1, 2, 3])
    assert winner == 1
    assert rounds == [{1: 9, 2: 9, 3: 5}, {1: 6, 2: 6}, {1: 11, 2: 4}]
    assert roll.calls.count(3) == 1


def test_three_teams_all_tied_then_one_wins():
    """I: a three-way tie for the highest re-rolls all three."""
    roll = scripted({1: [(2, 2), (1, 2)], 2: [(3, 1), (6, 6)], 3: [(1, 3), (5, 5)]})
    assert pg.aggressor(roll, (1, 2, 3)) == (2, [{1: 4, 2: 4, 3: 4}, {1: 3, 2: 12, 3: 10}])


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3,), (1, 2, 3)])
def test_aggressor_refuses_bad_dice(dice):
    with pytest.raises(ValueError):
        pg.aggressor(lambda team: dice, [1, 2])


def test_aggressor_needs_two_distinct_teams():
    with pytest.raises(ValueError):
        pg.aggressor(lambda team: (1, 1), [1])
    with pytest.raises(ValueError):
        pg.aggressor(lambda team: (1, 1), [1, 1])


def test_a_roll_off_that_never_ends_is_a_programming_error():
    with pytest.raises(ValueError):
        pg.aggressor(lambda team: (3, 3), [1, 2])


# --- Terrain ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "death", "delay", "words"),
    [
        (2, 1, 1, "Terrain roll 2: 2 terrain pieces; at most one Death trap; at most one Delay trap."),
        (3, 0, 1, "Terrain roll 3: 3 terrain pieces; no Death trap; at most one Delay trap."),
        (7, 0, 1, "Terrain roll 7: 7 terrain pieces; no Death trap; at most one Delay trap."),
        (11, 0, 1, "Terrain roll 11: 11 terrain pieces; no Death trap; at most one Delay trap."),
        (12, 0, 2, "Terrain roll 12: 12 terrain pieces; no Death trap; at most two Delay traps."),
    ],
)
def test_terrain(total, death, delay, words):
    """R: pieces = the 2d6 total; 2 → one may be a Death trap; 12 → two may be Delay traps; otherwise no Death
    trap and at most one Delay trap.
    """
    result = pg.terrain(total, HR)
    assert result == {"total": total, "pieces": total, "death_traps_max": death, "delay_traps_max": delay}
    assert pg.terrain_words(result) == words


@pytest.mark.parametrize("total", [1, 13, 0])
def test_terrain_refuses_a_total_outside_2d6(total):
    with pytest.raises(ValueError):
        pg.terrain(total, HR)


def test_terrain_follows_the_house_rules_table():
    """H: the terrain results are league data."""
    hr = copy.deepcopy(HR)
    hr["pre_game"]["terrain"]["results"]["other"] = {"death_traps_max": 0, "delay_traps_max": 0}
    assert pg.terrain(6, hr)["delay_traps_max"] == 0
    assert pg.terrain(12, hr)["delay_traps_max"] == 2
