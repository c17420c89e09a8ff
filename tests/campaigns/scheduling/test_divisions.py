"""Divisions (issue 13, "Schedules"; campaigns/scheduling/divisions.py): a round robin per division, and a
knockout drawn from several divisions' tables (H: docs/decisions/ "Pure schedule generators")."""

import datetime as dt

import pytest

from campaigns.errors import RuleViolation
from campaigns.scheduling import consecutive_violations, division_round_robins, round_robin, seeds_from_divisions

START = dt.date(2027, 3, 1)


def test_each_division_gets_its_own_round_robin():
    divisions = {"North": [1, 2, 3, 4], "South": [5, 6, 7]}
    schedules = division_round_robins(divisions, legs=2, start=START, limit=2, previous={1: [4, 4]})
    assert set(schedules) == {"North", "South"}
    assert schedules["South"] == round_robin([5, 6, 7], legs=2, start=START, limit=2)
    north = schedules["North"]
    assert north.teams == (1, 2, 3, 4)
    assert consecutive_violations(north.rounds, limit=2, previous={1: [4, 4]}) == ()


def test_a_team_in_two_divisions_is_refused():
    with pytest.raises(RuleViolation) as refused:
        division_round_robins({"A": [1, 2], "B": [2, 3]}, start=START, limit=2)
    assert refused.value.field == "divisions"


def test_a_knockout_from_divisions_seeds_every_first_above_every_second():
    assert seeds_from_divisions([[1, 2, 3], [7, 8, 9], [4, 5]], 2) == [1, 7, 4, 2, 8, 5]
    for per_division in (0, 3):
        with pytest.raises(RuleViolation):
            seeds_from_divisions([[1, 2, 3], [4, 5]], per_division)
