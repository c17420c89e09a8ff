"""A knockout's plan: its first round, seeded from a list of teams, from the standings, or from several
divisions' tables ("Divisions": the top `top` of each, division winners first)."""

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


def plan_knockout(league, user, start, teams, from_standings, days_per_round, limit, *, divisions=None, top=None):
    from ..selectors import league_standings

    start = check_start(start)
    given = [x is not None for x in (teams, from_standings, divisions)]
    if sum(given) != 1:
        raise RuleViolation(
            "Seed the knockout from a list of teams, from the standings or from divisions' tables, one of them.",
            field="teams",
        )
    if top is not None and divisions is None:
        raise RuleViolation("`top` goes with `divisions`: the top teams of each division's table.", field="top")
    if teams is not None:
        seeds = [t.pk for t in league_teams(league, teams)]
    elif divisions is not None:
        seeds = division_seeds(league, divisions, top)
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


def division_seeds(league, divisions: object, top: object) -> list[int]:
    """H (docs/decisions/ "Divisions", the knockout's seeds): the top `top` of each listed division's table
    (matches.selectors.division_standings: the league's tie-breakers), every division's winner seeded above
    every runner-up and so on, divisions in the order listed."""
    from ..selectors import division_standings

    if not isinstance(divisions, list) or not divisions:
        raise RuleViolation("List the divisions by their ids.", field="divisions")
    if not all(isinstance(d, int) and not isinstance(d, bool) for d in divisions):
        raise RuleViolation("List the divisions by their ids.", field="divisions")
    if len(set(divisions)) != len(divisions):
        raise RuleViolation("A division can only be listed once.", field="divisions")
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise RuleViolation("Take a whole number of teams (1 or more) from each division's table.", field="top")
    tables = {t["id"]: [row["team"] for row in t["rows"]] for t in division_standings(league=league) if t["id"]}
    missing = next((d for d in divisions if d not in tables), None)
    if missing is not None:
        raise RuleViolation(f"Division {missing} is not a division of this league.", field="divisions")
    try:
        return scheduling.seeds_from_divisions([tables[d] for d in divisions], top)
    except RuleViolation as exc:
        raise RuleViolation(exc.message, field="top") from exc
