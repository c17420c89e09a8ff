"""Knockout brackets (issue 13, "Schedules"; campaigns/scheduling/knockout.py): standard seeding, byes to the
top seeds, and R (../shared/rules/blitzbowl.md, "League": match kinds) the last match is the `final`, the
others `playoff`."""

import datetime as dt
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.errors import RuleViolation
from campaigns.scheduling import FINAL, PLAYOFF, Pairing, knockout, next_round, seeds_from_standings
from campaigns.scheduling.knockout import bracket_size, seed_order

START = dt.date(2027, 5, 3)


def play_out(seeds, pick):
    """Every round of the bracket of `seeds`, each match won by `pick(pairing)`."""
    rounds = [knockout(seeds, start=START)]
    while rounds[-1].kind != FINAL:
        rounds.append(next_round(rounds[-1], [pick(p) for p in rounds[-1].pairings]))
    return rounds


@settings(max_examples=80, deadline=None)
@given(n=st.integers(min_value=2, max_value=40))
def test_the_bracket_is_the_next_power_of_two_and_its_byes_go_to_the_top_seeds(n):
    seeds = list(range(201, 201 + n))
    first = knockout(seeds, start=START)
    size = bracket_size(n)
    assert size >= n > size // 2
    assert len(first.slots) == size // 2
    assert sorted(first.byes) == seeds[: size - n]
    assert sorted(t for p in first.pairings for t in p.teams) == seeds[size - n :]


def test_standard_seeding_pairs_one_with_the_last_and_two_with_the_second_last():
    """H (docs/decisions/ "Pure schedule generators"): 1 v 8, 4 v 5, 2 v 7, 3 v 6 in bracket order."""
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    first = knockout([1, 2, 3, 4, 5, 6, 7, 8], start=START)
    assert first.slots == (Pairing(1, 8), Pairing(4, 5), Pairing(2, 7), Pairing(3, 6))
    six = knockout([1, 2, 3, 4, 5, 6], start=START)
    assert six.slots == (1, Pairing(4, 5), 2, Pairing(3, 6))


@settings(max_examples=80, deadline=None)
@given(n=st.integers(min_value=2, max_value=33), data=st.data())
def test_seeds_one_and_two_can_meet_only_in_the_final(n, data):
    """Whoever wins the other matches, 1 and 2 are never paired before the last round; when both win every
    match they meet in the final, which is the only match of kind `final`."""
    seeds = list(range(1, n + 1))
    rounds = play_out(seeds, lambda p: data.draw(st.sampled_from(p.teams)))
    for rnd in rounds[:-1]:
        assert all(set(p.teams) != {1, 2} for p in rnd.pairings)
        assert rnd.kind == PLAYOFF
    assert len(rounds) == math.ceil(math.log2(n))
    favourites = play_out(seeds, lambda p: min(p.teams))
    assert favourites[-1].kind == FINAL
    assert favourites[-1].pairings == (Pairing(1, 2),)


def test_later_rounds_pair_neighbouring_slots_with_the_better_seed_at_home_and_follow_on_in_dates():
    first = knockout([10, 20, 30, 40, 50, 60], start=START, days_per_round=5)
    second = next_round(first, [50, 30])  # 4 v 5 won by 5, 3 v 6 won by 3
    assert second.slots == (Pairing(10, 50), Pairing(20, 30))
    assert (second.number, second.kind) == (2, PLAYOFF)
    assert (second.starts, second.deadline) == (dt.date(2027, 5, 8), dt.date(2027, 5, 12))
    final = next_round(second, [50, 20], start=dt.date(2027, 6, 1))
    assert (final.kind, final.pairings, final.starts) == (FINAL, (Pairing(20, 50),), dt.date(2027, 6, 1))


def test_two_teams_make_a_final_at_once():
    assert knockout([7, 3], start=START).kind == FINAL


@pytest.mark.parametrize("winners", [[], [1, 2], [4], [8, 5, 7, 6, 1]])
def test_next_round_needs_exactly_one_winner_of_each_match(winners):
    first = knockout([1, 2, 3, 4, 5, 6], start=START)
    with pytest.raises(RuleViolation) as refused:
        next_round(first, winners)
    assert refused.value.field == "winners"


def test_nothing_follows_the_final_and_bad_seeds_are_refused():
    with pytest.raises(RuleViolation):
        next_round(knockout([1, 2], start=START), [1])
    for seeds in ([1], [1, 2, 1]):
        with pytest.raises(RuleViolation) as refused:
            knockout(seeds, start=START)
        assert refused.value.field == "teams"


def test_the_top_n_of_the_table_are_the_seeds():
    assert seeds_from_standings([5, 3, 9, 1], 3) == [5, 3, 9]
    for top in (1, 5, True):
        with pytest.raises(RuleViolation):
            seeds_from_standings([5, 3, 9, 1], top)
