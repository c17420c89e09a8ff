"""A league rebuilt from an export document (api-v1.1 `POST /leagues/import/`; the document is dugout.export's).

The document is read as a stream of JSON events (ijson), one section after the other in the export's order,
each array a chunk of `CHUNK` records at a time: a chunk is checked record by record, field by field, then
written with one bulk insert per table (and one bulk update of the timestamps the models stamp themselves), so
the queries grow with the chunks, never with the rows. Everything runs in one transaction: the first bad value
raises `BadDocument` naming its path (`teams[3].players[0].position`), answered 400, and nothing stays.

What is rebuilt for the importing user, who becomes the league's commissioner: the league's settings, house
rules and stadiums; teams (coached by him) and their players on the sheet and in the memorial, with their
state; matches with their sides, results, per-player rows, sequences (pre-match and post-match, whole),
inducements and disputes; the ledgers (checked entry by entry against the ledger's rules: sequences 1, 2, 3 …,
each balance the previous plus the amount, never negative, never a zero amount); rolls; weekly reports;
seasons; the audit. Outside the round trip (docs/decisions/ 2026-12-01 "The import"): ids (new ones, every
id the document names mapped to its new record, in JSON it holds too where a key names a team or a player),
users and people's names (every user the document names becomes the importing user), and what the export
derives (team value, treasury, injuries, names of rosters and positions), which follows from the rest.

The package (docs/decisions/ 2026-12-02 "The export and the import as packages"): `events` (the JSON
stream), `checks` (the field validators, BadDocument), `state` (the id maps and the bulk writes), one reader
module per concern (`head`, `teams`, `matches`, `records`, `schedules`) and `sections`, the declared list of
sections in the export's order: a new section (the divisions) is one more entry there, in the place it has in
dugout.export.SECTIONS, with a reader of its records.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns.errors import NotPermitted
from dugout.export import batches
from dugout.importer.checks import BadDocument, TooLarge, bad
from dugout.importer.events import Events, Limited
from dugout.importer.head import read_league
from dugout.importer.sections import AFTER, HEAD, SECTIONS
from dugout.importer.state import ImportState
from league import policy
from league.models import League, Season
from matches.tally import tally_rebuild

__all__ = ["CHUNK", "HEAD", "SECTIONS", "BadDocument", "TooLarge", "league_import", "max_bytes"]

#: Records of a section checked and written together: one bulk insert per table and chunk.
CHUNK = 200


def max_bytes() -> int:
    """The largest document read (bytes, settings IMPORT_MAX_BYTES); a longer body is refused with 413 before
    or while it is read."""
    return settings.IMPORT_MAX_BYTES


def league_import(*, user: AbstractBaseUser, stream, length: int | None = None) -> League:
    """Rebuild the export document read from `stream` as a new league of `user` (its commissioner), in one
    transaction; raises BadDocument (the first bad path), TooLarge or NotPermitted and then creates nothing."""
    if not policy.may_create_league(user):
        raise NotPermitted("Sign in to import a league.")
    if length is not None and length > max_bytes():
        raise TooLarge(f"The document is longer than {max_bytes():,} bytes.")
    events = Events(Limited(stream, max_bytes()))
    state = ImportState(user, CHUNK)
    order = [key for key, _, _ in SECTIONS]
    with transaction.atomic():
        if events.next()[0] != "start_map":
            raise bad("", "An export document is a JSON object.")
        done: list[str] = []
        while True:
            event, key = events.next()
            if event == "end_map":
                break
            events.path = key
            if key in HEAD:
                if key in done:
                    raise bad(key, "This key appears twice.")
                if key == "league":
                    read_league(state, events.value(), "league")
                else:
                    events.value()
                done.append(key)
                continue
            if key not in order:
                raise bad(key, f"Not a section of an export (its sections: {', '.join(order)}).")
            if state.league is None:
                raise bad(key, "The league comes before the other sections.")
            if key in done or any(order.index(d) > order.index(key) for d in done if d in order):
                raise bad(key, f"Out of place: the sections come in this order: {', '.join(order)}.")
            _, reader, shape = SECTIONS[order.index(key)]
            records = events.items(key) if shape == "array" else events.members(key)
            for chunk in batches(records, CHUNK):
                reader(state, chunk)
            done.append(key)
            if key in AFTER:
                AFTER[key](state)
        if events.trailing():
            raise bad("", "Something follows the document.")
        if state.league is None:
            raise bad("league", "This field is required.")
        for key in order:
            if key not in done and key in AFTER:
                AFTER[key](state)
        _finish(state)
    return state.league


def _finish(state: ImportState) -> None:
    if state.history:
        path = state.history[0][0]
        raise bad(f"{path}.match_id", "Not a match of this document.")
    if not state.seasons:  # an export from before seasons: everything in season 1
        Season.objects.create(league=state.league, number=1, started_at=timezone.now())
        state.seasons, state.open_season = {1}, 1
    if state.open_season is None:
        raise bad("seasons", "A league has one open season.")
    for number, path in state.match_seasons.items():
        if number not in state.seasons:
            raise bad(path, f"Season {number} is not among the seasons.")
    League.objects.filter(pk=state.league.pk).update(season=state.open_season)
    state.league.season = state.open_season
    tally_rebuild(league_id=state.league.pk)  # the players' season totals, from the rows just written
