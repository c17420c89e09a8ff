"""Tokens that end (api-v1.1 "Auth additions"): log-out revokes a token, tokens expire after TOKEN_TTL, and a
password change, by whichever door, ends every token of the user."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth.forms import AdminPasswordChangeForm
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework.test import APIClient

from tests.assertions import assert_refused
from tests.factories import PASSWORD, new_token_for

TOKEN, LOGOUT, LOGOUT_ALL = "/api/v1/auth/token/", "/api/v1/auth/logout/", "/api/v1/auth/logout-all/"
NEW_PASSWORD = "A-brand-new-pass-2026"

pytestmark = pytest.mark.django_db


def client_with(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def authenticates(token: str) -> bool:
    """Whether a write with this token gets past authentication (a league create: 201, or 401)."""
    response = client_with(token).post("/api/v1/leagues/", {"name": f"Cup {token[:6]}", "ruleset": "blitzbowl"})
    assert response.status_code in (201, 401), response.content
    return response.status_code == 201


def log_in(api) -> dict:
    response = api.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


# --- log-out ------------------------------------------------------------------------------------------------


def test_logout_answers_204_and_that_token_no_longer_authenticates(api, coach):
    token, other = log_in(api)["token"], log_in(api)["token"]

    response = client_with(token).post(LOGOUT)

    assert response.status_code == 204, response.content
    assert_refused(client_with(token).post("/api/v1/leagues/", {"name": "Nope", "ruleset": "blitzbowl"}), 401)
    assert authenticates(other)


def test_logout_all_ends_every_token_of_the_user_only(api, coach, other_coach):
    first, second = new_token_for(coach), new_token_for(coach)
    bobs = new_token_for(other_coach)

    assert client_with(first).post(LOGOUT_ALL).status_code == 204

    assert not authenticates(first)
    assert not authenticates(second)
    assert authenticates(bobs)


@pytest.mark.parametrize("path", [LOGOUT, LOGOUT_ALL])
def test_logout_without_a_token_is_401(api, path):
    assert_refused(api.post(path), 401)


def test_logout_twice_with_the_same_token_is_401_the_second_time(coach):
    client = client_with(new_token_for(coach))
    assert client.post(LOGOUT).status_code == 204

    assert_refused(client.post(LOGOUT), 401)


def test_a_token_that_is_not_text_is_401_not_a_server_error(api):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token \u00e9\u00e9\u00e9")

    assert_refused(client.post("/api/v1/leagues/", {"name": "Nope", "ruleset": "blitzbowl"}), 401)


# --- expiry -------------------------------------------------------------------------------------------------


def test_a_token_expires_after_the_token_ttl(api, coach, settings):
    issued = timezone.now()
    body = log_in(api)

    assert parse_datetime(body["expiry"]) - issued == pytest.approx(settings.TOKEN_TTL, abs=timedelta(seconds=5))
    with mock.patch("django.utils.timezone.now", return_value=issued + settings.TOKEN_TTL - timedelta(minutes=1)):
        assert authenticates(body["token"])
    with mock.patch("django.utils.timezone.now", return_value=issued + settings.TOKEN_TTL + timedelta(minutes=1)):
        assert not authenticates(body["token"])


def test_the_default_token_ttl_is_thirty_days(settings):
    assert timedelta(days=30) == settings.TOKEN_TTL
    assert settings.REST_KNOX["TOKEN_TTL"] == settings.TOKEN_TTL


def test_using_a_token_does_not_extend_it(api, coach, settings):
    issued = timezone.now()
    token = log_in(api)["token"]
    with mock.patch("django.utils.timezone.now", return_value=issued + settings.TOKEN_TTL - timedelta(hours=1)):
        assert authenticates(token)

    with mock.patch("django.utils.timezone.now", return_value=issued + settings.TOKEN_TTL + timedelta(hours=1)):
        assert not authenticates(token)


# --- a password change ends every token ----------------------------------------------------------------------


def test_set_password_and_save_ends_every_token_of_the_user(coach, other_coach):
    tokens, bobs = [new_token_for(coach), new_token_for(coach)], new_token_for(other_coach)

    coach.set_password(NEW_PASSWORD)
    coach.save()

    assert not any(authenticates(token) for token in tokens)
    assert authenticates(bobs)


def test_a_password_set_in_the_admin_ends_every_token_of_the_user(coach):
    token = new_token_for(coach)
    form = AdminPasswordChangeForm(coach, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert form.is_valid(), form.errors

    form.save()

    assert not authenticates(token)


def test_saving_the_user_without_a_new_password_keeps_the_tokens(coach):
    token = new_token_for(coach)

    coach.email = "alice@elsewhere.example"
    coach.save()

    assert authenticates(token)


def test_a_token_issued_after_the_password_change_works(api, coach):
    coach.set_password(NEW_PASSWORD)
    coach.save()

    response = api.post(TOKEN, {"username": "alice", "password": NEW_PASSWORD}, format="json")

    assert response.status_code == 200, response.content
    assert authenticates(response.json()["token"])


# --- the schema ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "statuses"),
    [
        (TOKEN, {"200", "400", "429"}),
        ("/api/v1/auth/register/", {"201", "400", "403", "429"}),
        ("/api/v1/auth/password-reset/", {"202", "400"}),
        ("/api/v1/auth/password-reset/confirm/", {"204", "400"}),
        (LOGOUT, {"204", "401"}),
        (LOGOUT_ALL, {"204", "401"}),
    ],
)
def test_the_schema_documents_every_status_of_the_auth_endpoints(api, path, statuses):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    documented = set(schema["paths"][path]["post"]["responses"])
    # Every write also carries what the shared layers answer: 400 for a body past the bounds, the Idempotency-Key
    # middleware's 409 and 422, a body write's 415, and a session write's 403 without its CSRF token.
    assert statuses <= documented
    assert documented - statuses <= {"400", "403", "409", "415", "422"}


def test_the_schema_gives_the_429_its_detail_shape(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    ref = schema["paths"][TOKEN]["post"]["responses"]["429"]["content"]["application/json"]["schema"]["$ref"]
    component = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert ref == "#/components/schemas/Error"
    assert component["properties"]["detail"] == {"type": "string"}
