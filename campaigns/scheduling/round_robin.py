"""Round robins by the circle method, one or two legs, with byes for odd numbers.

The circle method: the teams (in seeding order) sit in a circle with one seat fixed; each round pairs seat i
with seat n-1-i, then every seat but the fixed one moves one place on. With an odd number of teams a phantom
"bye" takes the fixed seat, so the team drawn against it sits out that round. Orientation (H): the pairing
holding the fixed seat alternates home and away round by round, every other pairing puts its upper seat at home;
as a team moves it spends as many rounds in upper seats as in lower ones, so each team's home and away counts
differ by at most 1 per leg (none at all with an odd number of teams). The second leg is the first played again
in the same order with home and away swapped.

R (../shared/rules/blitzbowl.md, "League"): no team meets the same opponent more than `limit` times in a row,
counting its recent previous opponents. The natural order keeps it whenever there are no previous opponents (a
pair meets at most twice, once a leg, and never in two consecutive matches of one team for three teams or more);
when the previous play would make an early round a team's third meeting in a row, the rounds of the leg are
reordered (a bounded backtracking search, the natural order first) and the schedule refused in words if no order
keeps the rule.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from ..errors import RuleViolation
from .consecutive import consecutive_violations, trailing_run
from .types import Pairing, Round, Schedule, round_dates

#: How many partial orders the reordering search may try before it gives up (it needs one per round in the
#: common case; the bound keeps a hopeless case from running long).
MAX_REORDER_STEPS = 20_000

_Slots = tuple[tuple[Pairing, ...], tuple[int, ...]]


def check_inputs(teams: Sequence[int], *, legs: int, start: dt.date, days_per_round: int) -> None:
    """Refuse what no schedule can be made of, naming the input at fault."""
    if len(teams) < 2:
        raise RuleViolation("A schedule needs at least two teams.", field="teams")
    if len(set(teams)) != len(teams):
        raise RuleViolation("A team can only be listed once.", field="teams")
    if legs not in (1, 2):
        raise RuleViolation("A round robin has one leg or two.", field="legs")
    if not isinstance(start, dt.date):
        raise RuleViolation("The start must be a date.", field="start")
    if isinstance(days_per_round, bool) or not isinstance(days_per_round, int) or days_per_round < 1:
        raise RuleViolation("A round lasts at least one day.", field="days_per_round")


def pair_run(a: int, b: int, *, legs: int, previous: Mapping[int, Sequence[int]] | None = None) -> int:
    """How many times in a row `a` and `b` would have met at the end of a round robin of the two alone: its `legs`
    meetings after the run of meetings each already has against the other (the longer of the two). R
    (../shared/rules/blitzbowl.md, "League"): more than the limit means two teams cannot play a round robin
    alone: a third is needed for them to meet someone else in between."""
    previous = previous or {}
    runs = []
    for team, other in ((a, b), (b, a)):
        last, run = trailing_run(previous.get(team, ()))
        runs.append((run if last == other else 0) + legs)
    return max(runs)


def teams_needed(
    teams: Sequence[int], *, legs: int, limit: int | None, previous: Mapping[int, Sequence[int]] | None = None
) -> int:
    """The fewest teams a round robin of `teams` needs: two; three when `teams` are two who would meet more than
    `limit` times in a row (`pair_run`; the rule cited there)."""
    if len(teams) == 2 and limit and pair_run(teams[0], teams[1], legs=legs, previous=previous) > limit:
        return 3
    return 2


def circle_rounds(teams: Sequence[int]) -> list[_Slots]:
    """One leg by the circle method: per round its pairings and the team that rests (if any), natural order."""
    seats: list[int | None] = [None, *teams] if len(teams) % 2 else list(teams)
    n = len(seats)
    fixed, moving = seats[0], seats[1:]
    rounds = []
    for r in range(n - 1):
        shift = r % len(moving)
        circle = [fixed, *moving[len(moving) - shift :], *moving[: len(moving) - shift]]
        pairings, byes = [], []
        for i in range(n // 2):
            upper, lower = circle[i], circle[n - 1 - i]
            if upper is None or lower is None:
                byes.append(lower if upper is None else upper)
                continue
            if i == 0 and r % 2:
                upper, lower = lower, upper
            pairings.append(Pairing(home=upper, away=lower))
        rounds.append((tuple(pairings), tuple(byes)))
    return rounds


def number_rounds(slots: Sequence[_Slots], *, start: dt.date, days_per_round: int, first: int = 1) -> list[Round]:
    """Rounds numbered from `first` with their dates (see types.round_dates) counted from `start` as round 1."""
    rounds = []
    for offset, (pairings, byes) in enumerate(slots):
        number = first + offset
        starts, deadline = round_dates(start, number, days_per_round)
        rounds.append(Round(number=number, starts=starts, deadline=deadline, pairings=pairings, byes=byes))
    return rounds


def with_second_leg(leg: Sequence[_Slots], legs: int) -> list[_Slots]:
    if legs == 1:
        return list(leg)
    return [*leg, *((tuple(p.swapped() for p in pairings), byes) for pairings, byes in leg)]


def round_robin(
    teams: Sequence[int],
    *,
    legs: int = 1,
    start: dt.date,
    days_per_round: int = 7,
    limit: int | None,
    previous: Mapping[int, Sequence[int]] | None = None,
) -> Schedule:
    """A round robin of `teams` (seeding order: round 1 pairs the first with the last), `legs` legs, rounds of
    `days_per_round` days from `start`, keeping at most `limit` meetings in a row (None: no such rule) after
    each team's `previous` opponents (oldest first). Refused (RuleViolation) when no order of rounds keeps it."""
    check_inputs(teams, legs=legs, start=start, days_per_round=days_per_round)
    leg = circle_rounds(teams)
    ordered = order_rounds(leg, legs=legs, start=start, days_per_round=days_per_round, limit=limit, previous=previous)
    rounds = number_rounds(with_second_leg(ordered, legs), start=start, days_per_round=days_per_round)
    return Schedule(teams=tuple(teams), legs=legs, days_per_round=days_per_round, rounds=tuple(rounds))


def order_rounds(
    leg: Sequence[_Slots],
    *,
    legs: int,
    start: dt.date,
    days_per_round: int,
    limit: int | None,
    previous: Mapping[int, Sequence[int]] | None,
) -> list[_Slots]:
    """The leg's rounds in the first order (depth first, the natural order first) whose whole schedule — both
    legs — keeps the consecutive rule; the natural order itself when it does (always, without a limit)."""
    if not limit:
        return list(leg)
    previous = previous or {}
    start_runs = {}
    for pairings, _byes in leg:
        for pairing in pairings:
            for team in pairing.teams:
                start_runs[team] = trailing_run(previous.get(team, ()))
    steps = 0

    def keeps_rule(order: list[_Slots]) -> bool:
        rounds = number_rounds(with_second_leg(order, legs), start=start, days_per_round=days_per_round)
        return not consecutive_violations(rounds, limit=limit, previous=previous)

    def search(order: list[_Slots], unused: list[int], runs: dict) -> list[_Slots] | None:
        nonlocal steps
        steps += 1
        if steps > MAX_REORDER_STEPS:
            return None
        if not unused:
            return order if keeps_rule(order) else None
        for index in unused:
            pairings, _byes = leg[index]
            after = dict(runs)
            for pairing in pairings:
                for team, opponent in ((pairing.home, pairing.away), (pairing.away, pairing.home)):
                    last, run = after[team]
                    after[team] = (opponent, run + 1 if last == opponent else 1)
            if any(after[team][1] > limit for pairing in pairings for team in pairing.teams):
                continue
            found = search([*order, leg[index]], [i for i in unused if i != index], after)
            if found is not None:
                return found
        return None

    found = search([], list(range(len(leg))), start_runs)
    if found is None:
        raise RuleViolation(
            f"No order of the rounds keeps every team from meeting the same opponent more than {limit} times in a "
            "row after its previous matches.",
            field="teams",
        )
    return found
