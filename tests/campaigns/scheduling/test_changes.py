"""Changing a published round robin (issue 13, "Schedules"; campaigns/scheduling/changes.py): a team's
withdrawal turns its unplayed matches into byes; a late team's matches are added to the remaining rounds (H,
docs/decisions/ "Pure schedule generators"); R (../shared/rules/blitzbowl.md, "League") still holds."""

import datetime as dt
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.errors import RuleViolation
from campaigns.scheduling import Pairing, add_late_team, consecutive_violations, round_robin, withdraw

START = dt.date(2027, 3, 1)
LIMIT = 2


@st.composite
def schedule_and_round(draw, min_teams=2):
    n = draw(st.integers(min_value=min_teams, max_value=14))
    schedule = round_robin(list(range(1, n + 1)), legs=draw(st.sampled_from([1, 2])), start=START, limit=LIMIT)
    return schedule, draw(st.integers(min_value=1, max_value=len(schedule.rounds) + 1))


def assert_well_formed(schedule, withdrawn=()):
    """Nobody twice in a round; only the schedule's teams in it (and a withdrawn team in its played matches)."""
    for rnd in schedule.rounds:
        seen = [*rnd.teams_playing(), *rnd.byes]
        assert len(seen) == len(set(seen)), f"a team twice in round {rnd.number}"
        assert set(seen) <= {*schedule.teams, *withdrawn}


@settings(max_examples=60, deadline=None)
@given(case=schedule_and_round(), data=st.data())
def test_a_withdrawn_teams_unplayed_matches_become_byes_for_its_opponents(case, data):
    schedule, played_before = case
    team = data.draw(st.sampled_from(schedule.teams))
    played = [p for number, p in schedule.pairings() if number < played_before]
    after = withdraw(schedule, team, played=played)
    assert team not in after.teams
    assert_well_formed(after, withdrawn=[team])
    for old, new in zip(schedule.rounds, after.rounds, strict=True):
        assert (old.number, old.starts, old.deadline) == (new.number, new.starts, new.deadline)
        for pairing in old.pairings:
            opponent = pairing.opponent(team)
            if opponent is None or pairing in played:
                assert pairing in new.pairings
            else:
                assert pairing not in new.pairings
                assert opponent in new.byes
        assert team not in new.byes
    assert consecutive_violations(after.rounds, limit=LIMIT) == ()


@settings(max_examples=60, deadline=None)
@given(case=schedule_and_round())
def test_a_late_team_meets_every_team_legs_times_without_moving_a_fixture(case):
    """H (docs/decisions/ "Pure schedule generators"): the late team plays the teams that rest in the
    remaining rounds, then what it still owes in rounds added after the last; nobody plays twice in a round
    and R (blitzbowl.md "League") holds."""
    schedule, from_round = case
    late = 99
    after = add_late_team(schedule, late, from_round=from_round, limit=LIMIT)
    assert after.teams == (*schedule.teams, late)
    assert_well_formed(after)
    old_rounds = {r.number: r for r in schedule.rounds}
    for rnd in after.rounds:
        old = old_rounds.get(rnd.number)
        if old is None:
            assert rnd.number > schedule.rounds[-1].number
            assert len(rnd.pairings) == 1 and late in rnd.pairings[0].teams
        elif rnd.number < from_round:
            assert rnd == old
        else:
            assert set(old.pairings) <= set(rnd.pairings)
            assert all(late in p.teams for p in set(rnd.pairings) - set(old.pairings))
        assert [r.number for r in after.rounds] == list(range(1, len(after.rounds) + 1))
    late_meetings = Counter(p.opponent(late) for _, p in after.pairings() if late in p.teams)
    assert late_meetings == {team: schedule.legs for team in schedule.teams}
    if schedule.legs == 2:
        assert {p for _, p in after.pairings() if late in p.teams} == {
            p.swapped() for _, p in after.pairings() if late in p.teams
        }
    homes = sum(p.home == late for _, p in after.pairings())
    assert abs(2 * homes - sum(late_meetings.values())) <= 1
    assert consecutive_violations(after.rounds, limit=LIMIT) == ()


def test_a_late_team_plays_the_resting_teams_of_the_remaining_rounds_first():
    """H: joining a 5-team single round robin before round 3, the late team plays rounds 3–5's resting teams
    (3, 2, 1) there, and its two other opponents (4, 5: their rests were in rounds 1 and 2) in rounds 6 and 7."""
    schedule = round_robin([1, 2, 3, 4, 5], start=START, limit=LIMIT)
    after = add_late_team(schedule, 6, from_round=3, limit=LIMIT)
    assert [r.byes for r in schedule.rounds] == [(5,), (4,), (3,), (2,), (1,)]
    assert [(r.number, r.pairings[len(schedule.rounds[0].pairings) :]) for r in after.rounds[2:5]] == [
        (3, (Pairing(6, 3),)),
        (4, (Pairing(2, 6),)),
        (5, (Pairing(6, 1),)),
    ]
    assert [(r.number, r.pairings, r.byes) for r in after.rounds[5:]] == [
        (6, (Pairing(4, 6),), (1, 2, 3, 5)),
        (7, (Pairing(6, 5),), (1, 2, 3, 4)),
    ]
    assert (after.rounds[6].starts, after.rounds[6].deadline) == (dt.date(2027, 4, 12), dt.date(2027, 4, 18))
    assert after.rounds[0].byes == (5,) and after.rounds[2].byes == ()


def test_a_late_team_waits_rather_than_break_the_consecutive_rule():
    """R (blitzbowl.md "League"), with a house limit of 1: the late team met 3 last, so it does not play 3 (who
    rests in round 1) first; its meeting with 3 goes to a later round."""
    schedule = round_robin([1, 2, 3], start=START, limit=1)
    assert schedule.rounds[0].byes == (3,)
    after = add_late_team(schedule, 4, from_round=1, limit=1, previous={4: [3]})
    assert all(4 not in p.teams for p in after.rounds[0].pairings)
    assert consecutive_violations(after.rounds, limit=1, previous={4: [3]}) == ()


def test_refusals_name_the_field():
    schedule = round_robin([1, 2, 3], start=START, limit=LIMIT)
    with pytest.raises(RuleViolation) as refused:
        withdraw(schedule, 9)
    assert refused.value.field == "team"
    with pytest.raises(RuleViolation) as refused:
        add_late_team(schedule, 2, from_round=1, limit=LIMIT)
    assert refused.value.field == "team"
    with pytest.raises(RuleViolation) as refused:
        add_late_team(schedule, 9, from_round=5, limit=LIMIT)
    assert refused.value.field == "from_round"
