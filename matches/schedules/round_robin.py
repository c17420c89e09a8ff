"""A round robin's plan: all its rounds at once — of the league's teams, or one per division (`per_division`,
or `division` for one of them), rounds aligned by date, no team meeting another
division's."""

from __future__ import annotations

from campaigns import scheduling
from campaigns.errors import RuleViolation
from campaigns.scheduling import Round
from league.models import Division
from teams.models import Team

from ..models import Schedule
from .base import (
    Planned,
    check_start,
    keep_consecutive_rule,
    league_teams,
    new_schedule,
    previous_opponents,
)


def plan_round_robin(
    league, user, start, teams, legs, days_per_round, limit, *, per_division=False, division=None
) -> tuple[Schedule, list[Planned]]:
    start = check_start(start)
    if isinstance(legs, bool) or legs not in (1, 2):
        raise RuleViolation("A round robin has one leg or two.", field="legs")
    if not isinstance(per_division, bool):
        raise RuleViolation("per_division is true or false.", field="per_division")
    if per_division or division is not None:
        if teams is not None:
            raise RuleViolation("A division's round robin draws its own teams: list no teams.", field="teams")
        if per_division and division is not None:
            raise RuleViolation("Every division's round robin, or one division's: one of them.", field="division")
        groups = division_teams(league, division)
        ids = [t for group in groups.values() for t in group]
        previous = previous_opponents(league, ids, limit=limit)
        rounds = merged_rounds(
            scheduling.division_round_robins(
                {str(d): group for d, group in groups.items()},
                legs=legs,
                start=start,
                days_per_round=days_per_round,
                limit=limit,
                previous=previous,
            ).values()
        )
    else:
        ids = [t.pk for t in league_teams(league, teams)]
        previous = previous_opponents(league, ids, limit=limit)
        rounds = scheduling.round_robin(
            ids, legs=legs, start=start, days_per_round=days_per_round, limit=limit, previous=previous
        ).rounds
    keep_consecutive_rule(rounds, limit=limit, previous=previous)
    schedule = new_schedule(league, user, Schedule.Format.ROUND_ROBIN, start, ids, days_per_round, legs=legs)
    planned = [Planned(r.number, r.starts, r.deadline, r.pairings, r.byes) for r in rounds]
    return schedule, planned


def division_teams(league, division: object) -> dict[int, list[int]]:
    """Division id → its teams that have left creation (in the order they were founded): every division of the
    league, or only `division`. Each needs two teams at least. Two queries."""
    if division is not None and (isinstance(division, bool) or not isinstance(division, int)):
        raise RuleViolation("Name the division by its id.", field="division")
    divisions = Division.objects.filter(league=league)
    ids = list((divisions if division is None else divisions.filter(pk=division)).values_list("pk", flat=True))
    if not ids:
        if division is not None:
            raise RuleViolation(f"Division {division} is not a division of this league.", field="division")
        raise RuleViolation("The league has no divisions: split its teams into divisions first.", field="per_division")
    groups: dict[int, list[int]] = {d: [] for d in ids}
    ready = Team.objects.filter(league=league, division_id__in=ids, creation_closed_at__isnull=False)
    for division_id, team_id in ready.order_by("pk").values_list("division_id", "pk"):
        groups[division_id].append(team_id)
    short = next((d for d, group in groups.items() if len(group) < 2), None)
    if short is not None:
        raise RuleViolation(f"Division {short} has fewer than two teams ready to play.", field="division")
    return groups


def merged_rounds(schedules) -> tuple[Round, ...]:
    """The divisions' round robins as one schedule: round n holds every division's round n (all start on the
    same day: the same start and round length), the divisions' byes together."""
    per = [s.rounds for s in schedules]
    merged = []
    for number in range(1, max(len(rounds) for rounds in per) + 1):
        parts = [rounds[number - 1] for rounds in per if len(rounds) >= number]
        merged.append(
            Round(
                number,
                parts[0].starts,
                parts[0].deadline,
                tuple(p for r in parts for p in r.pairings),
                tuple(b for r in parts for b in r.byes),
            )
        )
    return tuple(merged)
