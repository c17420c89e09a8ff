"""The sign-up throttle (league/signups.py; api-v1 v1.2: "Sign-up is throttled per address like the log-in"): at
most 10 accounts an hour from one client address, by the API and the `/signup/` page together, 429 in words."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from league.models import SignupAttempt
from tests.assertions import assert_refused

REGISTER = "/api/v1/auth/register/"
GOOD_PASSWORD = "Kick-off-at-dawn-42"
CROWD, OTHER = "203.0.113.7", "198.51.100.8"

pytestmark = pytest.mark.django_db


def register(username: str, address: str = CROWD, password: str = GOOD_PASSWORD):
    body = {"username": username, "password": password}
    return APIClient(REMOTE_ADDR=address).post(REGISTER, body, format="json")


def web_signup(username: str, address: str = CROWD):
    body = {"username": username, "password1": GOOD_PASSWORD, "password2": GOOD_PASSWORD}
    return Client(REMOTE_ADDR=address).post("/signup/", body)


def test_the_eleventh_account_from_one_address_in_an_hour_is_429_in_words():
    for i in range(10):
        assert register(f"bot{i}").status_code == 201

    response = register("bot10")

    body = assert_refused(response, 429)
    assert "Too many new accounts from your address" in body["detail"] and "Try again in" in body["detail"]
    assert 0 < int(response["Retry-After"]) <= 3600
    assert not get_user_model().objects.filter(username="bot10").exists()


def test_another_address_still_signs_up():
    for i in range(10):
        register(f"bot{i}")

    assert register("neighbour", address=OTHER).status_code == 201


def test_refused_input_does_not_count():
    for i in range(12):
        assert_refused(register(f"weak{i}", password="short"), 400, "password")

    assert register("careful").status_code == 201
    assert SignupAttempt.objects.count() == 1


def test_the_page_and_the_api_count_together_and_the_page_answers_429_in_words():
    for i in range(5):
        assert register(f"bot{i}").status_code == 201
    for i in range(5):
        assert web_signup(f"page{i}").status_code == 302

    response = web_signup("page5")

    assert response.status_code == 429
    assert "Too many new accounts from your address" in response.content.decode()
    assert int(response["Retry-After"]) > 0
    assert not get_user_model().objects.filter(username="page5").exists()
    assert_refused(register("bot5"), 429)


def test_the_address_may_sign_up_again_an_hour_later():
    for i in range(10):
        register(f"bot{i}")
    assert_refused(register("bot10"), 429)

    with mock.patch("django.utils.timezone.now", return_value=timezone.now() + timedelta(hours=1, seconds=1)):
        assert register("bot11").status_code == 201
