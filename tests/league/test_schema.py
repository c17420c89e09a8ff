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
