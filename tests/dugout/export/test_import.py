"""api-v1.1 `POST /leagues/import/`: an export document rebuilt as a new league of the caller, so that export →
import → export gives the same document apart from ids, users and people (docs/decisions/, 2026-12-01
"The import"). The leagues with history are the golden seasons of each ruleset, played through the API."""

from __future__ import annotations

import copy
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dugout import importer
from league.models import AuditEntry, League, Season
from matches.models import Aftermath, Match, PlayerMatch, Roll, Schedule, ScheduleRound
from teams.models import LedgerEntry, Player, Team
from tests.dugout.export.roundtrip import assert_same, export_bytes, import_as, round_trip
from tests.dugout.export.test_export_stream import busy_league
from tests.dugout.schedules.helpers import three_schedules
from tests.factories import UserFactory
from tests.matches import test_bonecruncher_season, test_elfball_campaign, test_golden_season, test_prematch_full_match

pytestmark = pytest.mark.django_db


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


# --- A league with every kind of record (disputes, seasons, the audit, the memorial, reports, rolls) ----------


@pytest.fixture
def busy(api_as, commissioner, coach, other_coach):
    """The busy league with a round robin, a knockout and a Swiss in its open season (issue 13)."""
    league = busy_league(api_as, commissioner, [coach, other_coach], teams=6, matches=3)
    three_schedules(league, commissioner)
    return league


def test_a_league_with_disputes_seasons_audit_memorial_reports_and_rolls_survives_the_round_trip(api, api_as, busy):
    first, second, copy = round_trip(api, api_as, busy)
    assert first["seasons"] and first["audit"] and first["rolls"] and first["reports"]
    assert any(m["disputes"] for m in first["matches"]) and first["teams"][0]["former_players"]
    assert_same(first, second)
    assert copy.season == 2 and Season.objects.get(league=copy, number=1).champion.name == "Team 0"
    # The timestamps came back too (the export's order of the audit and the matches rests on them).
    assert [e["at"] for e in second["audit"]] == [e["at"] for e in first["audit"]]
    assert [m["created_at"] for m in second["matches"]] == [m["created_at"] for m in first["matches"]]


def test_the_importer_is_any_signed_in_user_and_not_an_anonymous_one(api, api_as, busy, stranger):
    document = export_bytes(api, busy.pk)
    assert import_as(api, document).status_code == 401
    assert League.objects.count() == 1
    response = import_as(api_as(stranger), document)
    assert response.status_code == 201
    copy = League.objects.get(pk=response.json()["id"])
    assert copy.created_by == stranger and copy.memberships.get().role == "commissioner"


def test_the_import_costs_the_same_queries_for_a_small_or_a_large_league(
    api, api_as, commissioner, coach, other_coach, monkeypatch
):
    """Bulk writes: a fixed number of queries a section (a chunk), never one a row. (Django splits SQLite's bulk
    inserts at 999 parameters, the limit of SQLite before 3.32; this one binds 32,766, so a chunk is one insert
    on SQLite as on PostgreSQL.)"""
    if connection.vendor == "sqlite":
        monkeypatch.setattr(connection.features, "max_query_params", 32766)
    small = busy_league(api_as, commissioner, [coach, other_coach], teams=6, matches=3)
    large = busy_league(api_as, commissioner, [coach, other_coach], teams=12, matches=6)
    for league in (small, large):
        three_schedules(league, commissioner)
    client = api_as(UserFactory())
    counts = []
    for league in (small, large):
        document = export_bytes(api, league.pk)
        with CaptureQueriesContext(connection) as ctx:
            assert import_as(client, document).status_code == 201
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts
    assert Player.objects.filter(team__league=large).count() == 2 * Player.objects.filter(team__league=small).count()


def test_the_import_reads_a_chunk_at_a_time(api, api_as, busy, monkeypatch):
    """Chunks of 1: each record its own bulk insert, the same league."""
    monkeypatch.setattr(importer, "CHUNK", 1)
    first, second, _ = round_trip(api, api_as, busy)
    assert_same(first, second)


# --- Bad documents: 400 naming the first bad path, nothing created ----------------------------------------


def rows() -> dict:
    models = (League, Team, Player, Match, PlayerMatch, LedgerEntry, Roll, Schedule, ScheduleRound)
    return {m.__name__: m.objects.count() for m in models}


def refused(client, document, path: str, status: int = 400) -> str:
    before = rows()
    body = document if isinstance(document, bytes) else json.dumps(document).encode()
    response = import_as(client, body)
    assert response.status_code == status, response.content
    answer = response.json()
    if status == 400:
        assert list(answer) == [path], answer
    assert rows() == before
    return answer[next(iter(answer))]


@pytest.fixture
def document(api, busy) -> dict:
    return json.loads(export_bytes(api, busy.pk))


def test_a_player_of_an_unknown_position_is_refused_at_its_path(api_as, document, stranger):
    document["teams"][3]["players"][0]["position"] = "dragon"
    (message,) = refused(api_as(stranger), document, "teams[3].players[0].position")
    assert "dragon" in message


def test_the_first_bad_path_is_named_when_there_are_several(api_as, document, stranger):
    document["teams"][1]["name"] = 7
    document["matches"][0]["kind"] = "tea party"
    refused(api_as(stranger), document, "teams[1].name")


def test_a_side_of_a_team_the_document_does_not_hold_is_refused(api_as, document, stranger):
    document["matches"][1]["sides"][1]["team"] = 999_999
    refused(api_as(stranger), document, "matches[1].sides[1].team")


def test_a_ledger_whose_balance_does_not_follow_is_refused(api_as, document, stranger):
    team = str(document["teams"][0]["id"])
    document["ledgers"][team][2]["balance_after"] += 1
    refused(api_as(stranger), document, f"ledgers[{team!r}][2].balance_after")


def test_a_treasury_never_goes_below_zero(api_as, document, stranger):
    """The ledger's own rule (teams.models.LedgerEntry: balance_after >= 0), checked before any insert."""
    team = str(document["teams"][0]["id"])
    entries = document["ledgers"][team]
    spend = entries[0]["balance_after"] + 1
    entries[1:] = [dict(entries[0], amount=-spend, balance_after=entries[0]["balance_after"] - spend)]
    refused(api_as(stranger), document, f"ledgers[{team!r}][1].balance_after")


def test_a_second_open_season_is_refused(api_as, document, stranger):
    document["seasons"][0]["status"] = "open"
    refused(api_as(stranger), document, "seasons[1].status")


def test_sections_out_of_their_order_or_unknown_are_refused(api_as, document, stranger):
    client = api_as(stranger)
    reordered = {"league": document["league"], "rolls": [], "teams": document["teams"]}
    refused(client, reordered, "teams")
    refused(client, {"league": document["league"], "fixtures": []}, "fixtures")
    refused(client, {"teams": []}, "teams")  # the league first


def test_what_is_not_json_or_not_an_object_is_refused(api_as, stranger):
    client = api_as(stranger)
    refused(client, b'{"league": {"name": "x",', "league")
    refused(client, b"[1, 2]", "document")
    refused(client, b"", "document")


def test_a_document_past_the_limit_is_413(api_as, document, stranger, settings):
    settings.IMPORT_MAX_BYTES = 1000
    refused(api_as(stranger), document, "", status=413)


#: The checked fields a mutation may hit (a derived one, like a team's value, the import does not read).
CHECKED = {
    "league.name",
    "league.ruleset",
    "league.report_hour",
    "teams[].name",
    "teams[].roster",
    "teams[].division",
    "teams[].fan_factor",
    "teams[].rerolls",
    "teams[].owns_stadium",
    "teams[].in_creation",
    "teams[].players[].id",
    "teams[].players[].name",
    "teams[].players[].number",
    "teams[].players[].position",
    "teams[].players[].status",
    "teams[].players[].attributes",
    "teams[].players[].skills",
    "teams[].players[].value",
    "teams[].players[].spp",
    "teams[].players[].history[].touchdowns",
    "teams[].players[].history[].match_id",
    "teams[].former_players[].left_at",
    # Issue 13: the generated schedules and their rounds.
    "schedules[].season",
    "schedules[].format",
    "schedules[].legs",
    "schedules[].days_per_round",
    "schedules[].start",
    "schedules[].teams",
    "schedules[].withdrawn",
    "schedules[].rounds[].id",
    "schedules[].rounds[].number",
    "schedules[].rounds[].starts",
    "schedules[].rounds[].deadline",
    "schedules[].rounds[].kind",
    "schedules[].rounds[].byes",
    "schedules[].rounds[].slots",
    "matches[].id",
    "matches[].season",
    "matches[].kind",
    "matches[].status",
    "matches[].result",
    "matches[].created_at",
    "matches[].schedule_round",
    "matches[].sides[].team",
    "matches[].sides[].order",
    "matches[].sides[].score",
    "matches[].sides[].outcome",
    "matches[].sides[].league_points",
    "matches[].postmatch[].step_index",
    "matches[].postmatch[].complete",
    "matches[].prematch.fans",
    "matches[].inducements[].item",
    "matches[].inducements[].price",
    "matches[].disputes[].reason",
    "matches[].disputes[].ruling",
    "ledgers[][].amount",
    "ledgers[][].kind",
    "rolls[].key",
    "rolls[].values",
    "rolls[].entered",
    "reports[].week",
    "reports[].week_start",
    "seasons[].number",
    "seasons[].started_at",
    "audit[].action",
    "audit[].reason",
}


def leaves(value, path="", pattern=""):
    """(path as the importer names it, its pattern without indices, container, key) of every checked value."""
    if isinstance(value, dict):
        for key, item in value.items():
            if pattern == "ledgers":
                here, like = f"{path}[{key!r}]", f"{pattern}[]"
            else:
                here, like = (f"{path}.{key}", f"{pattern}.{key}") if path else (key, key)
            if like in CHECKED:
                yield here, like, value, key
            yield from leaves(item, here, like)
    elif isinstance(value, list) and not pattern.endswith(("attributes", "skills", "values", "result")):
        for i, item in enumerate(value):
            here, like = f"{path}[{i}]", f"{pattern}[]"
            yield from leaves(item, here, like)


def broken(value):
    """A value of the wrong kind for whatever `value` is."""
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return 12
    return "not an object or a list"


def test_the_mutations_reach_every_checked_field(document):
    """The document holds every checked field (a typo in CHECKED would leave a field unmutated)."""
    found = {pattern for _, pattern, _, _ in leaves(document)}
    assert found == CHECKED, sorted(CHECKED ^ found)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_document_with_one_value_of_the_wrong_kind_is_refused_at_its_path(api_as, document, stranger, data):
    """Hypothesis picks a checked value anywhere in the document and gives it the wrong kind: 400 naming
    exactly its path, and nothing created."""
    mutated = copy.deepcopy(document)
    targets = sorted(leaves(mutated), key=lambda t: t[0])
    path, _, container, key = data.draw(st.sampled_from(targets))
    container[key] = broken(container[key])
    refused(api_as(stranger), mutated, path)


def test_the_imported_league_plays_on_its_table_and_its_unfinished_sequences_resume(api, api_as, busy):
    """Not a copy for reading only: the table is the original's, and a post-match sequence left unfinished
    takes its next step for the importer (now every team's coach)."""
    _, _, copy = round_trip(api, api_as, busy)
    table = lambda league: [  # noqa: E731
        {k: v for k, v in row.items() if k != "team"}
        for row in api.get(f"/api/v1/leagues/{league.pk}/standings/").json()["rows"]
    ]
    assert table(copy) == table(busy) and table(copy)
    waiting = Aftermath.objects.filter(match__league=copy, complete=False).order_by("id").first()
    assert waiting is not None
    step = copy.rules.postmatch_steps[waiting.step_index].key
    response = api_as(copy.created_by).post(
        f"/api/v1/matches/{waiting.match_id}/aftermath/{waiting.team_id}/", {"step": step}, format="json"
    )
    assert response.status_code == 200, response.json()


def test_a_body_past_the_general_limit_is_the_importers_and_nesting_is_bounded_there_too(api_as, stranger, settings):
    """Past the API's general body limit the input guard leaves the import its body (read as a stream); the
    importer refuses nesting past the API's depth as every door does."""
    from core.api.parsers import MAX_JSON_DEPTH

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    deep = b'{"league": ' + b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1) + b"}"
    before = rows()
    response = import_as(api_as(stranger), deep)
    assert response.status_code == 400 and "deeper" in response.json()["detail"]
    assert rows() == before
