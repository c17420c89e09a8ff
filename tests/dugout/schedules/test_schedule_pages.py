"""The schedule pages (issue 13, "Schedules"): the commissioner's form → preview → publish, the public bracket,
and the rounds with their dates on the league's fixtures."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import Match, Schedule
from tests.dugout.schedules.helpers import five_teams, pairs, ready_teams
from tests.dugout.schedules.test_division_schedules import divide
from tests.dugout.test_division_standings import final
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

FORM = {"format": "round_robin", "legs": "1", "start": "2027-01-04", "days_per_round": "7", "from_standings": ""}


def signed_in(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_the_commissioner_previews_then_publishes_a_round_robin(league, commissioner):
    five_teams(league)
    client = signed_in(commissioner)
    url = f"/leagues/{league.pk}/schedule/"
    assert client.get(url).status_code == 200
    r = client.post(url, {**FORM, "action": "preview"})
    assert r.status_code == 200
    page = r.content.decode()
    assert 'id="schedule-preview"' in page and "Team A v Team D" in page and "2027-01-04" in page
    assert not Match.objects.exists()
    r = client.post(url, {**FORM, "action": "publish"})
    assert r.status_code == 302
    assert Schedule.objects.count() == 1 and Match.objects.count() == 10
    page = client.get(url).content.decode()
    assert 'id="schedule-round_robin"' in page
    fixtures = client.get(f"/leagues/{league.pk}/fixtures/").content.decode()
    assert "Round 1: 2027-01-04" in fixtures


def test_a_refused_schedule_says_why_on_the_form(league, commissioner):
    five_teams(league)
    client = signed_in(commissioner)
    r = client.post(f"/leagues/{league.pk}/schedule/", {**FORM, "format": "knockout", "action": "preview"})
    assert r.status_code == 400
    assert "Seed the knockout" in r.content.decode()


def test_an_incomplete_schedule_form_is_answered_400_and_previews_and_publishes_nothing(league, commissioner):
    five_teams(league)
    client = signed_in(commissioner)
    for action in ("preview", "publish"):
        r = client.post(f"/leagues/{league.pk}/schedule/", {**FORM, "start": "", "action": action})
        assert r.status_code == 400, action  # the form again with its error in words
        page = r.content.decode()
        assert "This field is required." in page and 'id="schedule-preview"' not in page
    assert not Schedule.objects.exists() and not Match.objects.exists()


def test_a_coach_is_refused_the_schedule_page(league, coach, make_coach):
    make_coach(coach)
    assert signed_in(coach).get(f"/leagues/{league.pk}/schedule/").status_code == 403


def test_the_bracket_page_is_public(api_as, league, commissioner):
    a, b, c, *_ = five_teams(league)
    body = {"format": "knockout", "teams": [a, b, c], "start": "2027-02-01"}
    assert api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/schedule/", body, format="json").status_code == 201
    page = Client().get(f"/leagues/{league.pk}/bracket/").content.decode()
    assert "Team B v Team C" in page and "Team A <small>(bye)</small>" in page


def test_issue13_divisions_the_form_offers_a_round_robin_per_division_and_a_knockout_from_divisions(
    league, commissioner
):
    """In a league with divisions the form has what the API has (docs/decisions/ "Divisions"): each division's
    own round robin (no match across divisions), or one division's; a knockout from the listed divisions' tables,
    their winners seeded in the order listed. Without divisions, none of these fields."""
    client = signed_in(commissioner)
    url = f"/leagues/{league.pk}/schedule/"
    assert "round_robin_teams" not in client.get(url).content.decode()
    a, b, c, d = ready_teams(league, 4)
    divisions = divide(league, {"North": [a, b], "South": [c, d]})
    page = client.get(url).content.decode()
    assert "Each division its own" in page and "Only North" in page and "knockout_divisions" in page
    r = client.post(url, {**FORM, "round_robin_teams": "each", "action": "publish"})
    assert r.status_code == 302
    made = list(Match.objects.filter(schedule_round__isnull=False).order_by("pk").values_list("pk", flat=True))
    assert sorted(sorted(p) for p in pairs(made)) == [[a, b], [c, d]]  # never North v South
    final(league, a, b, (2, 0))
    final(league, d, c, (1, 0))
    body = {**FORM, "format": "knockout", "knockout_divisions": [divisions["South"], divisions["North"]]}
    r = client.post(url, {**body, "knockout_top": "1", "action": "preview"})
    assert r.status_code == 200 and 'id="schedule-preview"' in r.content.decode()
    assert not Schedule.objects.filter(format="knockout").exists()
    r = client.post(url, {**body, "knockout_top": "1", "action": "publish"})
    assert r.status_code == 302
    assert Schedule.objects.get(format="knockout").teams == [d, a]  # South's winner first: South listed first
    r = client.post(url, {**FORM, "round_robin_teams": "x1", "action": "preview"})
    assert "Select a valid choice" in r.content.decode()
