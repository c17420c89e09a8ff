"""Scheduling a match: who may, what the form offers, and the rules' refusals on the form."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches import services
from matches.models import Match
from tests.factories import StadiumFactory, TeamFactory, UserFactory
from tests.web.matchpages.helpers import (
    report_url,
    schedule_url,
    text,
)

pytestmark = pytest.mark.django_db


# --- scheduling ---------------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["commissioner", "coach"])
def test_schedule_page_offers_the_leagues_teams_kinds_and_stadiums(client, league, team, other_team, request, viewer):
    StadiumFactory(league=league, name="Greenfield", special_attribute="Astrogranite")
    client.force_login(request.getfixturevalue(viewer))

    response = client.get(schedule_url(league))

    assert response.status_code == 200
    page = text(response)
    assert "<h1>Schedule a match" in page
    for label in ('for="id_home"', 'for="id_away"', 'for="id_kind"', 'for="id_stadium"'):
        assert label in page
    assert "Alice's Humes (alice)" in page and "Bob's Goblins (bob)" in page
    assert "Greenfield — Astrogranite" in page and ">Play-off<" in page


def test_schedule_page_refuses_strangers_and_sends_anonymous_visitors_to_log_in(client, league, team, stranger):
    url = schedule_url(league)
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))

    client.force_login(stranger)
    response = client.get(url)
    assert response.status_code == 403
    assert "Only the commissioner or a coach with a team in this league" in text(response)
    assert client.post(url, {"home": team.pk, "away": team.pk, "kind": "league"}).status_code == 403
    assert not Match.objects.exists()


def test_schedule_page_of_an_unknown_league_is_not_found(client, coach):
    client.force_login(coach)
    assert client.get(f"{reverse('match-schedule')}?league=987654").status_code == 404
    assert client.get(f"{reverse('match-schedule')}?league=abc").status_code == 404


def test_coach_schedules_a_match_for_his_team_and_lands_on_its_report(client, league, team, other_team):
    stadium = StadiumFactory(league=league, name="Greenfield")
    client.force_login(team.coach)

    response = client.post(
        schedule_url(league),
        {"home": other_team.pk, "away": team.pk, "kind": "friendly", "stadium": stadium.pk},
        follow=True,
    )

    match = Match.objects.get()
    assert [s.team_id for s in match.sides.order_by("order")] == [other_team.pk, team.pk]
    assert (match.kind, match.stadium, match.status, match.created_by) == ("friendly", stadium, "scheduled", team.coach)
    assert response.redirect_chain == [(report_url(match), 302)]
    page = text(response)
    assert "The match is scheduled." in page
    assert 'Bob\'s Goblins</a> <span class="versus">v</span> <a' in page


def test_scheduling_a_team_against_itself_is_refused_on_the_form(client, league, team):
    client.force_login(team.coach)

    response = client.post(schedule_url(league), {"home": team.pk, "away": team.pk, "kind": "league"})

    assert response.status_code == 400
    assert "A team cannot play itself." in text(response)
    assert not Match.objects.exists()


def test_a_coach_cannot_schedule_a_match_between_two_other_teams(client, league, team, other_team):
    third = TeamFactory(league=league, coach=UserFactory(username="carol"), name="Carol's Orcs", roster="orc")
    client.force_login(team.coach)

    response = client.post(schedule_url(league), {"home": other_team.pk, "away": third.pk, "kind": "league"})

    assert response.status_code == 403
    assert "Only the commissioner or a coach of one of these teams can schedule this match." in text(response)
    assert not Match.objects.exists()


def test_a_third_consecutive_meeting_is_refused_with_the_rule(client, league, team, other_team, commissioner):
    for _ in range(2):
        services.match_schedule(user=commissioner, league=league, team_ids=[team.pk, other_team.pk])
    client.force_login(commissioner)

    response = client.post(schedule_url(league), {"home": other_team.pk, "away": team.pk, "kind": "league"})

    assert "These teams have met 2 times in a row: a third consecutive match is not allowed." in text(response)
    assert Match.objects.count() == 2
