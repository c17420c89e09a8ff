"""Divisions: a round robin per division, and a knockout drawn from several tables."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from ..errors import RuleViolation
from .round_robin import round_robin
from .types import Schedule


def division_round_robins(
    divisions: Mapping[str, Sequence[int]],
    *,
    legs: int = 1,
    start: dt.date,
    days_per_round: int = 7,
    limit: int | None,
    previous: Mapping[int, Sequence[int]] | None = None,
) -> dict[str, Schedule]:
    """One round robin per division (name → its teams in seeding order), all from the same start, as
    `round_robin` makes them. A team may be in one division only."""
    seen: set[int] = set()
    for teams in divisions.values():
        if seen.intersection(teams):
            raise RuleViolation("A team can be in one division only.", field="divisions")
        seen.update(teams)
    return {
        name: round_robin(teams, legs=legs, start=start, days_per_round=days_per_round, limit=limit, previous=previous)
        for name, teams in divisions.items()
    }


def seeds_from_divisions(tables: Sequence[Sequence[int]], per_division: int) -> list[int]:
    """H: a knockout drawn from several divisions' tables (each team ids in table order) takes the top
    `per_division` of each; every division's first is seeded above every second, and so on, divisions in the
    order given."""
    if isinstance(per_division, bool) or not isinstance(per_division, int) or per_division < 1:
        raise RuleViolation("Take at least one team from each division.", field="per_division")
    if any(len(table) < per_division for table in tables):
        raise RuleViolation(f"Every division needs at least {per_division} teams.", field="per_division")
    return [table[place] for place in range(per_division) for table in tables]
