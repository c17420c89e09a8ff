"""Query budgets of the notification reads (as tests/web/test_query_counts.py pins the pages'): the API's list and
the `/notifications/` page take the same few queries for the coach of a 4-team league with 60 notifications
as for one of a 400-team league with a thousand, on the first page and a later one."""

from __future__ import annotations

import pytest
from django.urls import reverse

from notifications.models import Notification
from tests.bulk_league import bulk_league
from tests.web.test_query_counts import PAGE, SIGNED_IN

pytestmark = pytest.mark.django_db

#: The API's budget: the list's count and its page, on top of the caller's authentication.
API = 5


@pytest.fixture(params=[4, 400], ids=["4-teams", "400-teams"])
def coach_with_news(request):
    """The bulk league's coach, told about his league's matches: three notifications a team, at least 60 (two
    pages of each list), each naming the league, a match and a team."""
    league = bulk_league(teams=request.param)
    coach = league.bulk_coach
    matches = list(league.matches.values_list("pk", flat=True))
    teams = list(league.teams.values_list("pk", flat=True))
    Notification.objects.bulk_create(
        Notification(
            user=coach,
            kind="result_confirmed",
            league=league,
            match_id=matches[i % len(matches)],
            team_id=teams[i % len(teams)],
            text=f"A result was confirmed ({i})",
            url=f"/matches/{matches[i % len(matches)]}/",
        )
        for i in range(max(3 * request.param, 60))
    )
    return coach


@pytest.mark.parametrize("query", [{}, {"unread": "true"}, {"page": "2"}])
def test_the_api_list_stays_within_its_budget(client, coach_with_news, query, django_assert_max_num_queries):
    client.force_login(coach_with_news)
    with django_assert_max_num_queries(API):
        response = client.get("/api/v1/notifications/", query)
    assert response.status_code == 200 and response.json()["results"]


def test_the_api_list_with_a_token_stays_within_its_budget(api_as, coach_with_news, django_assert_max_num_queries):
    client = api_as(coach_with_news)
    with django_assert_max_num_queries(API):
        assert client.get("/api/v1/notifications/").status_code == 200


@pytest.mark.parametrize("query", [{}, {"unread": "1"}, {"page": "2"}])
def test_the_page_stays_within_the_budget_of_a_coachs_own_page(
    client, coach_with_news, query, django_assert_max_num_queries
):
    client.force_login(coach_with_news)
    with django_assert_max_num_queries(PAGE + SIGNED_IN):
        response = client.get(reverse("notifications"), query)
    assert response.status_code == 200 and b'<li class="notification' in response.content


def test_the_account_page_stays_within_the_budget(client, coach_with_news, django_assert_max_num_queries):
    client.force_login(coach_with_news)
    with django_assert_max_num_queries(PAGE + SIGNED_IN):
        assert client.get(reverse("account")).status_code == 200
