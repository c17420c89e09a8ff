"""Who must act, on the pages: the match page says at its top who the match waits for and what the viewer can
do meanwhile; the live sheet warns as it opens when the result could not be submitted yet, naming who must act
and linking to the step; log-in lands on `/me/` when something waits and no `next` was asked for."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.prematch import prematch_post
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def underdogs_turn(match, humes, goblins) -> None:
    """The sequence at the Goblins' shopping turn: the result waits for Bob."""
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    fans = {"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}}
    prematch_post(user=humes.coach, match_id=match.pk, step="fans", rolls=fans)
    prematch_post(user=humes.coach, match_id=match.pk, step="inducements_superior", choices={"done": True})


def banner(page: str) -> str:
    start = page.index('id="waiting-for"')
    return page[start : page.index("</p>", start)]


def test_the_match_page_names_who_must_act_and_on_what_without_opening_his_door(client, match, humes, goblins):
    underdogs_turn(match, humes, goblins)
    client.force_login(humes.coach)
    line = banner(client.get(reverse("match-detail", args=[match.pk])).content.decode())
    assert "Waiting for <strong>bob</strong>: Inducements: the underdog." in line
    assert "<a " not in line  # Bob's shopping is his to open, not Alice's
    assert "meanwhile" not in line  # the result waits for the sequence: Alice can do nothing now


def test_the_match_page_says_what_the_viewer_can_do_meanwhile(client, match, humes, goblins):
    client.force_login(humes.coach)
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    # Both may enter the result: it waits for him (or Bob), and he can act now.
    assert "Waiting for you:" in banner(page)
    assert reverse("match-result", args=[match.pk]) in banner(page)


def test_the_match_page_of_a_shared_step_tells_a_visitor_both_coaches(client, match, humes):
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    line = banner(client.get(reverse("match-detail", args=[match.pk])).content.decode())
    assert "Waiting for <strong>alice or bob</strong>: " in line and "Fans and FAME" in line


def test_a_match_nothing_waits_for_has_no_banner(client, match, commissioner):
    from matches.disputes import match_void

    match_void(user=commissioner, match_id=match.pk, reason="Not played.")
    assert 'id="waiting-for"' not in client.get(reverse("match-detail", args=[match.pk])).content.decode()


def test_the_live_sheet_warns_as_it_opens_naming_who_must_act(client, match, humes, goblins):
    underdogs_turn(match, humes, goblins)
    client.force_login(humes.coach)
    page = client.get(reverse("match-live", args=[match.pk])).content.decode()
    start = page.index('id="live-waiting"')
    warning = page[start : page.index("</p>", start)]
    assert " hidden" not in warning[: warning.index(">")]
    assert "The result cannot be submitted yet. Waiting for bob: Inducements: the underdog." in warning
    assert f'href="{reverse("match-inducements", args=[match.pk, goblins.pk])}"' in warning


def test_the_live_sheet_does_not_warn_when_the_result_can_be_entered(client, match, humes):
    client.force_login(humes.coach)
    page = client.get(reverse("match-live", args=[match.pk])).content.decode()
    start = page.index('id="live-waiting"')
    assert " hidden" in page[start : page.index(">", start)]


def test_the_sheets_api_says_who_holds_the_result_up(client, match, humes, goblins):
    underdogs_turn(match, humes, goblins)
    client.force_login(humes.coach)
    waiting = client.get(f"/api/v1/matches/{match.pk}/draft/").json()["waiting"]
    assert waiting == {
        "blocked": True,
        "message": "Waiting for bob: Inducements: the underdog.",
        "url": reverse("match-inducements", args=[match.pk, goblins.pk]),
    }


def log_in(client, user, **extra):
    return client.post(reverse("login"), {"username": user.username, "password": PASSWORD, **extra})


def test_log_in_lands_on_me_when_something_waits(client, match, humes):
    response = log_in(client, humes.coach)
    assert response.status_code == 302 and response["Location"] == reverse("me")


def test_log_in_lands_as_before_when_nothing_waits(client, stranger):
    response = log_in(client, stranger)
    assert response.status_code == 302 and response["Location"] == reverse("home")


def test_log_in_with_an_explicit_next_goes_there(client, match, humes, league):
    response = log_in(client, humes.coach, next=reverse("league-detail", args=[league.pk]))
    assert response["Location"] == reverse("league-detail", args=[league.pk])
