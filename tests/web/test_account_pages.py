"""A coach's own account pages: his API tokens (listed, revoked one or all) and his password; new passwords of at
least 12 characters at sign-up."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.factories import PASSWORD, new_token_for

TOKENS, PASSWORD_PAGE = "/account/tokens/", "/account/password/"
NEW_PASSWORD = "A-brand-new-pass-2026"

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_coach(client, coach):
    client.force_login(coach)
    return client


def authenticates(token: str) -> bool:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = client.post("/api/v1/leagues/", {"name": f"Cup {token[:6]}", "ruleset": "blitzbowl"})
    assert response.status_code in (201, 401), response.content
    return response.status_code == 201


def digest_of(token: str) -> str:
    return next(row.digest for row in AuthToken.objects.filter(token_key=token[:15]))


# --- the token page -------------------------------------------------------------------------------------------


def test_the_token_page_lists_the_coachs_tokens_by_their_first_characters_only(as_coach, coach, other_coach):
    mine, bobs = [new_token_for(coach), new_token_for(coach)], new_token_for(other_coach)

    page = as_coach.get(TOKENS).content.decode()

    for token in mine:
        assert token[:8] in page
        assert token not in page and token[:9] not in page
    assert bobs[:8] not in page
    assert page.count("Revoke</button>") == 2


def test_revoking_one_token_on_the_page_ends_it_and_keeps_the_others(as_coach, coach):
    revoked, kept = new_token_for(coach), new_token_for(coach)

    response = as_coach.post(TOKENS, {"digest": digest_of(revoked)}, follow=True)

    assert response.status_code == 200
    assert "revoked" in response.content.decode()
    assert not authenticates(revoked)
    assert authenticates(kept)
    assert revoked[:8] not in response.content.decode()


def test_revoke_all_on_the_page_ends_every_token_of_the_coach(as_coach, coach, other_coach):
    mine, bobs = [new_token_for(coach), new_token_for(coach)], new_token_for(other_coach)

    as_coach.post(TOKENS, {"everything": "on"})

    assert not any(authenticates(token) for token in mine)
    assert authenticates(bobs)


def test_a_coach_cannot_revoke_another_users_token(as_coach, other_coach):
    bobs = new_token_for(other_coach)

    response = as_coach.post(TOKENS, {"digest": digest_of(bobs)}, follow=True)

    assert response.status_code == 200
    assert authenticates(bobs)


@pytest.mark.parametrize("body", [{}, {"digest": "x" * 500}, {"digest": "nul\x00byte"}], ids=["empty", "long", "nul"])
def test_a_malformed_revoke_is_refused_in_words_and_ends_nothing(as_coach, coach, body):
    token = new_token_for(coach)

    response = as_coach.post(TOKENS, body, follow=True)

    assert response.status_code == 200
    assert 'class="error"' in response.content.decode()
    assert authenticates(token)


def test_the_token_page_needs_a_signed_in_user(client):
    response = client.get(TOKENS)

    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_the_header_links_the_token_and_password_pages_for_a_signed_in_user(as_coach, client):
    page = as_coach.get("/").content.decode()

    assert f'href="{TOKENS}"' in page
    assert f'href="{PASSWORD_PAGE}"' in page


# --- the password page -----------------------------------------------------------------------------------------


def test_changing_the_password_on_the_page_ends_every_token_and_keeps_the_browser_signed_in(as_coach, coach):
    token = new_token_for(coach)

    response = as_coach.post(
        PASSWORD_PAGE,
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )

    assert response.redirect_chain[-1][0] == TOKENS
    assert not authenticates(token)
    assert response.context["user"] == coach
    coach.refresh_from_db()
    assert coach.check_password(NEW_PASSWORD)


def test_the_password_page_refuses_a_new_password_under_twelve_characters(as_coach, coach):
    token = new_token_for(coach)
    short = "Qz7#kLm2@pX"  # 11 characters

    response = as_coach.post(PASSWORD_PAGE, {"old_password": PASSWORD, "new_password1": short, "new_password2": short})

    assert response.status_code == 400
    assert "at least 12 characters" in response.content.decode()
    coach.refresh_from_db()
    assert coach.check_password(PASSWORD)
    assert authenticates(token)


# --- sign-up ---------------------------------------------------------------------------------------------------


def test_sign_up_refuses_a_password_under_twelve_characters(client, db):
    short = "Qz7#kLm2@pX"  # 11 characters

    response = client.post("/signup/", {"username": "newbie", "password1": short, "password2": short})

    assert response.status_code == 400
    assert "at least 12 characters" in response.content.decode()
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_sign_up_accepts_a_password_of_twelve_characters(client, db):
    twelve = "Qz7#kLm2@pXw"

    response = client.post("/signup/", {"username": "newbie", "password1": twelve, "password2": twelve})

    assert response.status_code == 302
    assert get_user_model().objects.get(username="newbie").check_password(twelve)
