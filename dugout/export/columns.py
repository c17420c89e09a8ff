"""The export's rows: the columns each record is read from (`values_list`, a JSON or datetime column as its
text) and the writer of those rows as the serializers write them, at a fraction of their cost."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime, tzinfo

import orjson
from django.db import connection, models
from django.db.models.functions import Cast
from django.utils import timezone
from rest_framework.fields import DateTimeField
from rest_framework.settings import ISO_8601, api_settings

from league.models import AuditEntry, Season
from matches.api import RollOut
from matches.models import PLAYER_ROW_FACTS, Aftermath, Dispute, Match, MatchTeam, PlayerMatch, Roll
from matches.serializers import MatchOut, SideOut
from teams.api import LedgerOut
from teams.models import LedgerEntry

ROW_FIELDS = PLAYER_ROW_FACTS

#: How a column is read and written: as it comes, a datetime in DRF's format, or JSON text parsed here.
PLAIN, DATETIME, JSON = "plain", "datetime", "json"


def kind_of(field: models.Field) -> str:
    if isinstance(field, models.DateTimeField):
        return DATETIME
    return JSON if isinstance(field, models.JSONField) else PLAIN


def model_fields(serializer, model, skip: tuple[str, ...] = (), related: dict[str, str] | None = None):
    """The serializer's fields as (name, `.values()` column, kind): a foreign key's column, its id, is what DRF
    writes; `related` names the column of a field read across a relation (SideOut's team_name)."""
    related = related or {}
    fields = []
    for name in serializer.Meta.fields:
        if name in skip:
            continue
        if name in related:
            fields.append((name, related[name], PLAIN))
            continue
        field = model._meta.get_field(name)
        fields.append((name, field.attname, kind_of(field)))
    return tuple(fields)


# Rows are read as values and written as DRF's ModelSerializer writes them (a foreign key as its id, a datetime
# in DRF's format), without building a model instance and running a serializer per row: 10,000 matches and
# 70,000 rolls are seconds that way, not half a minute. The export's tests hold the output equal to the
# serializers' (tests/dugout/export/test_export_stream.py).
ROLL_FIELDS = model_fields(RollOut, Roll)
LEDGER_FIELDS = model_fields(LedgerOut, LedgerEntry)
MATCH_FIELDS = (
    *model_fields(MatchOut, Match, skip=("teams", "sides", "aftermath", "prematch")),
    ("result_body", "result_body", JSON),
    ("schedule_round", "schedule_round_id", PLAIN),
)
SIDE_FIELDS = model_fields(SideOut, MatchTeam, related={"team_name": "team__name"})


def fields_of(model, names: tuple[str, ...]) -> tuple:
    """The named fields of `model` as (name, column, kind): a foreign key as its id."""
    return tuple((name, model._meta.get_field(name).attname, kind_of(model._meta.get_field(name))) for name in names)


SEASON_FIELDS = fields_of(Season, ("number", "name", "status", "started_at", "closed_at", "champion", "final_table"))
#: An audit entry, its actor as a user id (like every user of the document).
AUDIT_FIELDS = fields_of(AuditEntry, ("at", "actor", "action", "target", "before", "after", "reason"))
#: A team's post-match sequence, whole: its step, the decision it waits for, its log, carry and journal.
POSTMATCH_FIELDS = fields_of(Aftermath, ("team", "step_index", "complete", "pending", "log", "carry", "journal"))
#: A dispute: its reason and ruling (the coach and the commissioner as user ids).
DISPUTE_FIELDS = fields_of(
    Dispute, ("raised_by", "reason", "created_at", "ruling", "ruled_by", "ruled_at", "ruling_reason")
)
HISTORY_FIELDS = tuple((name, name, kind_of(PlayerMatch._meta.get_field(name))) for name in ("match_id", *ROW_FIELDS))


def columns(fields: tuple[tuple[str, str, str], ...]) -> tuple:
    """The `values_list` columns of `fields`, a JSON or datetime column as its text: `json_text` and `datetime_text`
    read it in a fraction of the time Django's JSONField (three calls a value) and the database driver's Python
    datetime loader (Django's, for PostgreSQL's timestamptz) take."""
    return tuple(Cast(column, models.TextField()) if kind != PLAIN else column for _, column, kind in fields)


def row_writer(fields: tuple[tuple[str, str, str], ...]) -> Callable[[Sequence], dict]:
    """A writer of `values_list` rows of `columns(fields)` as their serializer writes them (in the current
    time zone, read once)."""
    names = tuple(name for name, _, _ in fields)
    when = tuple((i, name) for i, (name, _, kind) in enumerate(fields) if kind == DATETIME)
    parsed = tuple((i, name) for i, (name, _, kind) in enumerate(fields) if kind == JSON)
    zone, stored = timezone.get_current_timezone(), connection.timezone

    def write(row: Sequence) -> dict:
        doc = dict(zip(names, row, strict=True))
        for i, name in when:
            doc[name] = datetime_text(row[i], zone, stored)
        for i, name in parsed:
            doc[name] = json_text(row[i])
        return doc

    return write


#: JSON text shorter than this holds no integer literal past 64 bits (19 digits and a sign at most).
_SHORT = 20
#: Every digit to "0", every other byte to " ": a run of 19 "0"s in the mapped text is a run of 19 digits.
_DIGITS = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))
_LONG_NUMBER = b"0" * (_SHORT - 1)


def json_text(text: str | None):
    """A JSON column's text as its JSONField reads it (json.loads; the text itself if it is no JSON), by orjson
    (three times faster) unless the text may hold an integer past 64 bits, which orjson would read as a float:
    that takes 19 digits in a row, which short text cannot hold and a scan of the bytes finds (a tenth of
    json's time). What orjson refuses (NaN, 1e400, a lone surrogate) json then reads."""
    if text is None:
        return None
    try:
        if len(text) < _SHORT or _LONG_NUMBER not in text.encode("utf-8", "surrogatepass").translate(_DIGITS):
            try:
                return orjson.loads(text)
            except orjson.JSONDecodeError:
                pass
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def datetime_text(text: str | None, zone: tzinfo, stored: tzinfo | None) -> str | None:
    """A datetime column's text as DRF's DateTimeField writes the datetime (ISO 8601 in the current time zone,
    UTC as "Z"), at a fraction of its cost. The text is ISO 8601: PostgreSQL's with its offset (in the ISO
    DateStyle, the only one the driver reads either), SQLite's as Django stored it, without one: then, as
    Django reads it, in the connection's time zone (`stored`; None without USE_TZ)."""
    if text is None:
        return None
    value = datetime.fromisoformat(text)
    if value.tzinfo is None and stored is not None:
        value = timezone.make_aware(value, stored)
    if api_settings.DATETIME_FORMAT != ISO_8601:
        return DateTimeField().to_representation(value)
    text = value.astimezone(zone).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text
