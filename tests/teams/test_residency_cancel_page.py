"""The team sheet's "Cancel the home stadium" button (../shared/rules/blitzbowl.md "3. Fortune and FAME",
Residency: R "A home stadium can be cancelled at any time for 5,000 gil"): a plain form POST for the team's
coach, with no inline script or style (the site runs under a strict Content-Security-Policy)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from teams.selectors import team_treasury
from tests.factories import LeagueFactory, TeamFactory
from tests.teams.residency_helpers import resident, spend_down_to

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def sheet(client, team) -> str:
    response = client.get(reverse("team-detail", args=[team.pk]))
    assert response.status_code == 200
    return response.content.decode()


def cancel_form(page: str) -> str | None:
    found = re.search(r'<form[^>]*id="cancel-residency".*?</form>', page, flags=re.S)
    return found.group(0) if found else None


def test_the_coach_sees_his_home_stadium_and_a_cancel_button_priced_from_the_house_rules(client, team, coach):
    """R: cancelled for 5,000 gil — the sheet names the home stadium and the coach's button says the price; the
    form posts to the cancel URL with no inline script or style."""
    resident(team)
    client.force_login(coach)
    page = sheet(client, team)
    assert re.search(r'<dd id="home-stadium">Grand Coliseum</dd>', page)
    form = cancel_form(page)
    assert form is not None
    assert f'action="{reverse("team-cancel-residency", args=[team.pk])}"' in form and 'method="post"' in form
    assert "5,000 gil" in form
    assert not re.search(r"\sstyle=|<script|\son[a-z]+=", form), form


def test_no_cancel_button_without_a_residency_for_an_owned_stadium_or_for_other_users(client, team, coach, stranger):
    """I: nothing to cancel without a home stadium, an owned one is sold instead, and only the coach decides."""
    client.force_login(coach)
    page = sheet(client, team)
    assert '<dd id="home-stadium">—</dd>' in page and cancel_form(page) is None
    resident(team, owned=True)
    page = sheet(client, team)
    assert "Grand Coliseum (owned)" in page and cancel_form(page) is None
    team.owns_stadium = False
    team.save(update_fields=["owns_stadium"])
    client.force_login(stranger)
    page = sheet(client, team)
    assert "Grand Coliseum" in page and cancel_form(page) is None


def test_a_sheet_of_a_ruleset_without_residencies_shows_no_home_stadium(client, coach):
    """R: residencies are Blitz Bowl's; the registry says ElfBall has none, so its sheet has no stadium line."""
    elf = TeamFactory(league=LeagueFactory(ruleset="elfball"), coach=coach)
    client.force_login(coach)
    page = sheet(client, elf)
    assert 'id="home-stadium"' not in page and cancel_form(page) is None


def test_pressing_cancel_pays_5000_gil_and_the_sheet_says_so(client, team, coach):
    """R: 5,000 gil from the treasury; a plain POST redirects to the sheet with a notice, an htmx POST answers
    the sheet itself."""
    resident(team)
    client.force_login(coach)
    response = client.post(reverse("team-cancel-residency", args=[team.pk]), follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("team-detail", args=[team.pk])
    assert "The home stadium is cancelled." in page and cancel_form(page) is None
    assert '<dd id="home-stadium">—</dd>' in page
    assert team_treasury(team=team) == 95_000
    resident(team)
    fragment = client.post(reverse("team-cancel-residency", args=[team.pk]), **HTMX).content.decode()
    assert "The home stadium is cancelled." in fragment and "<html" not in fragment
    assert team_treasury(team=team) == 90_000


def test_pressing_cancel_short_of_gil_shows_why_and_keeps_the_stadium(client, team, coach):
    """R/I: the treasury never goes below 0: with 3,000 gil the sheet says what is missing in words."""
    resident(team)
    spend_down_to(team, 3000)
    client.force_login(coach)
    page = client.post(reverse("team-cancel-residency", args=[team.pk]), follow=True).content.decode()
    assert "Not enough gil" in page and "5,000 gil" in page
    team.refresh_from_db()
    assert team.home_stadium is not None and team_treasury(team=team) == 3000


def test_another_user_cannot_cancel_the_stadium_from_the_page(client, team, stranger):
    """Only the team's coach: a stranger's POST is forbidden and changes nothing."""
    resident(team)
    client.force_login(stranger)
    assert client.post(reverse("team-cancel-residency", args=[team.pk])).status_code == 403
    team.refresh_from_db()
    assert team.home_stadium is not None
