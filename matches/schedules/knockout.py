"""A knockout's plan: its first round, seeded from a list of teams or from the standings."""

from __future__ import annotations

from campaigns import scheduling
from campaigns.errors import RuleViolation
from campaigns.scheduling import Round

from ..models import Schedule
from .base import (
    check_start,
    keep_consecutive_rule,
    league_teams,
    new_schedule,
    planned_knockout,
    previous_opponents,
)


def plan_knockout(league, user, start, teams, from_standings, days_per_round, limit):
    from ..selectors import league_standings

    start = check_start(start)
    if (teams is None) == (from_standings is None):
        raise RuleViolation("Seed the knockout from a list of teams or from the standings, one of them.", field="teams")
    if teams is not None:
        seeds = [t.pk for t in league_teams(league, teams)]
    else:
        if isinstance(from_standings, bool) or not isinstance(from_standings, int):
            raise RuleViolation("Take a whole number of teams from the standings.", field="from_standings")
        table = [row["team"] for row in league_standings(league=league)]
        try:
            seeds = scheduling.seeds_from_standings(table, from_standings)
        except RuleViolation as exc:
            raise RuleViolation(exc.message, field="from_standings") from exc
    first = scheduling.knockout(seeds, start=start, days_per_round=days_per_round)
    previous = previous_opponents(league, seeds, limit=limit)
    keep_consecutive_rule([Round(1, first.starts, first.deadline, first.pairings)], limit=limit, previous=previous)
    schedule = new_schedule(league, user, Schedule.Format.KNOCKOUT, start, seeds, days_per_round)
    return schedule, [planned_knockout(first)]
