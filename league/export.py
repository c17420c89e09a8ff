"""The whole league as one JSON document (api-v1 `GET /leagues/{id}/export/`): league, house rules, teams
and players with their match history, matches with results and pre-match sequences, ledgers, rolls and
reports.

The document is streamed: `league_export_stream` yields it piece by piece, reading matches and rolls through
one database cursor `CHUNK` rows at a time (a page of matches then has its sides, post-match sequences,
pre-match sequences and inducements fetched together), teams and ledgers a page of teams at a time, and
serialising each record as it goes. Memory stays that of one page whatever the league's history, the first
bytes leave at once, and the number of queries grows with the pages, never with the rows (docs/decisions.md,
2026-12-01 "The export streams")."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, tzinfo

from django.db import models
from django.utils import timezone
from rest_framework.fields import DateTimeField
from rest_framework.settings import ISO_8601, api_settings
from rest_framework.utils.encoders import JSONEncoder

from league.api.serializers import LeagueOut
from league.models import League
from league.reports import report_url
from league.selectors import league_queryset
from matches.api import MatchOut, RollOut, SideOut
from matches.models import Aftermath, Inducement, Match, MatchTeam, PlayerMatch, Prematch, Roll
from matches.prematch import inducement_out
from teams.api import LedgerOut, TeamOut
from teams.models import LedgerEntry, Team
from teams.selectors import team_queryset

#: Rows read per query: a page of matches, rolls or ledger entries (and their prefetches) at a time.
CHUNK = 500
#: Teams per page: a team brings its players, their injuries and their history.
TEAM_CHUNK = 50
#: Reports per page: each carries its whole body.
REPORT_CHUNK = 20
#: The stream is handed to the server in pieces of about this many characters, not one per record.
BUFFER = 64 * 1024

ROW_FIELDS = (
    "touchdowns",
    "casualties",
    "completions",
    "interceptions",
    "mvp",
    "spp",
    "goal_points",
    "wounds",
    "injury",
    "injury_detail",
    "detail",
)

# The same JSON as DRF's renderer writes for a `Response` (UNICODE_JSON, COMPACT_JSON, STRICT_JSON).
_encoder = JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def dumps(value) -> str:
    return _encoder.encode(value)


def league_export(*, league: League) -> dict:
    """The export as one parsed document: for callers that want it whole (and small)."""
    return json.loads("".join(league_export_stream(league=league)))


def league_export_stream(*, league: League) -> Iterator[str]:
    """The export document: its head (the league and its house rules) at once, then pieces of about BUFFER
    characters."""
    parts = _document(league)
    yield next(parts)
    yield from _buffered(parts)


def _buffered(parts: Iterable[str]) -> Iterator[str]:
    pending: list[str] = []
    size = 0
    for part in parts:
        pending.append(part)
        size += len(part)
        if size >= BUFFER:
            yield "".join(pending)
            pending, size = [], 0
    if pending:
        yield "".join(pending)


def _array(items: Iterable) -> Iterator[str]:
    yield "["
    for i, item in enumerate(items):
        yield ("," if i else "") + dumps(item)
    yield "]"


def _document(league: League) -> Iterator[str]:
    league = league_queryset().get(pk=league.pk)
    team_ids = list(Team.objects.filter(league=league).order_by("name", "id").values_list("pk", flat=True))
    yield (
        '{"exported_at":'
        + dumps(timezone.now().isoformat())
        + ',"league":'
        + dumps(LeagueOut(league).data)
        + ',"house_rules":'
        + dumps(league.house_rules)
    )
    yield ',"teams":'
    yield from _array(_team_docs(league, team_ids))
    yield ',"matches":'
    yield from _array(_match_docs(league))
    yield ',"ledgers":{'
    for i, (team_id, entries) in enumerate(_ledgers(team_ids)):
        yield ("," if i else "") + dumps(str(team_id)) + ":"
        yield from _array(entries)
    yield '},"rolls":'
    yield from _array(_rolls(league))
    yield ',"reports":'
    yield from _array(
        {"id": r.pk, "week": r.week, "created_at": r.created_at.isoformat(), "url": report_url(r), "data": r.data}
        for r in league.reports.order_by("-week_start", "-id").iterator(chunk_size=REPORT_CHUNK)
    )
    yield "}"


def _pages(ids: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def _team_docs(league: League, team_ids: list[int]) -> Iterator[dict]:
    """Teams by name, each player with his match rows in this league (match order)."""
    for page in _pages(team_ids, TEAM_CHUNK):
        teams = list(team_queryset().filter(pk__in=page).order_by("name", "id"))
        history: dict[int, list[dict]] = defaultdict(list)
        for row in (
            PlayerMatch.objects.filter(match__league=league, player__team__in=page)
            .order_by("match_id")
            .values("player_id", "match_id", *ROW_FIELDS)
        ):
            history[row.pop("player_id")].append(row)
        for doc in TeamOut(teams, many=True, context={}).data:
            for player in doc["players"]:
                player["history"] = history.get(player["id"], [])
            yield doc


def _match_docs(league: League) -> Iterator[dict]:
    """Matches in the order they were made (created_at, id), read through one cursor and written a page at a
    time: each as MatchOut writes it, with its whole pre-match sequence and its inducements. Read as values
    (a match's journal and corrections are not read at all); 4 more queries a page."""
    steps = [s.key for s in league.rules.postmatch_steps]
    zone = timezone.get_current_timezone()
    rows = Match.objects.filter(league=league).order_by("created_at", "id").values_list(*_columns(MATCH_FIELDS))
    match_id = _columns(MATCH_FIELDS).index("id")
    for page in _batches(rows.iterator(chunk_size=CHUNK), CHUNK):
        ids = [row[match_id] for row in page]
        sides, aftermaths, inducements = defaultdict(list), defaultdict(list), defaultdict(list)
        for side_match, team_name, *side in (
            MatchTeam.objects.filter(match__in=ids)
            .order_by("match_id", "order")
            .values_list("match_id", "team__name", *_columns(SIDE_FIELDS))
        ):
            sides[side_match].append({"team_name": team_name, **_row_out(side, SIDE_FIELDS, zone)})
        for a in (
            Aftermath.objects.filter(match__in=ids)
            .order_by("team_id")
            .values("match_id", "team_id", "complete", "step_index", "pending")
        ):
            aftermaths[a["match_id"]].append(
                {
                    "team": a["team_id"],
                    "step": None if a["complete"] else steps[a["step_index"]],
                    "complete": a["complete"],
                    "pending": bool(a["pending"]),
                }
            )
        prematches = {p.match_id: p for p in Prematch.objects.filter(match__in=ids)}
        for i in Inducement.objects.filter(match__in=ids).select_related("position").order_by("id"):
            inducements[i.match_id].append(inducement_out(i))
        for row in page:
            doc = _row_out(row, MATCH_FIELDS, zone)
            pk = row[match_id]
            doc["teams"] = [side["team"] for side in sides[pk]]
            doc["sides"] = [{name: side[name] for name in SideOut.Meta.fields} for side in sides[pk]]
            doc["aftermath"] = aftermaths[pk]
            doc["prematch"] = _prematch_out(prematches.get(pk))
            yield {name: doc[name] for name in MatchOut.Meta.fields} | {"inducements": inducements[pk]}


def _batches(rows: Iterable, size: int) -> Iterator[list]:
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _prematch_out(prematch: Prematch | None) -> dict | None:
    if prematch is None:
        return None
    return {
        "complete": prematch.complete,
        "weather": prematch.weather or None,
        "fans": prematch.fans,
        "gate": sum(prematch.fans.values()) if prematch.fans else None,
        "fame": prematch.fame,
        "team_values": prematch.team_values,
        "induced": prematch.induced,
        "superior": prematch.superior_id,
        "underdog": prematch.underdog_id,
        "aggressor": prematch.aggressor_id,
        "terrain": prematch.terrain,
        "log": prematch.log,
    }


def _ledgers(team_ids: list[int]) -> Iterator[tuple[int, list[dict]]]:
    """Each team's entries (account, sequence order), the teams in the teams' order, a page of teams at a time."""
    zone = timezone.get_current_timezone()
    for page in _pages(team_ids, TEAM_CHUNK):
        entries: dict[int, list] = defaultdict(list)
        rows = LedgerEntry.objects.filter(team__in=page).order_by("team_id", "account", "sequence")
        for team_id, *entry in rows.values_list("team_id", *_columns(LEDGER_FIELDS)):
            entries[team_id].append(_row_out(entry, LEDGER_FIELDS, zone))
        for team_id in page:
            yield team_id, entries.get(team_id, [])


def _rolls(league: League) -> Iterator[dict]:
    """The league's rolls in id order, through one cursor read CHUNK rows at a time."""
    zone = timezone.get_current_timezone()
    rows = Roll.objects.filter(league=league).order_by("id").values_list(*_columns(ROLL_FIELDS))
    for row in rows.iterator(chunk_size=CHUNK):
        yield _row_out(row, ROLL_FIELDS, zone)


def _model_fields(serializer, model, skip: tuple[str, ...] = ()) -> tuple[tuple[str, str, bool], ...]:
    """The serializer's plain model fields as (name, `.values()` column, is a datetime): a foreign key's
    column, its id, is what DRF writes."""
    fields = []
    for name in serializer.Meta.fields:
        if name in skip:
            continue
        field = model._meta.get_field(name)
        fields.append((name, field.attname, isinstance(field, models.DateTimeField)))
    return tuple(fields)


# Rows are read as values and written as DRF's ModelSerializer writes them (a foreign key as its id, a datetime
# in DRF's format), without building a model instance and running a serializer per row: 10,000 matches and
# 70,000 rolls are seconds that way, not half a minute. The export's tests hold the output equal to the
# serializers' (tests/league/test_export_stream.py).
ROLL_FIELDS = _model_fields(RollOut, Roll)
LEDGER_FIELDS = _model_fields(LedgerOut, LedgerEntry)
MATCH_FIELDS = _model_fields(MatchOut, Match, skip=("teams", "sides", "aftermath", "prematch"))
SIDE_FIELDS = _model_fields(SideOut, MatchTeam, skip=("team_name",))


def _columns(fields: tuple[tuple[str, str, bool], ...]) -> tuple[str, ...]:
    return tuple(attname for _, attname, _ in fields)


def _datetime_out(value: datetime | None, zone: tzinfo) -> str | None:
    """DRF's DateTimeField output (ISO 8601 in the current time zone, UTC as "Z"), at a fraction of its cost."""
    if value is None:
        return None
    if api_settings.DATETIME_FORMAT != ISO_8601:
        return DateTimeField().to_representation(value)
    text = value.astimezone(zone).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _row_out(row: Sequence, fields: tuple[tuple[str, str, bool], ...], zone: tzinfo) -> dict:
    """A `values_list` row of `_columns(fields)` as its serializer writes it."""
    pairs = zip(fields, row, strict=True)
    return {name: _datetime_out(value, zone) if when else value for (name, _, when), value in pairs}
