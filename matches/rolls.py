"""The one writer of the roll log: every die the service knows of — entered at the table with a result, rolled
in a pre- or post-match step, or a Challenge — is recorded here, so each row is shaped the same way
(rules/architecture: "a campaign log that records the dice it used")."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser

from campaigns.dice import RollRecord
from league.models import League

from .models import Match, Roll


def record_rolls(
    *,
    league: League,
    step: str,
    records: Iterable[RollRecord],
    rolled_by: AbstractBaseUser | None,
    match: Match | None = None,
    team_id: int | None = None,
) -> list[Roll]:
    """Append `records` (in order) to the league's roll log, for `match` and `team_id` when they belong to one;
    returns the rows written (with their ids)."""
    rows = [
        Roll(
            league=league,
            match=match,
            team_id=team_id,
            step=step,
            key=r.key,
            expression=r.expression,
            values=list(r.values),
            entered=r.entered,
            rolled_by=rolled_by,
        )
        for r in records
    ]
    return Roll.objects.bulk_create(rows) if rows else []


def entered_records(rolls: dict[str, list[int]], catalogue: dict[str, str]) -> list[RollRecord]:
    """Dice entered at the table under their roll keys (a result's `rolls`), as records of the catalogue."""
    return [RollRecord(key, catalogue[key], tuple(values), True) for key, values in rolls.items()]
