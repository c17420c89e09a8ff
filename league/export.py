"""The whole league as one JSON document (api-v1 `GET /leagues/{id}/export/`): league, house rules, teams
and players with their match history, matches with results and pre-match sequences, ledgers, rolls and
reports.

The document is streamed: `league_export_stream` yields it piece by piece, reading matches a page of `CHUNK`
through one database cursor (each page's sides, post-match sequences, pre-match sequences and inducements
fetched together), rolls through another, teams and ledgers a page of teams at a time. Rows are kept as the
database's text; each record is made as its batch is encoded, by orjson, into UTF-8 bytes: one encoder call a
batch, not one a record, and parsed JSON that dies young (docs/decisions.md, 2026-12-01 "The export streams"
and "The export in batches through orjson"). Memory stays that of one page whatever the league's history,
the first bytes leave at once, and the number of queries grows with the pages, never with the rows."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime, tzinfo

import orjson
from django.db import connection, models
from django.db.models.functions import Cast
from django.utils import timezone
from rest_framework.fields import DateTimeField
from rest_framework.settings import ISO_8601, api_settings
from rest_framework.utils.encoders import JSONEncoder

from league.api.serializers import LeagueOut
from league.models import AuditEntry, League, Season
from league.reports import report_url
from league.selectors import league_queryset
from matches.api import MatchOut, RollOut, SideOut
from matches.models import Aftermath, Dispute, Inducement, Match, MatchTeam, PlayerMatch, Prematch, Roll
from matches.prematch import inducement_out, prematch_record
from teams.api import LedgerOut, PlayerOut, TeamOut
from teams.models import LedgerEntry, Team
from teams.selectors import team_queryset

#: Rows read per query: a page of matches (and its sides, post-match and pre-match sequences) at a time.
CHUNK = 500
#: Rolls read per round trip of their cursor (a roll is a short row).
ROLL_CHUNK = 2000
#: Teams per page: a team brings its players, their injuries and their history.
TEAM_CHUNK = 50
#: Reports per page: each carries its whole body.
REPORT_CHUNK = 20
#: Records encoded per orjson call (matches, heavier, a tenth of this): few enough to die young.
BATCH = 100
#: The stream is handed to the server in pieces of at least this many bytes, not one per record.
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
# orjson writes what json writes (compact, UTF-8, keys in order); datetimes and everything it does not know
# natively go to DRF's encoder's `default`.
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(value) -> bytes:
    """`value` as DRF's renderer writes it, in UTF-8. A value orjson refuses (a key that is not a string, an
    integer past 64 bits, nesting past 254 levels) is written by DRF's encoder itself, which also raises what
    DRF would."""
    try:
        return orjson.dumps(value, default=_encoder.default, option=_OPTIONS)
    except orjson.JSONEncodeError:
        return _encoder.encode(value).encode()


def league_export(*, league: League) -> dict:
    """The export as one parsed document: for callers that want it whole (and small)."""
    return json.loads(b"".join(league_export_stream(league=league)))


def league_export_stream(*, league: League) -> Iterator[bytes]:
    """The export document: its head (the league and its house rules) at once, then pieces of at least BUFFER
    bytes (a page of matches is one piece)."""
    parts = _document(league)
    yield next(parts)
    yield from _buffered(parts)


def _buffered(parts: Iterable[bytes]) -> Iterator[bytes]:
    pending: list[bytes] = []
    size = 0
    for part in parts:
        pending.append(part)
        size += len(part)
        if size >= BUFFER:
            yield b"".join(pending)
            pending, size = [], 0
    if pending:
        yield b"".join(pending)


def _array(records: Iterable, batch: int) -> Iterator[bytes]:
    """A JSON array of the records, encoded `batch` at a time as they are made (one orjson call a batch): a
    record's objects, its parsed JSON above all, live only until its batch is written, so the cyclic garbage
    collector rarely meets them (pages of parsed records kept alive were half the export's time in it)."""
    yield b"["
    comma = b""
    for group in batches(records, batch):
        yield comma + dumps(group)[1:-1]  # the batch's records, without its own brackets
        comma = b","
    yield b"]"


def _object(members: Iterable[tuple[str, object]], batch: int) -> Iterator[bytes]:
    """A JSON object of the (key, value) members, encoded `batch` at a time as they are made."""
    yield b"{"
    comma = b""
    for group in batches(members, batch):
        yield comma + dumps(dict(group))[1:-1]
        comma = b","
    yield b"}"


class _Context:
    """What the sections share: the league (read once) and its teams' ids in the teams' order."""

    def __init__(self, league: League):
        self.league = league_queryset().get(pk=league.pk)
        self.team_ids = list(Team.objects.filter(league=league).order_by("name", "id").values_list("pk", flat=True))


def _reports(ctx: _Context) -> Iterator[bytes]:
    """The weekly reports, newest first, each with its week's bounds and its sections as data."""
    rows = ctx.league.reports.defer("chart_png").order_by("-week_start", "-id").iterator(chunk_size=REPORT_CHUNK)
    return _array((report_record(r) for r in rows), 1)


def report_record(report) -> dict:
    """A weekly report as the export records it."""
    return {
        "id": report.pk,
        "week": report.week,
        "week_start": report.week_start.isoformat(),
        "week_end": report.week_end.isoformat(),
        "created_at": report.created_at.isoformat(),
        "url": report_url(report),
        "data": report.data,
    }


def _seasons(ctx: _Context) -> Iterator[bytes]:
    """The league's seasons, oldest first, each with its champion (a team id) and frozen final table."""
    season_out = _row_writer(SEASON_FIELDS)
    rows = Season.objects.filter(league=ctx.league).order_by("number").values_list(*_columns(SEASON_FIELDS))
    return _array((season_out(row) for row in rows.iterator(chunk_size=CHUNK)), BATCH)


def _audit(ctx: _Context) -> Iterator[bytes]:
    """The league's audit, OLDEST first (a log read from its start; an import appends it in that order), the
    actor as a user id like every other user of the document."""
    entry_out = _row_writer(AUDIT_FIELDS)
    rows = AuditEntry.objects.filter(league=ctx.league).order_by("at", "id").values_list(*_columns(AUDIT_FIELDS))
    return _array((entry_out(row) for row in rows.iterator(chunk_size=CHUNK)), BATCH)


#: The document's sections after its head, in order: (key, writer of its JSON value). A new section (the
#: schedules, the divisions) is one more entry here and one in league.importer.SECTIONS, in the same place.
SECTIONS: tuple[tuple[str, Callable[[_Context], Iterator[bytes]]], ...] = (
    ("teams", lambda ctx: _array(_teams(ctx.league, ctx.team_ids), 1)),
    ("matches", lambda ctx: _array(_matches(ctx.league), BATCH // 10)),
    ("ledgers", lambda ctx: _object(_ledgers(ctx.team_ids), 1)),
    ("rolls", lambda ctx: _array(_rolls(ctx.league), BATCH)),
    ("reports", _reports),
    ("seasons", _seasons),
    ("audit", _audit),
)


def _document(league: League) -> Iterator[bytes]:
    ctx = _Context(league)
    yield (
        b'{"exported_at":'
        + dumps(timezone.now().isoformat())
        + b',"league":'
        + dumps(LeagueOut(ctx.league).data)
        + b',"house_rules":'
        + dumps(ctx.league.house_rules)
    )
    for key, section in SECTIONS:
        yield b',"' + key.encode() + b'":'
        yield from section(ctx)
    yield b"}"


def _pages(ids: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def batches(rows: Iterable, size: int) -> Iterator[list]:
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _teams(league: League, team_ids: list[int]) -> Iterator[dict]:
    """Teams by name, read a page at a time, each player with his match rows in this league (match order)."""
    history_out = _row_writer(HISTORY_FIELDS)
    serializer, player_out = TeamOut(context={}), PlayerOut(context={})
    for page in _pages(team_ids, TEAM_CHUNK):
        teams = list(team_queryset().filter(pk__in=page).order_by("name", "id"))
        for team in teams:
            # The league read once for all: its house rules (which the team value and every player's summary
            # read) are merged once, not once per team.
            team.league = league
        history: dict[int, list[tuple]] = defaultdict(list)
        # By the players' ids (the page's prefetched players): an index scan of the rows, where a join to the
        # players by team read the whole table for each page.
        players = [player.pk for team in teams for player in team.players.all()]
        rows = (
            PlayerMatch.objects.filter(match__league=league, player__in=players)
            .order_by("match_id")
            .values_list("player_id", *_columns(HISTORY_FIELDS))
        )
        for row in rows:
            history[row[0]].append(row[1:])
        for team in teams:
            doc = serializer.to_representation(team)
            # Players who left (fired, dead, retired: the memorial) keep their match rows, which the matches'
            # results name: the export keeps them too, apart from the team sheet.
            former = [p for p in team.players.all() if p.left_at is not None]
            doc["former_players"] = [
                player_out.to_representation(_on(p, team)) | {"left_at": p.left_at.isoformat()}
                for p in sorted(former, key=lambda p: (p.left_at, p.pk))
            ]
            for player in (*doc["players"], *doc["former_players"]):
                player["history"] = [history_out(row) for row in history.get(player["id"], ())]
            yield doc


def _on(player, team):
    player.team = team  # already loaded: spare a query per player
    return player


def _matches(league: League) -> Iterator[dict]:
    """Matches in the order they were made (created_at, id), read through one cursor a page at a time: each as
    MatchOut writes it, with its whole pre-match sequence and its inducements. Read as values (a match's journal
    and corrections are not read at all); 4 more queries a page."""
    steps = [s.key for s in league.rules.postmatch_steps]
    match_out, side_out, dispute_out = _row_writer(MATCH_FIELDS), _row_writer(SIDE_FIELDS), _row_writer(DISPUTE_FIELDS)
    postmatch_out = _row_writer(POSTMATCH_FIELDS)
    rows = Match.objects.filter(league=league).order_by("created_at", "id").values_list(*_columns(MATCH_FIELDS))
    match_id = _columns(MATCH_FIELDS).index("id")
    for page in batches(rows.iterator(chunk_size=CHUNK), CHUNK):
        ids = [row[match_id] for row in page]
        sides, aftermaths, inducements, disputes = (defaultdict(list) for _ in range(4))
        for side in (
            MatchTeam.objects.filter(match__in=ids)
            .order_by("match_id", "order")
            .values_list("match_id", *_columns(SIDE_FIELDS))
        ):
            sides[side[0]].append(side[1:])
        for a in (
            Aftermath.objects.filter(match__in=ids)
            .order_by("team_id")
            .values_list("match_id", *_columns(POSTMATCH_FIELDS))
        ):
            aftermaths[a[0]].append(postmatch_out(a[1:]))
        for d in (
            Dispute.objects.filter(match__in=ids)
            .order_by("created_at", "id")
            .values_list("match_id", *_columns(DISPUTE_FIELDS))
        ):
            disputes[d[0]].append(dispute_out(d[1:]))
        prematches = {p.match_id: p for p in Prematch.objects.filter(match__in=ids)}
        for i in Inducement.objects.filter(match__in=ids).select_related("position").order_by("id"):
            inducements[i.match_id].append(inducement_out(i))
        for row in page:
            doc = match_out(row)
            pk = row[match_id]
            doc["sides"] = [side_out(side) for side in sides[pk]]
            doc["teams"] = [side["team"] for side in doc["sides"]]
            # The sides' order (home first), not the teams' ids: an imported league's ids run another way.
            order = {side["team"]: side["order"] for side in doc["sides"]}
            aftermaths[pk].sort(key=lambda a: order.get(a["team"], 0))
            doc["aftermath"] = [
                {"team": a["team"], "step": None if a["complete"] else steps[a["step_index"]]}
                | {"complete": a["complete"], "pending": bool(a["pending"])}
                for a in aftermaths[pk]
            ]
            prematch = prematches.get(pk)
            doc["prematch"] = prematch_record(prematch)
            yield {name: doc[name] for name in MatchOut.Meta.fields} | {
                "result_body": doc["result_body"],
                # The sequences' whole state (the brief `aftermath` and `prematch` above are MatchOut's): what an
                # import needs to resume them where they stand.
                "prematch_step": prematch.step_index if prematch else None,
                "postmatch": aftermaths[pk],
                "inducements": inducements[pk],
                "disputes": disputes[pk],
            }


def _ledgers(team_ids: list[int]) -> Iterator[tuple[str, list[dict]]]:
    """Each team's entries (account, sequence order) by team id, the teams in the teams' order, read a page of
    teams at a time."""
    entry_out = _row_writer(LEDGER_FIELDS)
    for page in _pages(team_ids, TEAM_CHUNK):
        entries: dict[int, list] = defaultdict(list)
        rows = LedgerEntry.objects.filter(team__in=page).order_by("team_id", "account", "sequence")
        for row in rows.values_list("team_id", *_columns(LEDGER_FIELDS)):
            entries[row[0]].append(row[1:])
        for team_id in page:
            yield str(team_id), [entry_out(entry) for entry in entries.get(team_id, ())]


def _rolls(league: League) -> Iterator[dict]:
    """The league's rolls in id order, through one cursor read ROLL_CHUNK rows at a time."""
    roll_out = _row_writer(ROLL_FIELDS)
    rows = Roll.objects.filter(league=league).order_by("id").values_list(*_columns(ROLL_FIELDS))
    for row in rows.iterator(chunk_size=ROLL_CHUNK):
        yield roll_out(row)


#: How a column is read and written: as it comes, a datetime in DRF's format, or JSON text parsed here.
PLAIN, DATETIME, JSON = "plain", "datetime", "json"


def _kind(field: models.Field) -> str:
    if isinstance(field, models.DateTimeField):
        return DATETIME
    return JSON if isinstance(field, models.JSONField) else PLAIN


def _model_fields(serializer, model, skip: tuple[str, ...] = (), related: dict[str, str] | None = None):
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
        fields.append((name, field.attname, _kind(field)))
    return tuple(fields)


# Rows are read as values and written as DRF's ModelSerializer writes them (a foreign key as its id, a datetime
# in DRF's format), without building a model instance and running a serializer per row: 10,000 matches and
# 70,000 rolls are seconds that way, not half a minute. The export's tests hold the output equal to the
# serializers' (tests/league/test_export_stream.py).
ROLL_FIELDS = _model_fields(RollOut, Roll)
LEDGER_FIELDS = _model_fields(LedgerOut, LedgerEntry)
MATCH_FIELDS = (
    *_model_fields(MatchOut, Match, skip=("teams", "sides", "aftermath", "prematch")),
    ("result_body", "result_body", JSON),
)
SIDE_FIELDS = _model_fields(SideOut, MatchTeam, related={"team_name": "team__name"})


def _fields(model, names: tuple[str, ...]) -> tuple:
    """The named fields of `model` as (name, column, kind): a foreign key as its id."""
    return tuple((name, model._meta.get_field(name).attname, _kind(model._meta.get_field(name))) for name in names)


SEASON_FIELDS = _fields(Season, ("number", "name", "status", "started_at", "closed_at", "champion", "final_table"))
#: An audit entry, its actor as a user id (like every user of the document).
AUDIT_FIELDS = _fields(AuditEntry, ("at", "actor", "action", "target", "before", "after", "reason"))
#: A team's post-match sequence, whole: its step, the decision it waits for, its log, carry and journal.
POSTMATCH_FIELDS = _fields(Aftermath, ("team", "step_index", "complete", "pending", "log", "carry", "journal"))
#: A dispute: its reason and ruling (the coach and the commissioner as user ids).
DISPUTE_FIELDS = _fields(
    Dispute, ("raised_by", "reason", "created_at", "ruling", "ruled_by", "ruled_at", "ruling_reason")
)
HISTORY_FIELDS = tuple((name, name, _kind(PlayerMatch._meta.get_field(name))) for name in ("match_id", *ROW_FIELDS))


def _columns(fields: tuple[tuple[str, str, str], ...]) -> tuple:
    """The `values_list` columns of `fields`, a JSON or datetime column as its text: `_json` and `_datetime_out`
    read it in a fraction of the time Django's JSONField (three calls a value) and the database driver's Python
    datetime loader (Django's, for PostgreSQL's timestamptz) take."""
    return tuple(Cast(column, models.TextField()) if kind != PLAIN else column for _, column, kind in fields)


def _row_writer(fields: tuple[tuple[str, str, str], ...]) -> Callable[[Sequence], dict]:
    """A writer of `values_list` rows of `_columns(fields)` as their serializer writes them (in the current
    time zone, read once)."""
    names = tuple(name for name, _, _ in fields)
    when = tuple((i, name) for i, (name, _, kind) in enumerate(fields) if kind == DATETIME)
    parsed = tuple((i, name) for i, (name, _, kind) in enumerate(fields) if kind == JSON)
    zone, stored = timezone.get_current_timezone(), connection.timezone

    def write(row: Sequence) -> dict:
        doc = dict(zip(names, row, strict=True))
        for i, name in when:
            doc[name] = _datetime_out(row[i], zone, stored)
        for i, name in parsed:
            doc[name] = _json(row[i])
        return doc

    return write


#: JSON text shorter than this holds no integer literal past 64 bits (19 digits and a sign at most).
_SHORT = 20
#: Every digit to "0", every other byte to " ": a run of 19 "0"s in the mapped text is a run of 19 digits.
_DIGITS = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))
_LONG_NUMBER = b"0" * (_SHORT - 1)


def _json(text: str | None):
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


def _datetime_out(text: str | None, zone: tzinfo, stored: tzinfo | None) -> str | None:
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
