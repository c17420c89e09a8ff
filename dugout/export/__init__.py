"""The whole league as one JSON document (api-v1 `GET /leagues/{id}/export/`): league, house rules, teams
and players with their match history, matches with results and pre-match sequences, ledgers, rolls and
reports.

The document is streamed: `league_export_stream` yields it piece by piece, reading matches a page of `CHUNK`
through one database cursor (each page's sides, post-match sequences, pre-match sequences and inducements
fetched together), rolls through another, teams and ledgers a page of teams at a time. Rows are kept as the
database's text; each record is made as its batch is encoded, by orjson, into UTF-8 bytes: one encoder call a
batch, not one a record, and parsed JSON that dies young (docs/decisions/, 2026-12-01 "The export streams"
and "The export in batches through orjson"). Memory stays that of one page whatever the league's history,
the first bytes leave at once, and the number of queries grows with the pages, never with the rows.

The package (docs/decisions/ 2026-12-02 "The export and the import as packages"): `encoding` (orjson, arrays
and objects a batch at a time), `columns` (the rows' columns and their writer), `sections` (one writer per
section, and SECTIONS, the document's order), `schedules` (the generated schedules). The page sizes below are
read once per document, into its Context, so a test or a benchmark may change them between exports."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from django.utils import timezone

from dugout.api.serializers import LeagueOut
from dugout.export.columns import (
    AUDIT_FIELDS,
    DISPUTE_FIELDS,
    HISTORY_FIELDS,
    LEDGER_FIELDS,
    MATCH_FIELDS,
    POSTMATCH_FIELDS,
    ROLL_FIELDS,
    ROW_FIELDS,
    SEASON_FIELDS,
    SIDE_FIELDS,
)
from dugout.export.encoding import batches, dumps
from dugout.export.sections import SECTIONS, Context, Limits, report_record
from league.models import League

__all__ = [
    "AUDIT_FIELDS",
    "BATCH",
    "BUFFER",
    "CHUNK",
    "DISPUTE_FIELDS",
    "HISTORY_FIELDS",
    "LEDGER_FIELDS",
    "MATCH_FIELDS",
    "POSTMATCH_FIELDS",
    "REPORT_CHUNK",
    "ROLL_CHUNK",
    "ROLL_FIELDS",
    "ROW_FIELDS",
    "SEASON_FIELDS",
    "SECTIONS",
    "SIDE_FIELDS",
    "TEAM_CHUNK",
    "batches",
    "dumps",
    "league_export",
    "league_export_stream",
    "report_record",
]

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


def _document(league: League) -> Iterator[bytes]:
    ctx = Context(league, Limits(CHUNK, ROLL_CHUNK, TEAM_CHUNK, REPORT_CHUNK, BATCH))
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
