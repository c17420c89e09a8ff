"""The season pages (issue 13): the seasons with their champions, a closed season's frozen table and the open
season's live one, the commissioner's turn of the season from the page — and their query budgets at 4 and 400
teams (issue 12: ≤ 5 a page)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from dugout.seasons import season_start_next
from league.models import Season
from tests.bulk_league import bulk_league
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

PAGE = 5


@pytest.fixture(params=[4, 400], ids=["4-teams", "400-teams"])
def turned(request):
    """A bulk league whose first season closed on its history; season 2 open."""
    league = bulk_league(teams=request.param)
    season_start_next(user=league.created_by, league_id=league.pk, name="Second")
    league.refresh_from_db()
    return league


@pytest.mark.parametrize("page", ["seasons", "closed", "open"])
def test_season_pages_stay_within_their_query_budget_at_any_league_size(
    client, turned, page, django_assert_max_num_queries
):
    url = {
        "seasons": reverse("league-seasons", args=[turned.pk]),
        "closed": reverse("league-season", args=[turned.pk, 1]),
        "open": reverse("league-season", args=[turned.pk, 2]),
    }[page]
    with django_assert_max_num_queries(PAGE):
        response = client.get(url)
    assert response.status_code == 200


def test_the_closed_season_shows_its_frozen_table_and_champion_and_the_list_names_it(client, turned):
    first = Season.objects.get(league=turned, number=1)
    leader = first.final_table[0]

    page = client.get(reverse("league-season", args=[turned.pk, 1])).content.decode()
    listing = client.get(reverse("league-seasons", args=[turned.pk])).content.decode()

    assert "the final table" in page and f'Champion: <strong><a href="/teams/{leader["team"]}/">' in page
    assert leader["name"] in page
    assert "Second" in listing and f'champion: <a href="/teams/{first.champion_id}/">' in listing
    assert "No result this season." in client.get(reverse("league-season", args=[turned.pk, 2])).content.decode()
    assert client.get(reverse("league-season", args=[turned.pk, 3])).status_code == 404


def test_the_commissioner_turns_the_season_from_the_page_and_a_coach_cannot(client):
    league = bulk_league(teams=4)
    coach = league.teams.order_by("id").first().coach

    client.login(username=coach.username, password=PASSWORD)
    client.post(reverse("league-seasons", args=[league.pk]), {"name": "Coup"}, follow=True)
    assert Season.objects.filter(league=league).count() == 1
    assert "Close and open the next" not in client.get(reverse("league-seasons", args=[league.pk])).content.decode()

    client.login(username=league.created_by.username, password=PASSWORD)
    response = client.post(reverse("league-seasons", args=[league.pk]), {"name": "Autumn"}, follow=True)

    assert "Autumn is open" in response.content.decode()
    assert list(Season.objects.filter(league=league).values_list("number", "status")) == [(1, "closed"), (2, "open")]
