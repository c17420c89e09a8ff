"""A league rebuilt from an export document (api-v1.1 `POST /leagues/import/`; the document is league.export's).

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
seasons; the audit. Outside the round trip (docs/decisions.md 2026-12-01 "The import"): ids (new ones, every
id the document names mapped to its new record, in JSON it holds too where a key names a team or a player),
users and people's names (every user the document names becomes the importing user), and what the export
derives (team value, treasury, injuries, names of rosters and positions), which follows from the rest.

A new section (the schedules, the divisions) is one more entry in SECTIONS, in the place it has in
league.export.SECTIONS, with a reader of its records.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import ijson
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from campaigns.errors import NotPermitted, RuleViolation
from campaigns.rulesets import REGISTRY
from league import policy
from league.api.parsers import MAX_JSON_DEPTH
from league.export import batches
from league.models import AuditEntry, League, LeagueReport, Membership, Season, Stadium, validate_timezone
from matches import lifecycle
from matches.models import (
    Aftermath,
    Dispute,
    Inducement,
    Match,
    MatchTeam,
    PlayerMatch,
    Prematch,
    Roll,
)
from matches.rolls import restored_roll
from teams.identity.services import COLOUR
from teams.models import LedgerEntry, Player, Position, Roster, Sponsorship, Team

#: Records of a section checked and written together: one bulk insert per table and chunk.
CHUNK = 200


def max_bytes() -> int:
    """The largest document read (bytes, settings IMPORT_MAX_BYTES); a longer body is refused with 413 before
    or while it is read."""
    return settings.IMPORT_MAX_BYTES


class BadDocument(RuleViolation):
    """The document is not an export this service can rebuild: `field` is the path of the first bad value."""


class TooLarge(RuleViolation):
    """The document is longer than MAX_BYTES (answered 413)."""


def _bad(path: str, message: str) -> BadDocument:
    return BadDocument(message, field=path or "document")


# --- Reading the document -------------------------------------------------------------------------------------


class _Limited:
    """The request body, refused past MAX_BYTES as it is read."""

    def __init__(self, stream, limit: int):
        self.stream, self.left = stream, limit

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(65536 if size is None or size < 0 else size)
        self.left -= len(data)
        if self.left < 0:
            raise TooLarge(f"The document is longer than {max_bytes():,} bytes.")
        return data


class _Events:
    """The document's JSON events, read as they come, with a builder of one whole value at a time."""

    def __init__(self, stream):
        self._events = ijson.basic_parse(stream, use_float=True)
        self.path = ""
        #: How deep the document is open here: past the API's limit (league/api/parsers.py) it is refused, so
        #: neither the builder nor the checks ever recurse far.
        self.depth = 0

    def next(self) -> tuple[str, Any]:
        try:
            event = next(self._events)
            if event[0] in ("start_map", "start_array"):
                self.depth += 1
                if self.depth > MAX_JSON_DEPTH:
                    raise RuleViolation(f"JSON nested deeper than {MAX_JSON_DEPTH} levels.")
            elif event[0] in ("end_map", "end_array"):
                self.depth -= 1
            return event
        except StopIteration:
            raise _bad(self.path, "The document ends too early.") from None
        except ijson.JSONError as error:
            raise _bad(self.path, f"The document is not valid JSON here ({error}).") from None

    def trailing(self) -> bool:
        """Whether anything follows the document's end."""
        try:
            next(self._events)
        except StopIteration:
            return False
        except ijson.JSONError:
            return True
        return True

    def value(self, first: tuple[str, Any] | None = None) -> Any:
        """One whole JSON value (an object or array built in memory: call it on records, not sections)."""
        event, value = first or self.next()
        if event not in ("start_map", "start_array"):
            if event in ("end_map", "end_array", "map_key"):
                raise _bad(self.path, "A value is missing here.")
            return value
        builder = ijson.ObjectBuilder()
        builder.event(event, value)
        depth = 1
        while depth:
            event, value = self.next()
            builder.event(event, value)
            depth += event in ("start_map", "start_array")
            depth -= event in ("end_map", "end_array")
        return builder.value

    def items(self, path: str) -> Iterator[tuple[str, Any]]:
        """The (path, record) of each item of the array that comes next."""
        self.path = path
        event, _ = self.next()
        if event != "start_array":
            raise _bad(path, "Expected a list.")
        index = 0
        while True:
            first = self.next()
            if first[0] == "end_array":
                return
            self.path = f"{path}[{index}]"
            yield self.path, self.value(first)
            index += 1

    def members(self, path: str) -> Iterator[tuple[str, str, Any]]:
        """The (path, key, value) of each member of the object that comes next."""
        self.path = path
        event, _ = self.next()
        if event != "start_map":
            raise _bad(path, "Expected an object.")
        while True:
            event, key = self.next()
            if event == "end_map":
                return
            self.path = f"{path}[{key!r}]" if path else key
            yield self.path, key, self.value()


# --- Checking values ------------------------------------------------------------------------------------------

_MISSING = object()


def _field(record: Any, path: str, name: str, check: Callable[[Any, str], Any], default: Any = _MISSING) -> Any:
    if not isinstance(record, dict):
        raise _bad(path, "Expected an object.")
    here = f"{path}.{name}"
    if name not in record:
        if default is _MISSING:
            raise _bad(here, "This field is required.")
        return default
    return check(record[name], here)


def _int(low: int | None = 0, high: int | None = None, null: bool = False) -> Callable[[Any, str], Any]:
    def check(value, path):
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(path, "Expected a whole number" + (" or null." if null else "."))
        if (low is not None and value < low) or (high is not None and value > high):
            raise _bad(path, f"Expected a number from {low} to {high if high is not None else 'any'}.")
        return value

    return check


def _colour(value, path):
    if not isinstance(value, str) or not COLOUR.fullmatch(value):
        raise _bad(path, "Expected a colour written #rrggbb.")
    return value.lower()


def _str(max_length: int | None = None, choices: tuple[str, ...] | None = None, null: bool = False):
    def check(value, path):
        if value is None and null:
            return None
        if not isinstance(value, str):
            raise _bad(path, "Expected text.")
        if max_length is not None and len(value) > max_length:
            raise _bad(path, f"At most {max_length} characters.")
        if choices is not None and value not in choices:
            raise _bad(path, f"Expected one of {', '.join(repr(c) for c in choices)}.")
        return value

    return check


def _bool(value, path):
    if not isinstance(value, bool):
        raise _bad(path, "Expected true or false.")
    return value


def _when(null: bool = False):
    def check(value, path):
        if value is None and null:
            return None
        if not isinstance(value, str):
            raise _bad(path, "Expected an ISO 8601 timestamp.")
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise _bad(path, "Expected an ISO 8601 timestamp.") from None
        if moment.tzinfo is None:
            raise _bad(path, "Expected a timestamp with its offset (e.g. Z).")
        return moment

    return check


def _json(kind: type | tuple[type, ...] = object, null: bool = False):
    """Any JSON of `kind` (a dict, a list…); numbers past what a float holds are refused (NaN, infinity)."""

    def check(value, path):
        if value is None and null:
            return None
        if not isinstance(value, kind):
            raise _bad(path, f"Expected {'an object' if kind is dict else 'a list' if kind is list else 'JSON'}.")
        _finite(value, path)
        return value

    return check


def _finite(value, path):
    if isinstance(value, float) and not math.isfinite(value):
        raise _bad(path, "Numbers must be finite.")
    if isinstance(value, dict):
        for key, item in value.items():
            _finite(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _finite(item, f"{path}[{i}]")


def _list(value, path) -> list:
    if not isinstance(value, list):
        raise _bad(path, "Expected a list.")
    return value


def _choices(choices) -> tuple[str, ...]:
    return tuple(key for key, _ in choices)


# --- The import ---------------------------------------------------------------------------------------------


class _Import:
    """One import's state: the new league and the map from every id the document names to its new record."""

    def __init__(self, user: AbstractBaseUser):
        self.user = user
        self.league: League | None = None
        self.stadiums: dict[int, int] = {}
        self.teams: dict[int, Team] = {}
        self.players: dict[int, int] = {}
        self.matches: dict[int, int] = {}
        self.match_seasons: dict[int, str] = {}  # season number → the path of a match in it
        self.positions: dict[str, dict[str, Position]] = {}
        self.rosters: dict[str, Roster] = {}
        self.player_ids: set[int] = set()
        self.ledgered: set[int] = set()
        self.weeks: set[str] = set()
        self.seasons: set[int] = set()
        self.open_season: int | None = None
        #: Per-player match rows wait for their matches (which come after the teams): (path, player id, row).
        self.history: list[tuple[str, int, dict]] = []

    # ids ---------------------------------------------------------------------------------------------------

    def ref(self, table: dict[int, Any], what: str, null: bool = True):
        def check(value, path):
            if value is None and null:
                return None
            if isinstance(value, bool) or not isinstance(value, int) or value not in table:
                raise _bad(path, f"Not a {what} of this document.")
            found = table[value]
            return found.pk if isinstance(found, Team) else found

        return check

    def team_ref(self, null: bool = True):
        return self.ref(self.teams, "team", null)

    def player_ref(self, null: bool = True):
        return self.ref(self.players, "player", null)

    def match_ref(self, null: bool = True):
        return self.ref(self.matches, "match", null)

    def user_ref(self, value, path):
        """A user of the document: the importing user, or null."""
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(path, "Expected a user id or null.")
        return self.user.pk

    def remap(self, value: Any, keyed: str | None = None) -> Any:
        """JSON the document holds with its ids mapped: a key named team/player (or winner, mvp…) holds an id,
        and `keyed` says whether the object's own keys are team or player ids."""
        teams = {old: team.pk for old, team in self.teams.items()}
        return _remap(value, teams, self.players, keyed)


TEAM_KEYS = frozenset({"team", "winner", "loser", "home", "away", "superior", "underdog", "aggressor", "champion"})
PLAYER_KEYS = frozenset({"player", "mvp"})


def _remap(value: Any, teams: dict[int, int], players: dict[int, int], keyed: str | None = None) -> Any:
    if isinstance(value, list):
        return [_remap(item, teams, players) for item in value]
    if not isinstance(value, dict):
        return value
    out = {}
    table = teams if keyed == "team" else players if keyed == "player" else None
    for key, item in value.items():
        if table is not None and key.lstrip("-").isdigit() and int(key) in table:
            key = str(table[int(key)])
        if isinstance(item, int) and not isinstance(item, bool):
            if key in TEAM_KEYS and item in teams:
                item = teams[item]
            elif key in PLAYER_KEYS and item in players:
                item = players[item]
            out[key] = item
        else:
            out[key] = _remap(item, teams, players)
    return out


def _create(model, objects: list, stamps: tuple[str, ...] = ()) -> list:
    """One bulk insert; then one bulk update of the timestamps the model stamps itself on insert
    (auto_now_add), put back to the document's."""
    wanted = [[getattr(o, name) for name in stamps] for o in objects]
    created = model.objects.bulk_create(objects)
    if stamps and created:
        for obj, values in zip(created, wanted, strict=True):
            for name, value in zip(stamps, values, strict=True):
                setattr(obj, name, value)
        model.objects.bulk_update(created, list(stamps))
    return created


# --- The head: the league, its settings, house rules and stadiums ------------------------------------------


def _read_league(state: _Import, record: Any, path: str) -> None:
    ruleset = _field(record, path, "ruleset", _str(choices=tuple(REGISTRY)))
    rules = REGISTRY[ruleset]
    overrides = _field(record, path, "house_rules_overrides", _json(dict), {})
    try:
        overrides = rules.validate_house_rules(overrides)
    except RuleViolation as error:
        where = f"{path}.house_rules_overrides" + (f".{error.field}" if error.field else "")
        raise _bad(where, error.message) from None
    zone = _field(record, path, "timezone", _str(64), "UTC")
    try:
        validate_timezone(zone)
    except Exception:
        raise _bad(f"{path}.timezone", f"{zone!r} is not a time zone.") from None
    league = League(
        name=_field(record, path, "name", _str(100)),
        ruleset=ruleset,
        created_by=state.user,
        house_rules_overrides=overrides,
        open_registration=_field(record, path, "open_registration", _bool, True),
        reports_enabled=_field(record, path, "reports_enabled", _bool, True),
        report_weekday=_field(record, path, "report_weekday", _int(0, 6), 0),
        report_hour=_field(record, path, "report_hour", _int(0, 23), 8),
        timezone=zone,
    )
    created_at = _field(record, path, "created_at", _when(null=True), None)
    stadiums = []
    names = set()
    for i, stadium in enumerate(_field(record, path, "stadiums", _list, [])):
        here = f"{path}.stadiums[{i}]"
        name = _field(stadium, here, "name", _str(100))
        if name in names:
            raise _bad(f"{here}.name", "Two stadiums of the league have this name.")
        names.add(name)
        old = _field(stadium, here, "id", _int(None))
        if old in state.stadiums:
            raise _bad(f"{here}.id", "Two stadiums have this id.")
        state.stadiums[old] = len(stadiums)
        stadiums.append(Stadium(name=name, special_attribute=_field(stadium, here, "special_attribute", _str(100), "")))
    league.save()
    if created_at:
        League.objects.filter(pk=league.pk).update(created_at=created_at)
    state.league = league
    Membership.objects.create(league=league, user=state.user, role=Membership.Role.COMMISSIONER)
    for stadium in stadiums:
        stadium.league = league
    created = Stadium.objects.bulk_create(stadiums)
    state.stadiums = {old: created[i].pk for old, i in state.stadiums.items()}
    rosters = Roster.objects.filter(ruleset=ruleset).prefetch_related("positions")
    state.positions = {r.key: {p.key: p for p in r.positions.all()} for r in rosters}
    state.rosters = {r.key: r for r in rosters}


# --- Teams and their players ----------------------------------------------------------------------------------

PLAYER_STATUSES = _choices(Player.Status.choices)
ROW_CHECKS = {
    "touchdowns": _int(0, 32767),
    "casualties": _int(0, 32767),
    "completions": _int(0, 32767),
    "interceptions": _int(0, 32767),
    "mvp": _bool,
    "spp": _int(0),
    "goal_points": _int(0, 32767),
    "wounds": _int(0, 32767),
    "injury": _str(20),
    "injury_detail": _str(20),
    "detail": _json(dict),
}
PLAYER_DEFAULTS = {
    "spp": (_int(0), 0),
    "goal_points": (_int(0), 0),
    "abilities": (_json(list), []),
    "role": (_str(choices=_choices(Player.Role.choices)), ""),
    "wounds": (_int(0, 32767), 0),
    "armour_used": (_int(0, 32767), 0),
    "matches_survived": (_int(0, 32767), 0),
    "elite": (_bool, False),
    "wound_areas": (_json(dict), {}),
    "conditions": (_json(list), []),
    "equipment": (_json(dict), {}),
}


def _player(state: _Import, team: Team, roster: str, record: Any, path: str, former: bool) -> tuple[int, Player]:
    position = _field(record, path, "position", _str(50))
    if position not in state.positions[roster]:
        # Bone Cruncher: a player may be of another race's position (an Elite Elf on a Halfling team).
        found = next((p[position] for p in state.positions.values() if position in p), None)
        if found is None:
            raise _bad(f"{path}.position", f"{position!r} is not a position of this ruleset.")
    else:
        found = state.positions[roster][position]
    player = Player(
        team=team,
        position=found,
        name=_field(record, path, "name", _str(100)),
        number=_field(record, path, "number", _int(0, 32767, null=True)),
        status=_field(record, path, "status", _str(choices=PLAYER_STATUSES)),
        attributes=_field(record, path, "attributes", _json(dict)),
        skills=_field(record, path, "skills", _json(list)),
        value=_field(record, path, "value", _int(0)),
        left_at=_field(record, path, "left_at", _when()) if former else None,
        hired_at=_field(record, path, "hired_at", _when(null=True), None) or timezone.now(),
    )
    for name, (check, default) in PLAYER_DEFAULTS.items():
        setattr(player, name, _field(record, path, name, check, default))
    old = _field(record, path, "id", _int(None))
    if old in state.player_ids:
        raise _bad(f"{path}.id", "Two players have this id.")
    state.player_ids.add(old)
    for i, row in enumerate(_field(record, path, "history", _list, [])):
        state.history.append((f"{path}.history[{i}]", old, row))
    return old, player


def _read_teams(state: _Import, chunk: list[tuple[str, Any]]) -> None:
    league = state.league
    teams, players, sponsorships = [], [], []
    names = {t.name for t in state.teams.values()}
    for path, record in chunk:
        roster = _field(record, path, "roster", _str(50))
        if roster not in state.rosters:
            raise _bad(f"{path}.roster", f"{roster!r} is not a roster of {league.ruleset}.")
        name = _field(record, path, "name", _str(100))
        if name in names:
            raise _bad(f"{path}.name", "Two teams of the league have this name.")
        names.add(name)
        old = _field(record, path, "id", _int(None))
        if old in state.teams or any(old == o for o, _ in teams):
            raise _bad(f"{path}.id", "Two teams have this id.")
        created_at = _field(record, path, "created_at", _when(null=True), None) or timezone.now()
        owns = _field(record, path, "owns_stadium", _bool, False)
        home = _field(record, path, "home_stadium", state.ref(state.stadiums, "stadium"), None)
        if owns and home is None:
            raise _bad(f"{path}.home_stadium", "A team that owns its stadium has it as its home.")
        team = Team(
            league=league,
            coach=state.user,
            name=name,
            roster=state.rosters[roster],
            fan_factor=_field(record, path, "fan_factor", _int(0, 32767)),
            rerolls=_field(record, path, "rerolls", _int(0, 32767)),
            staff=_field(record, path, "staff", _json(dict), {}),
            # Team identity (issue 14): the colours travel; a logo is a file in the source's storage and does not.
            primary_colour=_field(record, path, "primary_colour", _colour, "#1f3a5f"),
            secondary_colour=_field(record, path, "secondary_colour", _colour, "#f2c14e"),
            home_stadium_id=home,
            owns_stadium=owns,
            creation_closed_at=None if _field(record, path, "in_creation", _bool, False) else created_at,
            created_at=created_at,
        )
        teams.append((old, team))
        for key, former in (("players", False), ("former_players", True)):
            for i, p in enumerate(_field(record, path, key, _list, [])):
                players.append(_player(state, team, roster, p, f"{path}.{key}[{i}]", former))
        for i, s in enumerate(_field(record, path, "sponsorships", _list, [])):
            here = f"{path}.sponsorships[{i}]"
            sponsorships.append(
                Sponsorship(
                    team=team,
                    name=_field(s, here, "name", _str(100), ""),
                    gained_at=_field(s, here, "gained_at", _when(null=True), None) or timezone.now(),
                )
            )
    _create(Team, [t for _, t in teams], ("created_at",))
    state.teams.update(teams)
    for _, player in players:
        player.team_id = player.team.pk
    for s in sponsorships:
        s.team_id = s.team.pk
    created = _create(Player, [p for _, p in players], ("hired_at",))
    state.players.update((old, p.pk) for (old, _), p in zip(players, created, strict=True))
    _create(Sponsorship, sponsorships, ("gained_at",))


# --- Matches ------------------------------------------------------------------------------------------------

MATCH_STATUSES = tuple(lifecycle.STATUSES)
SIDE_OUTCOMES = _choices(MatchTeam.Outcome.choices)
INDUCEMENT_ITEMS = _choices(Inducement.Item.choices)
DISPUTE_RULINGS = _choices(Dispute.Ruling.choices)


def _read_matches(state: _Import, chunk: list[tuple[str, Any]]) -> None:
    league, rules = state.league, state.league.rules
    steps = len(rules.postmatch_steps)
    matches, sides, aftermaths, prematches, inducements, disputes = [], [], [], [], [], []
    team, player = state.team_ref(null=False), state.player_ref()
    for path, record in chunk:
        old = _field(record, path, "id", _int(None))
        if old in state.matches or any(old == o for o, _ in matches):
            raise _bad(f"{path}.id", "Two matches have this id.")
        season = _field(record, path, "season", _int(1, 32767), 1)
        state.match_seasons.setdefault(season, f"{path}.season")
        match = Match(
            league=league,
            season=season,
            round=_field(record, path, "round", _int(0, 32767, null=True), None),
            scheduled_for=_field(record, path, "scheduled_for", _when(null=True), None),
            deadline=_field(record, path, "deadline", _when(null=True), None),
            kind=_field(record, path, "kind", _str(choices=_choices(Match.Kind.choices))),
            event=_field(record, path, "event", _str(choices=_choices(Match.Event.choices)), ""),
            stadium_id=_field(record, path, "stadium", state.ref(state.stadiums, "stadium"), None),
            tests_to_win=_field(record, path, "tests_to_win", _int(0, 32767, null=True), None),
            status=_field(record, path, "status", _str(choices=MATCH_STATUSES)),
            result=state.remap(_field(record, path, "result", _json(dict), {})),
            result_body=state.remap(_field(record, path, "result_body", _json(dict), {})),
            created_by=state.user,
            submitted_by_id=_field(record, path, "submitted_by", state.user_ref, None),
            submitted_at=_field(record, path, "submitted_at", _when(null=True), None),
            confirmed_by_id=_field(record, path, "confirmed_by", state.user_ref, None),
            confirmed_at=_field(record, path, "confirmed_at", _when(null=True), None),
            created_at=_field(record, path, "created_at", _when(null=True), None) or timezone.now(),
        )
        matches.append((old, match))
        seen_teams = set()
        for i, side in enumerate(_field(record, path, "sides", _list)):
            here = f"{path}.sides[{i}]"
            side_team = _field(side, here, "team", team)
            order = _field(side, here, "order", _int(0, 32767))
            if side_team in seen_teams:
                raise _bad(f"{here}.team", "A team plays a match once.")
            seen_teams.add(side_team)
            sides.append(
                MatchTeam(
                    match=match,
                    team_id=side_team,
                    order=order,
                    score=_field(side, here, "score", _int(0, null=True), None),
                    casualties_inflicted=_field(side, here, "casualties_inflicted", _int(0), 0),
                    conceded=_field(side, here, "conceded", _bool, False),
                    conceded_early=_field(side, here, "conceded_early", _bool, False),
                    fame=_field(side, here, "fame", _int(0, 32767), 0),
                    placing=_field(side, here, "placing", _int(0, 32767, null=True), None),
                    eliminations=_field(side, here, "eliminations", _int(0, 32767), 0),
                    mvp_id=_field(side, here, "mvp", player, None),
                    outcome=_field(side, here, "outcome", _str(choices=SIDE_OUTCOMES), ""),
                    league_points=_field(side, here, "league_points", _int(-32768, 32767), 0),
                    snapshot=state.remap(_field(side, here, "snapshot", _json(dict), {})),
                )
            )
        if len({s.order for s in sides if s.match is match}) != len(seen_teams):
            raise _bad(f"{path}.sides", "Two sides have the same order.")
        for i, a in enumerate(_field(record, path, "postmatch", _list, [])):
            here = f"{path}.postmatch[{i}]"
            a_team = _field(a, here, "team", team)
            if a_team not in seen_teams:
                raise _bad(f"{here}.team", "Not a team of this match.")
            aftermaths.append(
                Aftermath(
                    match=match,
                    team_id=a_team,
                    step_index=_field(a, here, "step_index", _int(0, steps)),
                    complete=_field(a, here, "complete", _bool),
                    pending=state.remap(_field(a, here, "pending", _json(dict), {})),
                    log=state.remap(_field(a, here, "log", _json(list), [])),
                    carry=state.remap(_field(a, here, "carry", _json(dict), {})),
                    journal=state.remap(_field(a, here, "journal", _json(list), [])),
                )
            )
        pre = _field(record, path, "prematch", _json(dict, null=True), None)
        if pre is not None:
            here = f"{path}.prematch"
            prematches.append(
                Prematch(
                    match=match,
                    step_index=_field(record, path, "prematch_step", _int(0, 32767), 0),
                    complete=_field(pre, here, "complete", _bool),
                    weather=_field(pre, here, "weather", _str(30, null=True), None) or "",
                    fans=state.remap(_field(pre, here, "fans", _json(dict), {}), "team"),
                    fame=state.remap(_field(pre, here, "fame", _json(dict), {}), "team"),
                    team_values=state.remap(_field(pre, here, "team_values", _json(dict), {}), "team"),
                    induced=state.remap(_field(pre, here, "induced", _json(dict), {}), "team"),
                    superior_id=_field(pre, here, "superior", state.team_ref(), None),
                    underdog_id=_field(pre, here, "underdog", state.team_ref(), None),
                    aggressor_id=_field(pre, here, "aggressor", state.team_ref(), None),
                    terrain=state.remap(_field(pre, here, "terrain", _json(dict), {}), "team"),
                    log=state.remap(_field(pre, here, "log", _json(list), [])),
                )
            )
        for i, ind in enumerate(_field(record, path, "inducements", _list, [])):
            here = f"{path}.inducements[{i}]"
            ind_team = _field(ind, here, "team", team)
            position = _field(ind, here, "position", _str(50, null=True), None)
            found = None
            if position is not None:
                found = next((p[position] for p in state.positions.values() if position in p), None)
                if found is None:
                    raise _bad(f"{here}.position", f"{position!r} is not a position of this ruleset.")
            inducements.append(
                Inducement(
                    match=match,
                    team_id=ind_team,
                    item=_field(ind, here, "item", _str(choices=INDUCEMENT_ITEMS)),
                    quantity=_field(ind, here, "quantity", _int(1, 32767), 1),
                    position=found,
                    skill=_field(ind, here, "skill", _str(40), ""),
                    star=_field(ind, here, "star", _str(40), ""),
                    price=_field(ind, here, "price", _int(0)),
                    created_by=state.user,
                )
            )
        for i, d in enumerate(_field(record, path, "disputes", _list, [])):
            here = f"{path}.disputes[{i}]"
            disputes.append(
                Dispute(
                    match=match,
                    raised_by=state.user,
                    reason=_field(d, here, "reason", _str()),
                    ruling=_field(d, here, "ruling", _str(choices=DISPUTE_RULINGS), ""),
                    ruled_by_id=_field(d, here, "ruled_by", state.user_ref, None),
                    ruled_at=_field(d, here, "ruled_at", _when(null=True), None),
                    ruling_reason=_field(d, here, "ruling_reason", _str(), ""),
                    created_at=_field(d, here, "created_at", _when(null=True), None) or timezone.now(),
                )
            )
        if sum(1 for d in disputes if d.match is match and d.ruling == "") > 1:
            raise _bad(f"{path}.disputes", "A match has one open dispute at a time.")
    created = _create(Match, [m for _, m in matches], ("created_at",))
    state.matches.update((old, m.pk) for (old, _), m in zip(matches, created, strict=True))
    for rows in (sides, aftermaths, prematches, inducements, disputes):
        for row in rows:
            row.match_id = row.match.pk
    MatchTeam.objects.bulk_create(sides)
    Aftermath.objects.bulk_create(aftermaths)
    Prematch.objects.bulk_create(prematches)
    Inducement.objects.bulk_create(inducements)
    _create(Dispute, disputes, ("created_at",))


def _write_history(state: _Import) -> None:
    """The players' per-match rows, held since the teams were read, now that their matches exist."""
    teams = {}
    for team in state.teams.values():
        teams[team.pk] = team
    team_of = dict(Player.objects.filter(team__league=state.league).values_list("pk", "team_id"))
    seen = set()
    for chunk in batches(iter(state.history), CHUNK * 10):
        rows = []
        for path, old_player, row in chunk:
            match = _field(row, path, "match_id", state.match_ref(null=False))
            player = state.players[old_player]
            if (match, player) in seen:
                raise _bad(f"{path}.match_id", "A player has one row per match.")
            seen.add((match, player))
            values = {name: _field(row, path, name, check, None) for name, check in ROW_CHECKS.items()}
            rows.append(
                PlayerMatch(
                    match_id=match,
                    team_id=team_of[player],
                    player_id=player,
                    **{k: v for k, v in values.items() if v is not None},
                )
            )
        PlayerMatch.objects.bulk_create(rows)
    state.history = []


# --- Ledgers, rolls, reports, seasons, the audit --------------------------------------------------------------

ACCOUNTS = _choices(LedgerEntry.Account.choices)


def _read_ledgers(state: _Import, chunk: list[tuple[str, str, Any]]) -> None:
    entries = []
    for path, key, value in chunk:
        if not key.lstrip("-").isdigit() or int(key) not in state.teams:
            raise _bad(path, "Not a team of this document.")
        team = state.teams[int(key)]
        balances: dict[str, tuple[int, int]] = {}
        for i, e in enumerate(_list(value, path)):
            here = f"{path}[{i}]"
            account = _field(e, here, "account", _str(choices=ACCOUNTS), "treasury")
            amount = _field(e, here, "amount", _int(-(2**31), 2**31 - 1))
            after = _field(e, here, "balance_after", _int(-(2**31), 2**31 - 1))
            sequence, balance = balances.get(account, (0, 0))
            if amount == 0:
                raise _bad(f"{here}.amount", "A ledger entry moves some gil (never 0).")
            if after != balance + amount:
                raise _bad(
                    f"{here}.balance_after", f"Expected {balance + amount:,}: the previous balance plus the amount."
                )
            if after < 0:
                raise _bad(f"{here}.balance_after", "A balance is never negative.")
            balances[account] = (sequence + 1, after)
            entries.append(
                LedgerEntry(
                    team=team,
                    account=account,
                    sequence=sequence + 1,
                    amount=amount,
                    balance_after=after,
                    kind=_field(e, here, "kind", _str(30)),
                    reason=_field(e, here, "reason", _str(255), ""),
                    match_id=_field(e, here, "match", state.match_ref(), None),
                    created_by=None,
                    created_at=_field(e, here, "created_at", _when(null=True), None) or timezone.now(),
                )
            )
        if team.pk in state.ledgered:
            raise _bad(path, "A team's ledger appears twice.")
        state.ledgered.add(team.pk)
    _create(LedgerEntry, entries, ("created_at",))


def _read_rolls(state: _Import, chunk: list[tuple[str, Any]]) -> None:
    rolls = [
        restored_roll(
            league=state.league,
            match_id=_field(r, path, "match", state.match_ref(), None),
            team_id=_field(r, path, "team", state.team_ref(), None),
            step=_field(r, path, "step", _str(30), ""),
            key=_field(r, path, "key", _str(40)),
            expression=_field(r, path, "expression", _str(10)),
            values=_field(r, path, "values", _json(list)),
            entered=_field(r, path, "entered", _bool),
            rolled_by_id=_field(r, path, "rolled_by", state.user_ref, None),
            created_at=_field(r, path, "created_at", _when(null=True), None) or timezone.now(),
        )
        for path, r in chunk
    ]
    _create(Roll, rolls, ("created_at",))


def _read_reports(state: _Import, chunk: list[tuple[str, Any]]) -> None:
    from league.reports import site_url

    reports = []
    for path, r in chunk:
        week = _field(r, path, "week", _str(8))
        if week in state.weeks:
            raise _bad(f"{path}.week", "Two reports of the same week.")
        state.weeks.add(week)
        data = _field(r, path, "data", _json(dict))
        context = {"report": data, "league": state.league, "week": week, "base_url": site_url()}
        try:
            html = render_to_string("league/_report_body.html", context)
            text = render_to_string("league/report_email.txt", context)
        except Exception:
            raise _bad(f"{path}.data", "Not a weekly report's sections.") from None
        reports.append(
            LeagueReport(
                league=state.league,
                week=week,
                week_start=_field(r, path, "week_start", _when()),
                week_end=_field(r, path, "week_end", _when()),
                data=data,
                html=html,
                text=text,
                created_at=_field(r, path, "created_at", _when(null=True), None) or timezone.now(),
            )
        )
    _create(LeagueReport, reports, ("created_at",))


def _read_seasons(state: _Import, chunk: list[tuple[str, Any]]) -> None:
    seasons = []
    for path, s in chunk:
        number = _field(s, path, "number", _int(1, 32767))
        if number in state.seasons:
            raise _bad(f"{path}.number", "Two seasons have this number.")
        status = _field(s, path, "status", _str(choices=_choices(Season.Status.choices)))
        if status == Season.Status.OPEN:
            if state.open_season is not None:
                raise _bad(f"{path}.status", "A league has one open season.")
            state.open_season = number
        state.seasons.add(number)
        seasons.append(
            Season(
                league=state.league,
                number=number,
                name=_field(s, path, "name", _str(100), ""),
                status=status,
                started_at=_field(s, path, "started_at", _when()),
                closed_at=_field(s, path, "closed_at", _when(null=True), None),
                champion_id=_field(s, path, "champion", state.team_ref(), None),
                final_table=state.remap(_field(s, path, "final_table", _json(list), [])),
            )
        )
    Season.objects.bulk_create(seasons)


def _read_audit(state: _Import, chunk: list[tuple[str, Any]]) -> None:
    entries = [
        AuditEntry(
            league=state.league,
            actor_id=_field(e, path, "actor", state.user_ref, None),
            action=_field(e, path, "action", _str(30)),
            target=_field(e, path, "target", _str(100), ""),
            before=state.remap(_field(e, path, "before", _json(), None)),
            after=state.remap(_field(e, path, "after", _json(), None)),
            reason=_field(e, path, "reason", _str(), ""),
            at=_field(e, path, "at", _when(null=True), None) or timezone.now(),
        )
        for path, e in chunk
    ]
    _create(AuditEntry, entries, ("at",))


#: The document's sections after its head, in league.export.SECTIONS' order: (key, reader of a chunk of its
#: records, "array" or "object"). A section may be missing (an older export): it is then empty.
SECTIONS: tuple[tuple[str, Callable[[_Import, list], None], str], ...] = (
    ("teams", _read_teams, "array"),
    ("matches", _read_matches, "array"),
    ("ledgers", _read_ledgers, "object"),
    ("rolls", _read_rolls, "array"),
    ("reports", _read_reports, "array"),
    ("seasons", _read_seasons, "array"),
    ("audit", _read_audit, "array"),
)
#: What runs once a section is read (the players' match rows wait for the matches).
AFTER = {"matches": _write_history}
#: Keys of the head the import reads (`league`) or skips (derived, or of the export's moment).
HEAD = ("exported_at", "league", "house_rules")


def league_import(*, user: AbstractBaseUser, stream, length: int | None = None) -> League:
    """Rebuild the export document read from `stream` as a new league of `user` (its commissioner), in one
    transaction; raises BadDocument (the first bad path), TooLarge or NotPermitted and then creates nothing."""
    if not policy.may_create_league(user):
        raise NotPermitted("Sign in to import a league.")
    if length is not None and length > max_bytes():
        raise TooLarge(f"The document is longer than {max_bytes():,} bytes.")
    events = _Events(_Limited(stream, max_bytes()))
    state = _Import(user)
    order = [key for key, _, _ in SECTIONS]
    with transaction.atomic():
        if events.next()[0] != "start_map":
            raise _bad("", "An export document is a JSON object.")
        done: list[str] = []
        while True:
            event, key = events.next()
            if event == "end_map":
                break
            events.path = key
            if key in HEAD:
                if key in done:
                    raise _bad(key, "This key appears twice.")
                if key == "league":
                    _read_league(state, events.value(), "league")
                else:
                    events.value()
                done.append(key)
                continue
            if key not in order:
                raise _bad(key, f"Not a section of an export (its sections: {', '.join(order)}).")
            if state.league is None:
                raise _bad(key, "The league comes before the other sections.")
            if key in done or any(order.index(d) > order.index(key) for d in done if d in order):
                raise _bad(key, f"Out of place: the sections come in this order: {', '.join(order)}.")
            _, reader, shape = SECTIONS[order.index(key)]
            records = events.items(key) if shape == "array" else events.members(key)
            for chunk in batches(records, CHUNK):
                reader(state, chunk)
            done.append(key)
            if key in AFTER:
                AFTER[key](state)
        if events.trailing():
            raise _bad("", "Something follows the document.")
        if state.league is None:
            raise _bad("league", "This field is required.")
        for key in order:
            if key not in done and key in AFTER:
                AFTER[key](state)
        _finish(state)
    return state.league


def _finish(state: _Import) -> None:
    if state.history:
        path = state.history[0][0]
        raise _bad(f"{path}.match_id", "Not a match of this document.")
    if not state.seasons:  # an export from before seasons: everything in season 1
        Season.objects.create(league=state.league, number=1, started_at=timezone.now())
        state.seasons, state.open_season = {1}, 1
    if state.open_season is None:
        raise _bad("seasons", "A league has one open season.")
    for number, path in state.match_seasons.items():
        if number not in state.seasons:
            raise _bad(path, f"Season {number} is not among the seasons.")
    League.objects.filter(pk=state.league.pk).update(season=state.open_season)
    state.league.season = state.open_season
