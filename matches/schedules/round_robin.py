"""A round robin's plan: all its rounds at once."""

from __future__ import annotations

from campaigns import scheduling
from campaigns.errors import RuleViolation

from ..models import Schedule
from .base import (
    Planned,
    check_start,
    keep_consecutive_rule,
    league_teams,
    new_schedule,
    previous_opponents,
)


def plan_round_robin(league, user, start, teams, legs, days_per_round, limit) -> tuple[Schedule, list[Planned]]:
    start = check_start(start)
    if isinstance(legs, bool) or legs not in (1, 2):
        raise RuleViolation("A round robin has one leg or two.", field="legs")
    ids = [t.pk for t in league_teams(league, teams)]
    previous = previous_opponents(league, ids, limit=limit)
    generated = scheduling.round_robin(
        ids, legs=legs, start=start, days_per_round=days_per_round, limit=limit, previous=previous
    )
    keep_consecutive_rule(generated.rounds, limit=limit, previous=previous)
    schedule = new_schedule(league, user, Schedule.Format.ROUND_ROBIN, start, ids, days_per_round, legs=legs)
    planned = [Planned(r.number, r.starts, r.deadline, r.pairings, r.byes) for r in generated.rounds]
    return schedule, planned
