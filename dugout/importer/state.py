"""One import's state (the new league, the map from every id the document names to its new record) and the
bulk writes the readers share."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from dugout.importer.checks import bad
from league.models import League
from teams.models import Position, Roster, Team


class ImportState:
    """One import's state: the new league and the map from every id the document names to its new record."""

    def __init__(self, user: AbstractBaseUser, chunk: int = 200):
        self.user = user
        #: Records checked and written together (dugout.importer.CHUNK, read once an import).
        self.chunk = chunk
        self.league: League | None = None
        self.stadiums: dict[int, int] = {}
        self.teams: dict[int, Team] = {}
        #: Divisions: old id → new id, and the names taken (casefolded).
        self.divisions: dict[int, int] = {}
        self.division_names: set[str] = set()
        self.players: dict[int, int] = {}
        self.matches: dict[int, int] = {}
        #: Generated schedules: the ids seen, the (season, format) pairs taken, each round's old id → new id, and
        #: each new round's season (a match names its round and must be of its season).
        self.schedule_ids: set[int] = set()
        self.schedule_formats: set[tuple[int, str]] = set()
        self.rounds: dict[int, int] = {}
        self.round_seasons: dict[int, int] = {}
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
                raise bad(path, f"Not a {what} of this document.")
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
            raise bad(path, "Expected a user id or null.")
        return self.user.pk

    def remap(self, value: Any, keyed: str | None = None) -> Any:
        """JSON the document holds with its ids mapped: a key named team/player (or winner, mvp…) holds an id,
        and `keyed` says whether the object's own keys are team or player ids."""
        teams = {old: team.pk for old, team in self.teams.items()}
        return remap_ids(value, teams, self.players, keyed)


TEAM_KEYS = frozenset(
    {"team", "winner", "loser", "home", "away", "superior", "underdog", "aggressor", "champion", "withdrawn", "joined"}
)
#: Keys whose value is a list of team ids (a schedule's audit entries: its teams, withdrawn teams, byes, seeds).
TEAM_LIST_KEYS = frozenset({"teams", "withdrawn", "byes", "seeds"})
PLAYER_KEYS = frozenset({"player", "mvp"})


def remap_ids(value: Any, teams: dict[int, int], players: dict[int, int], keyed: str | None = None) -> Any:
    if isinstance(value, list):
        return [remap_ids(item, teams, players) for item in value]
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
        elif key in TEAM_LIST_KEYS and isinstance(item, list):
            out[key] = [
                teams.get(t, t) if isinstance(t, int) and not isinstance(t, bool) else remap_ids(t, teams, players)
                for t in item
            ]
        else:
            out[key] = remap_ids(item, teams, players)
    return out


def create_stamped(model, objects: list, stamps: tuple[str, ...] = ()) -> list:
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
