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
    rolled_by: AbstractBaseUser | None = None,
    rolled_by_id: int | None = None,
    match: Match | None = None,
    team_id: int | None = None,
) -> list[Roll]:
    """Append `records` (in order) to the league's roll log, for `match` and `team_id` when they belong to one;
    returns the rows written (with their ids). Who rolled them: `rolled_by`, or his id alone (no query for him)."""
    who = {"rolled_by_id": rolled_by_id} if rolled_by_id is not None else {"rolled_by": rolled_by}
    rows = [roll_row(league=league, step=step, record=r, match=match, team_id=team_id, **who) for r in records]
    return write_roll_rows(rows)


def roll_row(
    *,
    league: League,
    step: str,
    record: RollRecord,
    rolled_by: AbstractBaseUser | None = None,
    rolled_by_id: int | None = None,
    match: Match | None = None,
    team_id: int | None = None,
    **extra,
) -> Roll:
    """One roll-log row, shaped as every writer shapes it (`extra`: e.g. a seeded `created_at`)."""
    return Roll(
        league=league,
        match=match,
        team_id=team_id,
        step=step,
        key=record.key,
        expression=record.expression,
        values=list(record.values),
        entered=record.entered,
        **({"rolled_by_id": rolled_by_id} if rolled_by_id is not None else {"rolled_by": rolled_by}),
        **extra,
    )


def restored_roll(**fields) -> Roll:
    """A roll-log row as an export recorded it, for the import (dugout/importer.py), which rebuilds the log as it
    was and rolls nothing: built here, beside `roll_row`, so the roll log keeps one module that shapes its rows."""
    return Roll(**fields)


def write_roll_rows(rows: list[Roll], *, batch_size: int | None = None) -> list[Roll]:
    """Insert rows built by `roll_row`, in order, in as few statements as `batch_size` allows (bulk seeding
    writes many matches' rolls at once)."""
    return Roll.objects.bulk_create(rows, batch_size=batch_size) if rows else []


def entered_records(rolls: dict[str, list[int]], catalogue: dict[str, str]) -> list[RollRecord]:
    """Dice entered at the table under their roll keys (a result's `rolls`), as records of the catalogue."""
    return [RollRecord(key, catalogue[key], tuple(values), True) for key, values in rolls.items()]
