"""api-v1.1 `POST /leagues/import/`: an export document rebuilt as a new league of the caller, so that export →
import → export gives the same document apart from ids, users and people (docs/decisions.md, 2026-12-01
"The import"). The leagues with history are the golden seasons of each ruleset, played through the API."""

from __future__ import annotations

import json

import pytest

from league.models import AuditEntry, League, Season
from matches.models import Aftermath, Match, PlayerMatch, Roll
from teams.models import LedgerEntry, Player, Team
from tests.factories import UserFactory
from tests.league.test_export import export_doc
from tests.matches import test_bonecruncher_season, test_elfball_campaign, test_golden_season, test_prematch_full_match

pytestmark = pytest.mark.django_db

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
}
TEAM_KEYS = {"team", "teams", "home_stadium", "champion", "superior", "underdog", "aggressor", "winner", "loser"}
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


GOLDEN = {
    "blitzbowl season (post-match sequences, ledger)": (
        test_golden_season.test_a_four_team_season_of_two_rounds_lands_on_hand_worked_numbers
    ),
    "blitzbowl match (pre-match, inducements)": (
        test_prematch_full_match.test_a_blitz_bowl_match_from_weather_to_standings_lands_on_hand_worked_numbers
    ),
    "elfball season": test_elfball_campaign.test_an_elfball_season_of_three_rounds_lands_on_hand_worked_numbers,
    "bonecruncher season": (
        test_bonecruncher_season.test_a_three_team_bone_cruncher_season_lands_on_hand_worked_numbers
    ),
}


@pytest.mark.parametrize("golden", list(GOLDEN), ids=list(GOLDEN))
def test_export_import_export_is_the_same_document_apart_from_ids_and_users(api, api_as, golden):
    GOLDEN[golden]()
    (league,) = League.objects.all()
    first, second, copy = round_trip(api, api_as, league)
    assert first["matches"] and first["ledgers"] and first["teams"]
    assert_same(first, second)
    # The rows behind the document came back, not just its text.
    for model, lookup in (
        (Match, "league"),
        (PlayerMatch, "match__league"),
        (Aftermath, "match__league"),
        (LedgerEntry, "team__league"),
        (Roll, "league"),
        (Player, "team__league"),
        (Season, "league"),
        (AuditEntry, "league"),
    ):
        assert model.objects.filter(**{lookup: copy}).count() == model.objects.filter(**{lookup: league}).count()
    assert copy.season == league.season
