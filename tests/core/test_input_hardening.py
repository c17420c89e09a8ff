"""Never a 500 for input (issue 10): bodies bounded before parsing, path ids validated, control characters
refused, and whatever still cannot be read answered 400 in the API's error shape.

The write endpoints and the path-id operations are taken from the served schema, so a new endpoint is covered
without touching this file."""

from __future__ import annotations

import json
import re

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from drf_spectacular.generators import SchemaGenerator

from core.input_guard import InputGuardMiddleware
from league.models import Division, Membership, Webhook
from matches.services import match_schedule
from teams.models import Transfer
from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire

DEEP = "[" * 5000 + "]" * 5000


def _operations() -> list[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (path, method.upper())
        for path, item in sorted(schema["paths"].items())
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    ]


OPERATIONS = _operations()
WRITES = [(p, m) for p, m in OPERATIONS if m in ("POST", "PUT", "PATCH")]
WITH_IDS = [(p, m) for p, m in OPERATIONS if re.search(r"\{(id|\w+_id)\}", p)]


@pytest.fixture
def world(db):
    """One user who is the commissioner of a league and the coach of a team in it, so every write reaches its
    body; another coach's team, a scheduled match between them, a player and a proposed transfer."""
    boss = UserFactory(username="boss")
    league = LeagueFactory(created_by=boss, ruleset="blitzbowl")
    team = TeamFactory(league=league, coach=boss, roster="hume")
    other = TeamFactory(league=league, coach=UserFactory(username="rival"), roster="goblin")
    player = hire(team, "lineman", name="Kicker")
    match = match_schedule(user=boss, league=league, team_ids=[team.pk, other.pk])
    transfer = Transfer.objects.create(player=player, from_team=team, to_team=other, proposed_by=boss)
    Membership.objects.get_or_create(league=league, user=boss, role=Membership.Role.COMMISSIONER)
    ids = {"leagues": league.pk, "teams": team.pk, "matches": match.pk, "transfers": transfer.pk}
    division = Division.objects.create(league=league, name="North")  # issue 13, Divisions
    hook = Webhook.objects.create(league=league, url="https://93.184.216.34/h", kind="json", events=[])  # issue 14
    return {"user": boss, "ids": ids, "team": team.pk, "player": player.pk, "division": division.pk, "hook": hook.pk}


def _url(path: str, world: dict, *, id_value=None) -> str:
    resource = path.split("/")[3]
    values = {
        "id": world["ids"].get(resource, 1),
        "team_id": world["team"],
        "league_id": world["ids"]["leagues"],
        "division_id": world["division"],
        "hook_id": world["hook"],
        "player_id": world["player"],
        "inducement_id": 1,
        "request_id": 1,
        "user_id": 1,
        "proposal_id": 1,
        "link_id": 1,
        "key": "blitzbowl",
    }
    return re.sub(r"\{(\w+)\}", lambda m: str(id_value if id_value is not None else values[m.group(1)]), path)


def _error_shape(response) -> dict:
    assert response["Content-Type"].startswith("application/json"), (response.status_code, response.content[:200])
    body = json.loads(response.content)
    assert isinstance(body, dict) and body, body
    return body


@pytest.mark.parametrize(("path", "method"), WRITES, ids=[f"{m} {p}" for p, m in WRITES])
def test_a_deeply_nested_json_body_is_a_400_on_every_write_endpoint(api_as, world, path, method):
    client = api_as(world["user"])

    response = client.generic(method, _url(path, world), DEEP, content_type="application/json")

    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert "deeper" in _error_shape(response)["detail"]


def test_a_deeply_nested_body_is_a_400_for_anonymous_registration(api, db):
    response = api.generic("POST", "/api/v1/auth/register/", DEEP, content_type="application/json")

    assert response.status_code == 400
    assert "detail" in _error_shape(response)


def test_json_nested_to_the_limit_is_read_and_one_level_more_is_refused(api_as, world):
    from core.api.parsers import MAX_JSON_DEPTH

    client = api_as(world["user"])
    url = f"/api/v1/leagues/{world['ids']['leagues']}/"
    at_limit = {"name": "Deep Cup", "x": json.loads("[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1))}

    assert client.patch(url, at_limit, format="json").status_code == 200
    too_deep = json.dumps({"name": "Deeper Cup", "x": json.loads("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)})
    response = client.generic("PATCH", url, too_deep, content_type="application/json")
    assert response.status_code == 400


def test_brackets_inside_strings_do_not_count_as_nesting(api_as, world):
    client = api_as(world["user"])
    name = '[[[[{{{{"\\' * 10

    response = client.patch(f"/api/v1/leagues/{world['ids']['leagues']}/", {"name": name[:60]}, format="json")

    assert response.status_code == 200, response.content


def test_a_body_over_the_size_limit_is_a_400_before_it_is_read(api, db, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"username": "big", "password": "x" * 2000})

    response = api.generic("POST", "/api/v1/auth/register/", body, content_type="application/json")

    assert response.status_code == 400
    assert "larger" in _error_shape(response)["detail"]


def test_a_form_body_with_too_many_fields_is_a_json_400(api, db, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    body = "&".join(f"f{i}=x" for i in range(50))

    response = api.generic("POST", "/api/v1/auth/register/", body, content_type="application/x-www-form-urlencoded")

    assert response.status_code == 400
    assert "detail" in _error_shape(response)


def test_a_multipart_body_with_too_many_fields_is_a_json_400(api, db, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10

    response = api.post("/api/v1/auth/register/", {f"f{i}": "x" for i in range(50)}, format="multipart")

    assert response.status_code == 400
    assert "detail" in _error_shape(response)


def test_a_web_form_with_too_many_fields_is_a_plain_400(client, db, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10

    response = client.post("/signup/", {f"f{i}": "x" for i in range(50)})

    assert response.status_code == 400


@pytest.mark.parametrize("bad_id", ["abc", "-1", "٣", "99999999999999999999999"])
@pytest.mark.parametrize(("path", "method"), WITH_IDS, ids=[f"{m} {p}" for p, m in WITH_IDS])
def test_a_path_id_that_is_not_an_integer_row_id_is_a_json_404(api_as, world, path, method, bad_id):
    client = api_as(world["user"])

    response = client.generic(method, _url(path, world, id_value=bad_id), "{}", content_type="application/json")

    assert response.status_code == 404, (response.status_code, response.content[:200])
    assert "detail" in _error_shape(response)


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/leagues/abc/standings/",
        "/api/v1/leagues/abc/export/",
        "/api/v1/matches/abc/rolls/",
        "/api/v1/teams/abc/ledger/",
        "/api/v1/no-such-thing/",
    ],
)
def test_the_issues_non_integer_ids_are_json_404s(api, db, url):
    response = api.get(url)

    assert response.status_code == 404
    assert _error_shape(response) == {"detail": "Not found."}


def test_an_unknown_method_under_the_api_keeps_its_allow_header(api_as, world):
    response = api_as(world["user"]).put(f"/api/v1/teams/{world['team']}/ready/")

    assert response.status_code == 405
    assert "POST" in response["Allow"]
    assert "detail" in _error_shape(response)


@pytest.mark.parametrize("url", ["/leagues/1/reports/%00/", "/leagues/1/reports/a%01b/", "/teams/1/?x=%00", "/?q=%1b"])
def test_a_control_character_in_a_page_address_is_a_plain_400(client, db, url):
    response = client.get(url)

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")


@pytest.mark.parametrize(
    "url", ["/api/v1/rulesets/%00/rosters/", "/api/v1/leagues/?ruleset=%00", "/api/v1/teams/?league=1%00"]
)
def test_a_control_character_in_an_api_address_is_a_json_400(api, db, url):
    response = api.get(url)

    assert response.status_code == 400
    assert "control" in _error_shape(response)["detail"]


@pytest.mark.parametrize("text", ["Bell\u0007Cup", "Nul\u0000Cup", "Esc\u001bCup", "Del\u007fCup"])
def test_a_control_character_in_a_json_string_is_a_400(api_as, world, text):
    response = api_as(world["user"]).post("/api/v1/leagues/", {"name": text, "ruleset": "blitzbowl"}, format="json")

    assert response.status_code == 400
    assert "control" in _error_shape(response)["detail"]


def test_a_nul_in_a_key_the_serializer_ignores_is_refused_before_it_can_reach_the_database(api_as, world):
    """PostgreSQL refuses NUL in text and jsonb: a body is checked whole, not only the fields a serializer reads."""
    body = {"name": "Quiet Cup", "ruleset": "blitzbowl", "extra\u0000": {"deep": ["also\u0000"]}}

    response = api_as(world["user"]).post("/api/v1/leagues/", body, format="json")

    assert response.status_code == 400


def test_tabs_and_line_breaks_in_text_are_still_accepted(api_as, world):
    response = api_as(world["user"]).post(
        "/api/v1/leagues/", {"name": "Tab\tCup", "ruleset": "blitzbowl"}, format="json"
    )

    assert response.status_code == 201, response.content


def test_a_control_character_in_a_form_encoded_api_body_is_a_400(api_as, world):
    response = api_as(world["user"]).post(
        "/api/v1/leagues/", "name=Bell%07Cup&ruleset=blitzbowl", content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 400


def test_nan_is_not_json(api_as, world):
    response = api_as(world["user"]).generic(
        "POST", "/api/v1/leagues/", '{"name": NaN, "ruleset": "blitzbowl"}', content_type="application/json"
    )

    assert response.status_code == 400


FK_FILTERS = [
    ("/api/v1/matches/", "league"),
    ("/api/v1/teams/", "league"),
    ("/api/v1/teams/", "coach"),
    ("/api/v1/transfers/", "from_team"),
    ("/api/v1/transfers/", "to_team"),
    ("/api/v1/transfers/", "from_team__league"),
]


@pytest.mark.parametrize("value", ["0", "-5", "999999", str(10**30)])
@pytest.mark.parametrize(("url", "name"), FK_FILTERS, ids=[f"{u}?{n}" for u, n in FK_FILTERS])
def test_an_id_filter_that_matches_nothing_is_an_empty_page(api, world, url, name, value):
    response = api.get(url, {name: value})

    assert response.status_code == 200, response.content
    assert response.json()["count"] == 0


@pytest.mark.parametrize(("url", "name"), FK_FILTERS, ids=[f"{u}?{n}" for u, n in FK_FILTERS])
def test_an_id_filter_still_filters(api, world, url, name):
    matching = {"league": world["ids"]["leagues"], "coach": world["user"].pk, "from_team": world["team"]}
    value = matching.get(name, matching["league"] if name.endswith("league") else world["team"])
    if name == "to_team":
        value = Transfer.objects.get().to_team_id

    response = api.get(url, {name: value})

    assert response.status_code == 200
    assert response.json()["count"] >= 1


def test_an_id_filter_that_is_not_an_integer_is_a_400(api, db):
    response = api.get("/api/v1/matches/", {"league": "abc"})

    assert response.status_code == 400
    assert "league" in _error_shape(response)


@pytest.mark.parametrize(
    "exception",
    [RecursionError("deep"), UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad")],
    ids=["RecursionError", "UnicodeDecodeError"],
)
@pytest.mark.parametrize(("path", "json_answer"), [("/api/v1/leagues/", True), ("/leagues/new/", False)])
def test_a_parse_error_escaping_a_view_is_a_400_in_the_doors_shape(exception, path, json_answer):
    request = RequestFactory().post(path, "x", content_type="text/plain")
    middleware = InputGuardMiddleware(lambda request: HttpResponse())

    response = middleware.process_exception(request, exception)

    assert response is not None and response.status_code == 400
    assert response["Content-Type"].startswith("application/json") is json_answer


def test_an_ordinary_error_escaping_a_view_is_not_hidden_as_a_400():
    request = RequestFactory().get("/api/v1/leagues/")

    assert InputGuardMiddleware(lambda request: HttpResponse()).process_exception(request, KeyError("bug")) is None


@pytest.mark.parametrize(
    ("url", "name"), [*FK_FILTERS, ("/api/v1/leagues/", "ruleset"), ("/api/v1/matches/", "status")]
)
def test_an_empty_filter_is_a_400_not_every_row(api, world, url, name):
    """The schema promises an integer or an enum value; `?league=` used to answer the unfiltered list."""
    response = api.get(f"{url}?{name}=")

    assert response.status_code == 400
    assert name in _error_shape(response)


@pytest.mark.parametrize("page", ["", "abc", "0", "-1", "1.5", "١"])
def test_a_page_that_is_not_a_whole_number_from_one_is_a_400_naming_it(db, api, page):
    """The schema documents `page` as an integer: an empty or non-numeric page is refused, not read as page 1
    (schemathesis: `?page=` was answered 200)."""
    response = api.get("/api/v1/leagues/", {"page": page})

    assert response.status_code == 400, response.content
    assert "page" in response.json()


def test_a_page_past_the_last_is_still_a_404_and_page_one_and_last_answer(db, api):
    assert api.get("/api/v1/leagues/", {"page": "2"}).status_code == 404
    assert api.get("/api/v1/leagues/", {"page": "1"}).status_code == 200
    assert api.get("/api/v1/leagues/", {"page": "last"}).status_code == 200
