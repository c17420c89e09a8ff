"""The import's round trip, shared by the import tests: export → import → export, and the document with every id
replaced by its record's place and every user by "user", so two documents compare apart from ids, users and
people (docs/decisions/, 2026-12-01 "The import")."""

from __future__ import annotations

import json

from league.models import League
from teams.models import Team
from tests.dugout.export.test_export import export_doc
from tests.factories import UserFactory

#: Keys whose value is a user of the document (outside the round trip: the importer becomes every one).
USER_KEYS = {
    "commissioner",
    "commissioners",
    "coach",
    "coach_username",
    "submitted_by",
    "confirmed_by",
    "raised_by",
    "ruled_by",
    "actor",
    "rolled_by",
    "created_by",
}
TEAM_KEYS = {
    "team",
    "teams",
    "home_stadium",
    "champion",
    "superior",
    "underdog",
    "aggressor",
    "winner",
    "loser",
    # A generated schedule's teams (issue 13): the withdrawn ones, a round's byes, a knockout's slots.
    "withdrawn",
    "byes",
    "slots",
}
PLAYER_KEYS = {"player", "mvp"}
MATCH_KEYS = {"match", "match_id"}
#: Objects keyed by team id.
TEAM_KEYED = {"fans", "fame", "team_values", "induced", "terrain", "ledgers"}


def canonical(doc: dict) -> dict:
    """The document with every id replaced by its record's place (team 0, player 0.3, match 5 …), every user by
    "user", the export's own moment and the reports' addresses (which hold ids) dropped."""
    teams = {t["id"]: f"T{i}" for i, t in enumerate(doc["teams"])}
    players = {
        p["id"]: f"P{i}.{key}{j}"
        for i, t in enumerate(doc["teams"])
        for key in ("players", "former_players")
        for j, p in enumerate(t[key])
    }
    matches = {m["id"]: f"M{i}" for i, m in enumerate(doc["matches"])}
    stadiums = {s["id"]: f"S{i}" for i, s in enumerate(doc["league"]["stadiums"])}
    divisions = {d["id"]: f"D{i}" for i, d in enumerate(doc.get("divisions", []))}
    rounds = {r["id"]: f"R{i}.{j}" for i, s in enumerate(doc.get("schedules", [])) for j, r in enumerate(s["rounds"])}

    def ids(value, table):
        if isinstance(value, list):
            return [ids(v, table) for v in value]
        if isinstance(value, dict):
            return walk(value)
        return table.get(value, value) if isinstance(value, int) and not isinstance(value, bool) else value

    def walk(value, keyed=None):
        if isinstance(value, list):
            return [walk(v) for v in value]
        if not isinstance(value, dict):
            return value
        out = {}
        for key, item in value.items():
            if keyed and key.isdigit():
                key = teams.get(int(key), key)
            if key in ("id", "league", "url", "exported_at"):
                continue
            if key in USER_KEYS:
                out[key] = "user" if item else item
            elif key in ("house_rules", "house_rules_overrides"):
                out[key] = item  # the rules' numbers, no ids
            elif isinstance(item, dict):
                out[key] = walk(item, keyed=key in TEAM_KEYED)
            elif key in ("stadium", "home_stadium"):
                out[key] = ids(item, stadiums)
            elif key in TEAM_KEYS:
                out[key] = ids(item, teams)
            elif key in PLAYER_KEYS:
                out[key] = ids(item, players)
            elif key == "division" and not isinstance(item, dict):
                out[key] = ids(item, divisions)
            elif key == "schedule_round":
                out[key] = ids(item, rounds)
            elif key in MATCH_KEYS:
                out[key] = ids(item, matches)
            else:
                out[key] = walk(item, keyed=key in TEAM_KEYED)
        return out

    return walk(doc)


def import_as(client, document: bytes):
    return client.post("/api/v1/leagues/import/", document, content_type="application/json")


def export_bytes(client, league_id: int) -> bytes:
    response = client.get(f"/api/v1/leagues/{league_id}/export/")
    assert response.status_code == 200
    return b"".join(response.streaming_content)


def round_trip(api, api_as, league: League) -> tuple[dict, dict, League]:
    importer_user = UserFactory()
    before = export_bytes(api, league.pk)
    response = import_as(api_as(importer_user), before)
    assert response.status_code == 201, response.json()
    copy = League.objects.get(pk=response.json()["id"])
    assert copy.created_by == importer_user
    assert set(Team.objects.filter(league=copy).values_list("coach", flat=True)) <= {importer_user.pk}
    return json.loads(before), export_doc(api, copy.pk), copy


def assert_same(first: dict, second: dict) -> None:
    """Field by field, section by section, so a failure names the first field that differs."""
    a, b = canonical(first), canonical(second)
    assert list(a) == list(b)
    for section in a:
        left, right = a[section], b[section]
        if isinstance(left, list):
            assert len(left) == len(right), section
            for i, (x, y) in enumerate(zip(left, right, strict=True)):
                if isinstance(x, dict):
                    for key in x:
                        assert x[key] == y.get(key), f"{section}[{i}].{key}"
                    assert list(x) == list(y), f"{section}[{i}]"
                else:
                    assert x == y, f"{section}[{i}]"
        else:
            assert left == right, section
