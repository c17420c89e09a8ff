"""API v1 "Auth": registration, tokens and the failed-login throttle (../shared/docs/api-v1.md)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from rest_framework.test import APIClient

from league.models import League
from tests.assertions import assert_refused
from tests.factories import PASSWORD

REGISTER = "/api/v1/auth/register/"
TOKEN = "/api/v1/auth/token/"
GOOD_PASSWORD = "Kick-off-at-dawn-42"

pytestmark = pytest.mark.django_db


def failure_limit() -> int:
    """Failed logins allowed for one account from one address (settings LOGIN_THROTTLE, default 5)."""
    return settings.LOGIN_THROTTLE["pair_failures"]


def token_user(token: str):
    """The user a token authenticates as, or None (the token's first characters find its row)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    row = AuthToken.objects.filter(token_key=token[:15]).first()
    response = client.post("/api/v1/auth/logout/")
    return row.user if row and response.status_code == 204 else None


# --- register ----------------------------------------------------------------------------------


def test_register_creates_the_user_and_answers_201_with_id_username_and_token(api):
    """api-v1: `{username, password, email?}` → 201 `{id, username, token}`."""
    response = api.post(REGISTER, {"username": "carol", "password": GOOD_PASSWORD}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    user = get_user_model().objects.get(username="carol")
    assert body["id"] == user.pk
    assert body["username"] == "carol"
    assert token_user(body["token"]) == user
    assert "password" not in body
    assert user.check_password(GOOD_PASSWORD)


def test_register_accepts_an_optional_email(api):
    response = api.post(
        REGISTER, {"username": "dora", "password": GOOD_PASSWORD, "email": "dora@example.com"}, format="json"
    )

    assert response.status_code == 201, response.content
    assert get_user_model().objects.get(username="dora").email == "dora@example.com"


def test_the_registration_token_authenticates_writes(api):
    """api-v1: requests authenticate with `Authorization: Token <token>`; every write needs it."""
    token = api.post(REGISTER, {"username": "erin", "password": GOOD_PASSWORD}, format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    response = client.post("/api/v1/leagues/", {"name": "Erin's Cup", "ruleset": "blitzbowl"}, format="json")

    assert response.status_code == 201, response.content
    assert response.json()["commissioner"] == get_user_model().objects.get(username="erin").pk


@pytest.mark.parametrize("username", ["alice", "ALICE"])
def test_register_refuses_a_taken_username_naming_username(api, coach, username):
    """A username is taken whatever its case ("alice" exists)."""
    before = get_user_model().objects.count()

    response = api.post(REGISTER, {"username": username, "password": GOOD_PASSWORD}, format="json")

    assert_refused(response, 400, "username")
    assert get_user_model().objects.count() == before


@pytest.mark.parametrize(
    "password",
    [
        pytest.param("Ab1!", id="too-short"),
        pytest.param("Qz7#kLm2@pX", id="eleven-characters"),
        pytest.param("password", id="too-common"),
        pytest.param("83749261538", id="all-numeric"),
        pytest.param("Frank2024", id="like-the-username"),
    ],
)
def test_register_refuses_a_weak_password_naming_password(api, password):
    response = api.post(REGISTER, {"username": "frank", "password": password}, format="json")

    assert_refused(response, 400, "password")
    assert not get_user_model().objects.filter(username="frank").exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"password": GOOD_PASSWORD}, "username"),
        ({"username": "gina"}, "password"),
        ({"username": "gi na", "password": GOOD_PASSWORD}, "username"),
        ({"username": "gina", "password": GOOD_PASSWORD, "email": "not-an-email"}, "email"),
    ],
    ids=["no-username", "no-password", "space-in-username", "bad-email"],
)
def test_register_refuses_bad_input_naming_the_field(api, body, field):
    response = api.post(REGISTER, body, format="json")

    assert_refused(response, 400, field)
    assert not get_user_model().objects.filter(username__in=["gina", "gi na"]).exists()


def test_register_is_refused_when_registration_is_closed(api, settings):
    """api-v1: registration is open to anyone only while `open_registration` is on (default on)."""
    settings.OPEN_REGISTRATION = False

    response = api.post(REGISTER, {"username": "hank", "password": GOOD_PASSWORD}, format="json")

    assert_refused(response, 403)
    assert not get_user_model().objects.filter(username="hank").exists()


# --- token -------------------------------------------------------------------------------------


def test_token_answers_200_with_a_token_of_the_user_and_its_expiry(api, coach):
    response = api.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json")

    assert response.status_code == 200, response.content
    assert set(response.json()) == {"token", "expiry"}
    assert token_user(response.json()["token"]) == coach


def test_every_login_issues_a_new_token_and_the_earlier_one_keeps_working(api, coach):
    """Tokens rotate: each log-in is a new token (the earlier one ends on its own expiry or a log-out)."""
    first = api.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json").json()["token"]
    second = api.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json").json()["token"]

    assert first != second
    assert token_user(first) == coach
    assert token_user(second) == coach


@pytest.mark.parametrize(
    "body",
    [{"username": "alice", "password": "wrong-password"}, {"username": "nobody", "password": PASSWORD}],
    ids=["wrong-password", "unknown-user"],
)
def test_token_with_bad_credentials_is_400_with_detail(api, coach, body):
    response = api.post(TOKEN, body, format="json")

    body = assert_refused(response, 400)
    assert "token" not in body


@pytest.mark.parametrize(("body", "field"), [({"password": "x"}, "username"), ({"username": "alice"}, "password")])
def test_token_refuses_missing_fields_naming_them(api, coach, body, field):
    assert_refused(api.post(TOKEN, body, format="json"), 400, field)


def test_a_bad_token_is_401_and_writes_nothing(api):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    response = client.post("/api/v1/leagues/", {"name": "Nope", "ruleset": "blitzbowl"}, format="json")

    assert_refused(response, 401)
    assert not League.objects.exists()


# --- failed-login throttle ---------------------------------------------------------------------


def test_repeated_failed_logins_are_throttled_429_but_another_address_still_logs_in(coach):
    """api-v1: repeated failed logins are throttled (429). The throttle keys by client address."""
    attacker = APIClient(REMOTE_ADDR="198.51.100.7")
    limit = failure_limit()
    for _ in range(limit):
        assert_refused(attacker.post(TOKEN, {"username": "alice", "password": "guess"}, format="json"), 400)

    throttled = attacker.post(TOKEN, {"username": "alice", "password": "guess"}, format="json")
    assert_refused(throttled, 429)
    # Once throttled, the address gets no answer on passwords at all, not even on the right one.
    assert_refused(attacker.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json"), 429)

    alice_at_home = APIClient(REMOTE_ADDR="192.0.2.10")
    response = alice_at_home.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.content
    assert token_user(response.json()["token"]) == coach


def test_successful_logins_are_not_counted_as_failures(coach):
    """A coach who types his password right is never slowed (only failures count)."""
    client = APIClient(REMOTE_ADDR="192.0.2.20")
    for _ in range(failure_limit() + 3):
        assert client.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json").status_code == 200


def test_registering_does_not_count_against_the_login_throttle(api):
    """Only the token endpoint counts failed logins; refused registrations are not throttled."""
    client = APIClient(REMOTE_ADDR="192.0.2.30")
    for _ in range(failure_limit() + 1):
        assert_refused(client.post(REGISTER, {"username": "ivy", "password": "short"}, format="json"), 400, "password")


def test_a_forged_x_forwarded_for_does_not_escape_the_failed_login_throttle(coach):
    """Repeated failed logins from one address are throttled, whatever X-Forwarded-For header it sends."""
    attacker = APIClient(REMOTE_ADDR="198.51.100.8")
    statuses = [
        attacker.post(
            TOKEN, {"username": "alice", "password": f"guess-{i}"}, format="json", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}"
        ).status_code
        for i in range(failure_limit() + 2)
    ]

    assert statuses[-1] == 429, statuses
