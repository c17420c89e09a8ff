"""The log-in guard (league/logins.py): failed log-ins throttled per account and address together, for the API's
token endpoint and the log-in page alike, kept in the database so that Redis down costs nobody their log-in."""

from __future__ import annotations

import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.db import connection
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from league.logins import Lockout, login_attempt_begin
from league.models import LoginAttempt
from tests.assertions import assert_refused
from tests.factories import PASSWORD, UserFactory

TOKEN = "/api/v1/auth/token/"
HOME, CLUB, ELSEWHERE = "192.0.2.10", "198.51.100.50", "203.0.113.99"
BROKEN_REDIS = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:9/0"}
}

pytestmark = pytest.mark.django_db


@pytest.fixture
def password_checks():
    """How many passwords were checked: Django signals every failed check (user_login_failed) and every
    successful log-in (user_logged_in); an attempt refused before its check sends neither."""
    counts = {"failed": 0, "succeeded": 0}

    def failed(**kwargs):
        counts["failed"] += 1

    def succeeded(**kwargs):
        counts["succeeded"] += 1

    user_login_failed.connect(failed, dispatch_uid="test-password-checks-failed")
    user_logged_in.connect(succeeded, dispatch_uid="test-password-checks-succeeded")
    yield counts
    user_login_failed.disconnect(dispatch_uid="test-password-checks-failed")
    user_logged_in.disconnect(dispatch_uid="test-password-checks-succeeded")


def api_login(address: str, password: str, username: str = "alice"):
    return APIClient(REMOTE_ADDR=address).post(TOKEN, {"username": username, "password": password}, format="json")


def web_login(address: str, password: str, username: str = "alice"):
    return Client(REMOTE_ADDR=address).post("/login/", {"username": username, "password": password})


# --- the pair: one account from one address -------------------------------------------------------------


def test_the_sixth_attempt_from_one_address_is_429_without_its_password_being_checked(coach, password_checks):
    for i in range(5):
        assert_refused(api_login(ELSEWHERE, f"guess-{i}"), 400)
    assert password_checks["failed"] == 5

    wrong, right = api_login(ELSEWHERE, "guess-6"), api_login(ELSEWHERE, PASSWORD)

    assert_refused(wrong, 429)
    assert_refused(right, 429)
    assert password_checks == {"failed": 5, "succeeded": 0}


def test_a_429_says_in_words_and_in_retry_after_when_to_try_again(coach):
    for i in range(5):
        api_login(ELSEWHERE, f"guess-{i}")

    response = api_login(ELSEWHERE, "guess-6")

    body = assert_refused(response, 429)
    assert 14 * 60 < int(response["Retry-After"]) <= 15 * 60
    assert "Try again in 15 minutes" in body["detail"]


def test_the_pair_is_checked_again_once_its_failures_leave_the_cool_off_window(coach):
    for i in range(5):
        api_login(ELSEWHERE, f"guess-{i}")
    assert_refused(api_login(ELSEWHERE, PASSWORD), 429)

    later = timezone.now() + timedelta(minutes=15, seconds=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        response = api_login(ELSEWHERE, PASSWORD)

    assert response.status_code == 200, response.content


def test_refused_attempts_do_not_extend_the_wait(coach):
    """Only checked attempts count: knocking while locked out costs the pair nothing more."""
    start = timezone.now()
    for i in range(5):
        api_login(ELSEWHERE, f"guess-{i}")
    with mock.patch("django.utils.timezone.now", return_value=start + timedelta(minutes=14)):
        for _ in range(10):
            assert_refused(api_login(ELSEWHERE, "guess"), 429)

    with mock.patch("django.utils.timezone.now", return_value=start + timedelta(minutes=15, seconds=5)):
        assert api_login(ELSEWHERE, PASSWORD).status_code == 200


def test_a_successful_log_in_forgives_the_pairs_earlier_failures(coach):
    """Four typos and then the right password, three times over: twelve failures, none of them waited for."""
    for round_ in range(3):
        for i in range(4):
            assert_refused(api_login(HOME, f"typo-{round_}-{i}"), 400)
        assert api_login(HOME, PASSWORD).status_code == 200


def test_an_attacker_behind_a_clubs_address_does_not_lock_the_other_members_out(coach, password_checks):
    bob = UserFactory(username="bob")
    for i in range(8):
        api_login(CLUB, f"guess-{i}")
    assert_refused(api_login(CLUB, PASSWORD), 429)

    response = api_login(CLUB, PASSWORD, username=bob.username)
    web = web_login(CLUB, PASSWORD, username=bob.username)

    assert response.status_code == 200, response.content
    assert web.status_code == 302, web.status_code


def test_behind_a_trusted_proxy_the_forwarded_client_address_is_the_pairs_address(settings, coach):
    """NUM_PROXIES=1: the address is the one the proxy put in X-Forwarded-For, not the proxy's own."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = APIClient(REMOTE_ADDR="10.0.0.1")

    def via_proxy(client_address: str, password: str):
        body = {"username": "alice", "password": password}
        return proxy.post(TOKEN, body, format="json", HTTP_X_FORWARDED_FOR=client_address)

    for i in range(5):
        assert_refused(via_proxy(ELSEWHERE, f"guess-{i}"), 400)

    assert_refused(via_proxy(ELSEWHERE, PASSWORD), 429)
    assert via_proxy(HOME, PASSWORD).status_code == 200


def test_the_username_is_counted_whatever_its_case(coach):
    for i, name in enumerate(["alice", "ALICE", "Alice", "aLiCe", "alicE"]):
        api_login(ELSEWHERE, f"guess-{i}", username=name)

    assert_refused(api_login(ELSEWHERE, PASSWORD), 429)


@pytest.mark.django_db(transaction=True)
def test_racing_guesses_from_one_address_get_at_most_five_checked():
    """Twelve guesses at once (real threads, real connections): the limit holds under a race, because each
    attempt is written before the limits are counted."""
    barrier = threading.Barrier(12)
    let_through: list[bool] = []

    def guess() -> None:
        try:
            barrier.wait()
            let_through.append(not isinstance(login_attempt_begin(username="alice", address=ELSEWHERE), Lockout))
        finally:
            connection.close()

    threads = [threading.Thread(target=guess) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)

    assert len(let_through) == 12
    assert sum(let_through) <= 5, let_through
    assert LoginAttempt.objects.filter(succeeded=False).count() == sum(let_through)


# --- the account: many addresses ---------------------------------------------------------------------------


def test_eight_addresses_guessing_eight_times_each_get_ten_guesses_checked(coach, password_checks):
    answers = [
        api_login(f"198.51.100.{address}", f"guess-{address}-{i}").status_code
        for address in range(1, 9)
        for i in range(8)
    ]

    assert password_checks["failed"] == 10
    assert sum(status != 429 for status in answers) == 10, answers
    assert answers.count(429) == 54


def test_the_owner_from_an_address_he_logged_in_from_before_still_logs_in_under_attack(coach):
    assert api_login(HOME, PASSWORD).status_code == 200
    for address in range(1, 9):
        for i in range(8):
            api_login(f"198.51.100.{address}", f"guess-{i}")

    api = api_login(HOME, PASSWORD)
    web = web_login(HOME, PASSWORD)

    assert api.status_code == 200, api.content
    assert web.status_code == 302, web.status_code


def test_a_stranger_address_is_refused_while_the_account_is_under_attack_even_with_the_right_password(
    coach, password_checks
):
    for address in range(1, 9):
        for i in range(8):
            api_login(f"198.51.100.{address}", f"guess-{i}")
    checked = dict(password_checks)

    response = api_login(ELSEWHERE, PASSWORD)

    body = assert_refused(response, 429)
    assert int(response["Retry-After"]) > 0 and "Try again" in body["detail"]
    assert password_checks == checked


def test_the_account_attack_does_not_touch_other_accounts(coach):
    bob = UserFactory(username="bob")
    for address in range(1, 9):
        for i in range(8):
            api_login(f"198.51.100.{address}", f"guess-{i}")

    assert api_login(ELSEWHERE, PASSWORD, username=bob.username).status_code == 200


# --- the address: one address spraying many accounts ---------------------------------------------------------


def test_an_address_spraying_many_accounts_waits_but_its_known_members_do_not(settings, coach):
    settings.LOGIN_THROTTLE = {**settings.LOGIN_THROTTLE, "address_failures": 3}
    assert api_login(CLUB, PASSWORD).status_code == 200  # alice logs in at the club as usual
    for name in ["ann", "ben", "cid"]:
        assert_refused(api_login(CLUB, "guess", username=name), 400)

    assert_refused(api_login(CLUB, "guess", username="dan"), 429)
    assert api_login(CLUB, PASSWORD).status_code == 200


# --- the web log-in page -------------------------------------------------------------------------------------


def test_the_web_log_in_answers_429_at_the_sixth_attempt_without_checking_the_password(coach, password_checks):
    client = Client(REMOTE_ADDR=ELSEWHERE)
    for i in range(5):
        assert client.post("/login/", {"username": "alice", "password": f"guess-{i}"}).status_code == 400

    response = client.post("/login/", {"username": "alice", "password": PASSWORD})

    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "Try again in" in response.content.decode()
    assert password_checks == {"failed": 5, "succeeded": 0}
    assert "_auth_user_id" not in client.session


def test_web_and_api_failures_count_together(coach):
    for i in range(3):
        web_login(ELSEWHERE, f"guess-{i}")
    for i in range(2):
        api_login(ELSEWHERE, f"guess-api-{i}")

    assert_refused(api_login(ELSEWHERE, PASSWORD), 429)
    assert web_login(ELSEWHERE, PASSWORD).status_code == 429


def test_the_admin_log_in_is_guarded_too(db, password_checks):
    admin_user = UserFactory(username="root", is_staff=True, is_superuser=True)
    client = Client(REMOTE_ADDR=ELSEWHERE)
    for i in range(5):
        client.post("/admin/login/", {"username": admin_user.username, "password": f"guess-{i}"})

    response = client.post("/admin/login/", {"username": admin_user.username, "password": PASSWORD})

    assert "Too many failed log-ins" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert password_checks == {"failed": 5, "succeeded": 0}


# --- side services and housekeeping -----------------------------------------------------------------------


def test_api_and_web_log_in_work_with_the_cache_unreachable(settings, coach):
    """The log-in path reads no cache: Redis down (a closed port) costs nobody their log-in."""
    settings.CACHES = BROKEN_REDIS

    api = api_login(HOME, PASSWORD)
    web = web_login(HOME, PASSWORD)

    assert api.status_code == 200, api.content
    assert web.status_code == 302, web.status_code


def test_the_throttle_still_holds_with_the_cache_unreachable(settings, coach):
    settings.CACHES = BROKEN_REDIS
    for i in range(5):
        assert_refused(api_login(ELSEWHERE, f"guess-{i}"), 400)

    assert_refused(api_login(ELSEWHERE, PASSWORD), 429)


def test_old_attempts_are_pruned(coach):
    assert api_login(HOME, PASSWORD).status_code == 200
    api_login(ELSEWHERE, "guess")

    with mock.patch("django.utils.timezone.now", return_value=timezone.now() + timedelta(days=2)):
        api_login(ELSEWHERE, "another-guess")
    assert LoginAttempt.objects.filter(succeeded=False).count() == 1
    assert LoginAttempt.objects.filter(succeeded=True).count() == 1

    with mock.patch("django.utils.timezone.now", return_value=timezone.now() + timedelta(days=91)):
        api_login(ELSEWHERE, "a-late-guess")
    assert not LoginAttempt.objects.filter(succeeded=True).exists()
