"""Round robins by the circle method (issue 13, "Schedules"; campaigns/scheduling/round_robin.py), and R
(../shared/rules/blitzbowl.md, "League"): no team meets the same opponent more than two matches in a row,
counted per team over its own sequence of matches."""

import datetime as dt
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.errors import RuleViolation
from campaigns.scheduling import Pairing, consecutive_violations, round_robin, team_sequences

START = dt.date(2027, 3, 1)
LIMIT = 2  # Blitz Bowl's house default, max_consecutive_matches_vs_same_opponent

sizes = st.integers(min_value=2, max_value=20)
legs = st.sampled_from([1, 2])


def schedule_of(n, leg_count, **kwargs):
    kwargs.setdefault("limit", LIMIT)
    return round_robin(list(range(101, 101 + n)), legs=leg_count, start=START, **kwargs)


@settings(max_examples=60, deadline=None)
@given(n=sizes, leg_count=legs)
def test_every_pair_meets_exactly_once_a_leg(n, leg_count):
    schedule = schedule_of(n, leg_count)
    met = Counter(frozenset(p.teams) for _, p in schedule.pairings())
    teams = schedule.teams
    assert set(met) == {frozenset((a, b)) for a in teams for b in teams if a < b}
    assert set(met.values()) == {leg_count}


@settings(max_examples=60, deadline=None)
@given(n=sizes, leg_count=legs)
def test_each_team_plays_or_rests_exactly_once_a_round(n, leg_count):
    """Nobody plays twice in a round; with an odd number one team rests (the phantom bye's draw), else none."""
    schedule = schedule_of(n, leg_count)
    assert len(schedule.rounds) == leg_count * (n - 1 if n % 2 == 0 else n)
    for rnd in schedule.rounds:
        seen = [*rnd.teams_playing(), *rnd.byes]
        assert sorted(seen) == sorted(schedule.teams)
        assert len(rnd.byes) == n % 2


@settings(max_examples=60, deadline=None)
@given(n=sizes, leg_count=legs)
def test_byes_fall_once_a_leg_to_every_team_of_an_odd_number(n, leg_count):
    schedule = schedule_of(n, leg_count)
    per_leg = len(schedule.rounds) // leg_count
    for leg in range(leg_count):
        rounds = schedule.rounds[leg * per_leg : (leg + 1) * per_leg]
        byes = [team for rnd in rounds for team in rnd.byes]
        assert sorted(byes) == (sorted(schedule.teams) if n % 2 else [])


@settings(max_examples=60, deadline=None)
@given(n=sizes, leg_count=legs)
def test_home_and_away_differ_by_at_most_one_per_leg(n, leg_count):
    schedule = schedule_of(n, leg_count)
    per_leg = len(schedule.rounds) // leg_count
    for leg in range(leg_count):
        home, away = Counter(), Counter()
        for rnd in schedule.rounds[leg * per_leg : (leg + 1) * per_leg]:
            for pairing in rnd.pairings:
                home[pairing.home] += 1
                away[pairing.away] += 1
        for team in schedule.teams:
            assert abs(home[team] - away[team]) <= 1, (team, home[team], away[team])


@settings(max_examples=60, deadline=None)
@given(n=sizes, leg_count=legs)
def test_second_leg_is_the_first_with_home_and_away_swapped(n, leg_count):
    schedule = schedule_of(n, leg_count)
    if leg_count == 1:
        return
    half = len(schedule.rounds) // 2
    for first, second in zip(schedule.rounds[:half], schedule.rounds[half:], strict=True):
        assert second.pairings == tuple(p.swapped() for p in first.pairings)
        assert second.byes == first.byes


@settings(max_examples=80, deadline=None)
@given(n=sizes, leg_count=legs, limit=st.sampled_from([1, 2]))
def test_no_generated_schedule_has_a_team_meet_an_opponent_three_times_in_a_row(n, leg_count, limit):
    """R (blitzbowl.md "League"): not more than two matches in a row against the same opponent — over 2–20
    teams and both leg counts, byes not breaking a run (a stricter house limit of 1 holds too, except for two
    teams playing two legs, which is refused)."""
    if n == 2 and leg_count == 2 and limit == 1:
        with pytest.raises(RuleViolation):
            schedule_of(n, leg_count, limit=limit)
        return
    schedule = schedule_of(n, leg_count, limit=limit)
    assert consecutive_violations(schedule.rounds, limit=limit) == ()
    for sequence in team_sequences(schedule.rounds).values():
        opponents = [opponent for _, opponent in sequence]
        for i in range(len(opponents) - limit):
            assert len(set(opponents[i : i + limit + 1])) > 1


@st.composite
def earlier_play(draw):
    """Teams and each one's previous opponents, from rounds really played before (random pairings, often the
    same ones again, so runs of two meetings in a row are common)."""
    n = draw(st.integers(min_value=3, max_value=20))
    teams = list(range(1, n + 1))
    previous = {t: [] for t in teams}
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        order = draw(st.one_of(st.just(teams), st.permutations(teams)))
        for a, b in zip(order[::2], order[1::2], strict=False):
            previous[a].append(b)
            previous[b].append(a)
    return teams, previous


@settings(max_examples=80, deadline=None)
@given(play=earlier_play(), leg_count=legs, limit=st.sampled_from([1, 2]))
def test_a_schedule_after_earlier_play_keeps_the_rule_counting_the_previous_opponents(play, leg_count, limit):
    """R (blitzbowl.md "League"): the run a team ends its previous matches with continues into the new
    schedule; the rounds are reordered when the natural order would break the rule."""
    teams, previous = play
    schedule = round_robin(teams, legs=leg_count, start=START, limit=limit, previous=previous)
    assert consecutive_violations(schedule.rounds, limit=limit, previous=previous) == ()
    unordered = round_robin(teams, legs=leg_count, start=START, limit=None)
    assert Counter(p for _, p in schedule.pairings()) == Counter(p for _, p in unordered.pairings())


def test_the_natural_first_round_is_moved_when_it_would_be_a_third_meeting_in_a_row():
    """R (blitzbowl.md "League"): teams 1 and 4 met in their last two matches, so the round pairing them is
    not played first."""
    natural = round_robin([1, 2, 3, 4], start=START, limit=LIMIT)
    assert Pairing(1, 4) in natural.rounds[0].pairings or Pairing(4, 1) in natural.rounds[0].pairings
    previous = {1: [4, 4], 4: [1, 1]}
    schedule = round_robin([1, 2, 3, 4], start=START, limit=LIMIT, previous=previous)
    assert {frozenset(p.teams) for p in schedule.rounds[0].pairings} != {frozenset((1, 4)), frozenset((2, 3))}
    assert consecutive_violations(schedule.rounds, limit=LIMIT, previous=previous) == ()
    assert consecutive_violations(natural.rounds, limit=LIMIT, previous=previous) != ()


def test_two_teams_who_met_in_their_last_match_cannot_play_two_more_legs():
    """R (blitzbowl.md "League"): the second leg would be their third meeting in a row: refused in words."""
    with pytest.raises(RuleViolation, match="more than 2 times in a row"):
        round_robin([1, 2], legs=2, start=START, limit=LIMIT, previous={1: [2], 2: [1]})
    assert len(round_robin([1, 2], legs=2, start=START, limit=LIMIT).rounds) == 2


def test_five_teams_double_round_robin_by_hand():
    """The circle method for 5 teams (a phantom on the fixed seat): checked by hand, round by round."""
    schedule = round_robin([1, 2, 3, 4, 5], legs=2, start=START, days_per_round=7, limit=LIMIT)
    first_leg = [
        ({(1, 4), (2, 3)}, (5,)),
        ({(5, 3), (1, 2)}, (4,)),
        ({(4, 2), (5, 1)}, (3,)),
        ({(3, 1), (4, 5)}, (2,)),
        ({(2, 5), (3, 4)}, (1,)),
    ]
    expected = first_leg + [({(a, h) for h, a in pairs}, byes) for pairs, byes in first_leg]
    assert [({p.teams for p in r.pairings}, r.byes) for r in schedule.rounds] == expected
    assert [r.number for r in schedule.rounds] == list(range(1, 11))


def test_rounds_start_days_per_round_apart_and_are_due_on_their_last_day():
    """H (docs/decisions/ "Pure schedule generators"): round k starts (k-1)·days_per_round after the start
    and its deadline is the day before the next round starts."""
    schedule = round_robin([1, 2, 3, 4], start=dt.date(2027, 2, 25), days_per_round=3, limit=LIMIT)
    assert [(r.starts, r.deadline) for r in schedule.rounds] == [
        (dt.date(2027, 2, 25), dt.date(2027, 2, 27)),
        (dt.date(2027, 2, 28), dt.date(2027, 3, 2)),
        (dt.date(2027, 3, 3), dt.date(2027, 3, 5)),
    ]


@pytest.mark.parametrize(
    ("teams", "kwargs", "field"),
    [
        ([1], {}, "teams"),
        ([1, 2, 1], {}, "teams"),
        ([1, 2], {"legs": 3}, "legs"),
        ([1, 2], {"days_per_round": 0}, "days_per_round"),
        ([1, 2], {"days_per_round": True}, "days_per_round"),
        ([1, 2], {"start": "2027-03-01"}, "start"),
    ],
)
def test_bad_input_is_refused_naming_the_field(teams, kwargs, field):
    kwargs = {"start": START, "limit": LIMIT, **kwargs}
    with pytest.raises(RuleViolation) as refused:
        round_robin(teams, **kwargs)
    assert refused.value.field == field
