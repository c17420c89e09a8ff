"""The consecutive-meetings validator (campaigns/scheduling/consecutive.py): R (../shared/rules/blitzbowl.md,
"League") a team may not play the same opponent more than two matches in a row, counted per team over its own
sequence of matches."""

import datetime as dt

from campaigns.scheduling import Pairing, Round, Violation, consecutive_violations

DAY = dt.date(2027, 3, 1)


def rounds(*rows):
    """Rounds from rows of (home, away) pairs, each row optionally followed by a tuple of byes."""
    built = []
    for number, row in enumerate(rows, start=1):
        pairs, byes = (row[0], row[1]) if row and isinstance(row[-1], frozenset) else (row, frozenset())
        pairings = tuple(Pairing(h, a) for h, a in pairs)
        built.append(Round(number, DAY, DAY, pairings, tuple(sorted(byes))))
    return built


def test_a_third_meeting_in_a_row_is_reported_for_both_teams():
    """R (blitzbowl.md "League"): the third match in a row against the same opponent breaks the rule."""
    found = consecutive_violations(rounds([(1, 2)], [(2, 1)], [(1, 2)]), limit=2)
    assert found == (Violation(team=1, opponent=2, round=3, run=3), Violation(team=2, opponent=1, round=3, run=3))


def test_two_meetings_in_a_row_and_a_third_after_another_opponent_are_allowed():
    """R (blitzbowl.md "League"): the rule counts meetings in a row, not in all."""
    assert consecutive_violations(rounds([(1, 2)], [(2, 1)], [(1, 3), (2, 4)], [(1, 2)]), limit=2) == ()


def test_a_bye_does_not_break_a_run():
    """R (blitzbowl.md "League"): counted over the team's own matches — a round it rests is not one."""
    schedule = rounds(([(1, 2)], frozenset({3})), ([(2, 3)], frozenset({1})), ([(1, 2)], frozenset({3})))
    assert consecutive_violations(schedule, limit=1) == (Violation(team=1, opponent=2, round=3, run=2),)


def test_previous_opponents_count_before_the_schedule():
    """R (blitzbowl.md "League"): the team's last matches (oldest first) continue into the new schedule."""
    schedule = rounds([(1, 2)], [(1, 3)])
    assert consecutive_violations(schedule, limit=2, previous={1: [3, 2, 2]}) == (
        Violation(team=1, opponent=2, round=1, run=3),
    )
    assert consecutive_violations(schedule, limit=2, previous={1: [2, 3, 2]}) == ()


def test_no_limit_means_no_rule():
    """R: the rule is Blitz Bowl's; the other games' limit is None."""
    assert consecutive_violations(rounds([(1, 2)], [(1, 2)], [(1, 2)]), limit=None) == ()


def test_a_limit_of_zero_is_no_rule_as_the_scheduling_service_reads_it():
    """matches/services.py checks the rule only when the limit is truthy; the validator agrees."""
    assert consecutive_violations(rounds([(1, 2)], [(1, 2)], [(1, 2)]), limit=0) == ()
