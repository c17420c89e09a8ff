"""The OpenAPI 3 schema and the interactive docs (api-v1: "The OpenAPI 3 schema is served at `/api/schema/` and
must describe every endpoint (interactive docs at `/api/docs/`)")."""

from __future__ import annotations

import json
import re

import pytest
from drf_spectacular.validation import validate_schema

# Every contract path of the auth, rulesets, leagues and teams scope, with its methods.
CONTRACT = [
    ("/api/v1/auth/register/", "post"),
    ("/api/v1/auth/token/", "post"),
    ("/api/v1/auth/password-reset/", "post"),
    ("/api/v1/auth/password-reset/confirm/", "post"),
    ("/api/v1/rulesets/", "get"),
    ("/api/v1/rulesets/{key}/rosters/", "get"),
    ("/api/v1/rulesets/{key}/house-rules/", "get"),
    ("/api/v1/leagues/", "post"),
    ("/api/v1/leagues/{id}/", "get"),
    ("/api/v1/leagues/{id}/", "patch"),
    ("/api/v1/leagues/{id}/members/", "post"),
    ("/api/v1/leagues/{id}/join/", "post"),
    ("/api/v1/leagues/{id}/stadiums/", "post"),
    ("/api/v1/teams/", "post"),
    ("/api/v1/teams/{id}/", "get"),
    ("/api/v1/teams/{id}/players/", "post"),
    ("/api/v1/teams/{id}/players/{player_id}/", "patch"),
    ("/api/v1/teams/{id}/players/{player_id}/", "delete"),
    ("/api/v1/teams/{id}/purchases/", "post"),
    ("/api/v1/teams/{id}/ready/", "post"),
    ("/api/v1/teams/{id}/ledger/", "get"),
]
CREATED = [
    ("/api/v1/auth/register/", "post"),
    ("/api/v1/leagues/", "post"),
    ("/api/v1/leagues/{id}/members/", "post"),
    ("/api/v1/teams/", "post"),
    ("/api/v1/teams/{id}/players/", "post"),
    ("/api/v1/teams/{id}/purchases/", "post"),
]


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200, response.content
    return json.loads(response.content)


def test_the_schema_is_served_as_openapi_3(api, db):
    response = api.get("/api/schema/")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi")
    assert response.content.startswith(b"openapi: 3.")


def test_the_schema_is_a_valid_openapi_3_document(schema):
    assert schema["openapi"].startswith("3.")
    validate_schema(schema)


@pytest.mark.parametrize(("path", "method"), CONTRACT, ids=[f"{m.upper()} {p}" for p, m in CONTRACT])
def test_the_schema_lists_every_contract_endpoint(schema, path, method):
    assert path in schema["paths"], sorted(schema["paths"])
    assert method in schema["paths"][path], sorted(schema["paths"][path])


@pytest.mark.parametrize(("path", "method"), CREATED, ids=[f"{m.upper()} {p}" for p, m in CREATED])
def test_the_schema_documents_201_for_creating_writes(schema, path, method):
    """api-v1: these writes answer 201."""
    assert "201" in schema["paths"][path][method]["responses"]


def test_the_schema_documents_token_authentication(schema):
    """api-v1: requests authenticate with `Authorization: Token <token>`."""
    schemes = schema["components"]["securitySchemes"].values()
    assert any(s.get("type") == "apiKey" and s.get("name") == "Authorization" for s in schemes), schemes


def test_the_docs_render_without_any_cdn(api, db):
    """Swagger UI is served from our own static files (drf-spectacular-sidecar), never a CDN."""
    response = api.get("/api/docs/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "cdn.jsdelivr" not in html
    assert "unpkg" not in html
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    # Under the CSP the init script is a file of its own (SpectacularSwaggerSplitView): the page's ?script.
    init = [a for a in assets if a.startswith("/api/docs/?")]
    assert init == ["/api/docs/?script="], assets
    assert "/api/schema/" in api.get(init[0]).content.decode()
    assert all(a.startswith("/static/") for a in assets if a not in init), assets


def test_the_docs_assets_are_served_locally(api, db):
    """The page works offline: every script, style and icon it references is served by Dugout itself."""
    html = api.get("/api/docs/").content.decode()

    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', html):
        response = api.get(asset)
        assert response.status_code == 200, asset
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert body, asset


# The lists that answer a plain array (api-v1 gives their shape, or they were always arrays): the schema must
# not promise `count`/`results` for them (issue 10, "the schema lies in six places").
PLAIN_LISTS = [
    "/api/v1/leagues/{id}/members/",
    "/api/v1/leagues/{id}/reports/",
    "/api/v1/leagues/{id}/stadiums/",
    "/api/v1/matches/{id}/rolls/",
    "/api/v1/matches/{id}/inducements/{team_id}/",
    "/api/v1/teams/{id}/ledger/",
]
PAGED_LISTS = ["/api/v1/leagues/", "/api/v1/teams/", "/api/v1/matches/", "/api/v1/transfers/"]


def _ok_schema(schema: dict, path: str) -> dict:
    content = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    if "$ref" in content:
        return schema["components"]["schemas"][content["$ref"].rsplit("/", 1)[1]]
    return content


@pytest.mark.parametrize("path", PLAIN_LISTS)
def test_the_plain_lists_are_documented_as_arrays_not_pages(schema, path):
    assert _ok_schema(schema, path)["type"] == "array"


@pytest.mark.parametrize("path", PLAIN_LISTS)
def test_the_plain_lists_answer_what_the_schema_says(api_as, path, schema, team, other_team, coach):
    """The answer is an array, as documented (not a page)."""
    from matches.services import match_schedule

    match = match_schedule(user=team.league.created_by, league=team.league, team_ids=[team.pk, other_team.pk])
    ids = {"leagues": team.league_id, "teams": team.pk, "matches": match.pk}
    url = path.replace("{id}", str(ids[path.split("/")[3]])).replace("{team_id}", str(team.pk))

    response = api_as(coach).get(url)

    assert response.status_code == 200, response.content
    assert isinstance(response.json(), list)


@pytest.mark.parametrize("path", PAGED_LISTS)
def test_the_paginated_lists_stay_documented_as_pages(schema, path):
    assert set(_ok_schema(schema, path)["properties"]) >= {"count", "next", "previous", "results"}


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_every_operation_documents_400_in_the_error_shape(schema):
    missing = [f"{m} {p}" for p, m, op in _operations(schema) if "400" not in op["responses"]]
    assert not missing
    assert schema["components"]["schemas"]["Error"]["properties"]["detail"]["type"] == "string"


def test_every_operation_with_a_path_id_documents_404(schema):
    missing = [f"{m} {p}" for p, m, op in _operations(schema) if "{" in p and "404" not in op["responses"]]
    assert not missing


def test_every_write_documents_who_may_not_and_conflicts(schema):
    writes = [(p, m, op) for p, m, op in _operations(schema) if m in ("post", "patch", "put", "delete")]
    missing = [f"{m} {p}" for p, m, op in writes if not {"403", "409"} <= set(op["responses"])]
    # The log-in, the password reset and Discord's interactions (signed by Discord, no session) are the open doors:
    # no permission to refuse and no session, so no CSRF 403 either.
    open_doors = [
        "/api/v1/auth/password-reset/",
        "/api/v1/auth/password-reset/confirm/",
        "/api/v1/auth/token/",
        "/api/v1/integrations/discord/{league_id}/interactions/",
    ]
    assert writes and sorted(missing) == sorted(f"post {path}" for path in open_doors)
    assert all("409" in schema["paths"][path]["post"]["responses"] for path in open_doors)


def test_every_authenticated_write_documents_401(schema):
    writes = [(p, m, op) for p, m, op in _operations(schema) if m != "get" and not p.startswith("/api/v1/auth/")]
    assert all("401" in op["responses"] for _, _, op in writes)


def test_the_throttled_log_in_documents_429(schema):
    assert "429" in schema["paths"]["/api/v1/auth/token/"]["post"]["responses"]


def test_the_throttled_sign_up_documents_429(schema):
    assert "429" in schema["paths"]["/api/v1/auth/register/"]["post"]["responses"]


def test_every_error_response_has_the_error_shape(schema):
    for path, method, op in _operations(schema):
        for code, response in op["responses"].items():
            if code >= "400":
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/Error"), (method, path, code)


def test_a_get_documents_no_creation_and_a_post_no_listing(schema):
    """Shared GET/POST actions: each method documents only its own answers."""
    for path in ("/api/v1/leagues/{id}/members/", "/api/v1/leagues/{id}/stadiums/"):
        assert "201" not in schema["paths"][path]["get"]["responses"]
        assert "200" not in schema["paths"][path]["post"]["responses"]


def test_list_filters_are_not_documented_on_plain_actions(schema):
    names = {p["name"] for p in schema["paths"]["/api/v1/matches/{id}/rolls/"]["get"].get("parameters", [])}
    assert "league" not in names and "page" not in names


def _nulls_undocumented(schema: dict, node: dict, value, path: str = "") -> list[str]:
    """The paths in `value` that are null where `node` (a schema object, `$ref`s followed) does not say nullable:
    what a strict generated client refuses."""
    while "$ref" in node or ("allOf" in node and len(node["allOf"]) == 1):
        nullable = node.get("nullable", False)
        node = node["allOf"][0] if "allOf" in node else node
        if "$ref" in node:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
        node = {**node, "nullable": nullable or node.get("nullable", False)}
    if value is None:
        return [] if node.get("nullable") else [path or "(root)"]
    if isinstance(value, dict):
        properties = node.get("properties", {})
        return [
            found
            for key, item in value.items()
            if key in properties
            for found in _nulls_undocumented(schema, properties[key], item, f"{path}.{key}")
        ]
    if isinstance(value, list) and "items" in node:
        return [
            found
            for i, item in enumerate(value)
            for found in _nulls_undocumented(schema, node["items"], item, f"{path}[{i}]")
        ]
    return []


def test_a_team_without_coach_answers_what_the_schema_says(api, schema, team):
    """A team whose coach was removed has `coach` and `coach_username` null: the schema says both may be, so a
    strict generated client reads the team list (not only the team) rather than failing on the whole of it."""
    from teams.models import Team

    Team.objects.filter(pk=team.pk).update(coach=None)
    listed = api.get("/api/v1/teams/", {"league": team.league_id})
    one = api.get(f"/api/v1/teams/{team.pk}/")

    assert listed.status_code == one.status_code == 200
    assert one.json()["coach_username"] is None and one.json()["coach"] is None
    for answer, path in ((listed, "/api/v1/teams/"), (one, "/api/v1/teams/{id}/")):
        documented = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert _nulls_undocumented(schema, documented, answer.json()) == []
