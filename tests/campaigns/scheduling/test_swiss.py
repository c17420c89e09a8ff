"""Swiss rounds (issue 13, "Schedules"; campaigns/scheduling/swiss.py): pairing down the table (points, then
tie-breakers), no rematch while another pairing exists, a bye to the lowest-ranked team without one (H where
the rules are silent: docs/decisions/ "Pure schedule generators")."""

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.errors import RuleViolation
from campaigns.scheduling import Pairing, swiss_round

START = dt.date(2027, 9, 6)


def matchings(teams):
    """Every way of pairing `teams` (an even number) off."""
    if not teams:
        yield []
        return
    first, rest = teams[0], teams[1:]
    for i, other in enumerate(rest):
        for tail in matchings(rest[:i] + rest[i + 1 :]):
            yield [frozenset((first, other)), *tail]


def rematch_free_exists(teams, played):
    return any(not set(m) & played for m in matchings(list(teams)))


@st.composite
def open_league(draw):
    """A table of up to 9 teams after a few earlier rounds (random pairings), and who had a bye."""
    n = draw(st.integers(min_value=2, max_value=9))
    table = draw(st.permutations(list(range(1, n + 1))))
    played, had_bye = set(), set()
    for _ in range(draw(st.integers(min_value=0, max_value=n))):
        order = draw(st.permutations(table))
        if n % 2:
            had_bye.add(order[-1])
        played |= {frozenset(pair) for pair in zip(order[::2], order[1::2], strict=False)}
    return table, played, had_bye


@settings(max_examples=120, deadline=None)
@given(league=open_league())
def test_no_rematch_while_another_pairing_exists_and_the_bye_goes_lowest_without_one(league):
    table, played, had_bye = league
    rnd = swiss_round(table, played=played, had_bye=had_bye, number=3, start=START)
    seen = [t for p in rnd.pairings for t in p.teams] + ([rnd.bye] if rnd.bye is not None else [])
    assert sorted(seen) == sorted(table)
    assert (rnd.bye is None) == (len(table) % 2 == 0)
    rematches = sum(frozenset(p.teams) in played for p in rnd.pairings)
    assert rematches == rnd.rematches
    byes = [None] if rnd.bye is None else list(reversed(table))
    byes = [t for t in byes if t not in had_bye] + [t for t in byes if t in had_bye]
    possible = [b for b in byes if rematch_free_exists([t for t in table if t != b], played)]
    if possible:
        assert rematches == 0
        assert rnd.bye == possible[0]
    else:
        assert rnd.bye == byes[0]


def test_the_table_is_paired_top_down_with_the_better_ranked_team_at_home():
    rnd = swiss_round([4, 2, 7, 1], number=1, start=START)
    assert rnd.pairings == (Pairing(4, 2), Pairing(7, 1))
    assert (rnd.bye, rnd.rematches) == (None, 0)
    assert (rnd.starts, rnd.deadline) == (START, dt.date(2027, 9, 12))


def test_the_leader_takes_the_next_team_it_has_not_met():
    rnd = swiss_round([1, 2, 3, 4, 5, 6], played=[(1, 2), (3, 4), (5, 6)], number=2, start=START)
    assert rnd.rematches == 0
    assert rnd.pairings == (Pairing(1, 3), Pairing(2, 5), Pairing(4, 6))


def test_the_bye_goes_to_the_lowest_ranked_team_that_has_not_had_one():
    rnd = swiss_round([1, 2, 3, 4, 5], had_bye=[5], number=2, start=START)
    assert rnd.bye == 4
    assert swiss_round([1, 2, 3, 4, 5], had_bye=[1, 2, 3, 4, 5], number=6, start=START).bye == 5


def test_when_every_pairing_repeats_a_meeting_the_fewest_rematches_are_played():
    everyone = [(a, b) for a in range(1, 5) for b in range(a + 1, 5)]
    rnd = swiss_round([1, 2, 3, 4], played=everyone, number=4, start=START)
    assert rnd.rematches == 2
    assert rnd.pairings == (Pairing(1, 2), Pairing(3, 4))
    mostly = [p for p in everyone if p != (1, 4)]
    assert swiss_round([1, 2, 3, 4], played=mostly, number=4, start=START).rematches == 1


def test_a_large_field_without_a_rematch_free_pairing_answers_within_the_search_bound():
    """Forty teams where each of one group of 22 has met every other of its group, and nobody else: a pairing
    without rematch would pair all 22 with the other 18 — impossible, which a depth-first search takes
    exponentially long to learn; the bound stops it, and at least two rematches (the fewest) are played."""
    teams = list(range(1, 41))
    group = teams[::2][:18] + teams[36:40]
    played = [(a, b) for a in group for b in group if a < b]
    rnd = swiss_round(teams, played=played, number=9, start=START)
    assert len(rnd.pairings) == 20
    assert rnd.rematches == 2


def test_bad_input_is_refused():
    for teams in ([1], [1, 2, 2]):
        with pytest.raises(RuleViolation) as refused:
            swiss_round(teams, number=1, start=START)
        assert refused.value.field == "teams"
