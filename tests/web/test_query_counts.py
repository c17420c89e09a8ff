"""Query budgets of the pages (issue 12): the same number of queries for a league of 4 teams as for one of
400 with a few hundred matches — the league page at most 8, every other page at most 5.

A signed-in visitor's page also pays `SIGNED_IN` queries whatever the page: his session, his user and the
header's badge of matches waiting for him (dugout/web/context_processors.py). They are counted, on top."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.bulk_league import bulk_league

#: The session, the user, and the waiting-matches badge (two) of every signed-in page.
SIGNED_IN = 4
LEAGUE_PAGE = 8
PAGE = 5
#: The match report composes several panels (sides, post-match logs, rolls, player rows; the few inducements
#: come folded into the match's own row): within the budget of every page.
MATCH_REPORT = PAGE

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _json_feature_known():
    """SQLite's JSON support is probed with a query the first time a JSON column is read on a connection:
    ask before counting, so no page is charged for it."""
    from django.db import connection

    assert connection.features.supports_json_field


@pytest.fixture(
    params=[(4, 0), (400, 0), (4, 2), (400, 4)],
    ids=["4-teams", "400-teams", "4-teams-2-divisions", "400-teams-4-divisions"],
)
def big(request):
    """Issue 12's budgets at 4 and 400 teams, and the same with divisions (issue 13): one table per division."""
    teams, divisions = request.param
    return bulk_league(teams=teams, divisions=divisions)


def _pages(league) -> dict[str, tuple[str, int]]:
    team = league.teams.order_by("id").first()
    match = league.matches.filter(status="final").order_by("id").first()
    return {
        "home": (reverse("home"), PAGE),
        "league": (reverse("league-detail", args=[league.pk]), LEAGUE_PAGE),
        "results": (reverse("league-results", args=[league.pk]), PAGE),
        "results-page-2": (reverse("league-results", args=[league.pk]) + "?page=2", PAGE),
        "fixtures": (reverse("league-fixtures", args=[league.pk]), PAGE),
        "teams": (reverse("league-teams", args=[league.pk]), PAGE),
        "teams-page-2": (reverse("league-teams", args=[league.pk]) + "?page=2", PAGE),
        "table": (reverse("league-table", args=[league.pk]), PAGE),
        "reports": (reverse("league-reports", args=[league.pk]), PAGE),
        "team-sheet": (reverse("team-detail", args=[team.pk]), PAGE),
        "match-report": (reverse("match-detail", args=[match.pk]), MATCH_REPORT),
    }


@pytest.mark.parametrize(
    "name",
    [
        "home",
        "league",
        "results",
        "results-page-2",
        "fixtures",
        "teams",
        "teams-page-2",
        "table",
        "reports",
        "team-sheet",
        "match-report",
    ],
)
def test_public_page_stays_within_its_query_budget_at_any_league_size(client, big, name, django_assert_max_num_queries):
    url, budget = _pages(big)[name]
    if name.endswith("-page-2") and big.teams.count() < 100:  # the small league has one page of each
        url = url.replace("?page=2", "")
    with django_assert_max_num_queries(budget):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize(
    "name", ["home", "league", "results", "fixtures", "teams", "table", "reports", "team-sheet", "match-report"]
)
@pytest.mark.parametrize("who", ["coach", "commissioner"])
def test_signed_in_page_stays_within_its_budget_plus_the_session(client, big, name, who, django_assert_max_num_queries):
    url, budget = _pages(big)[name]
    client.force_login(big.bulk_coach if who == "coach" else big.bulk_commissioner)
    with django_assert_max_num_queries(budget + SIGNED_IN):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("url", ["me", "invitations", "account-tokens"])
def test_a_coachs_own_pages_stay_within_the_budget(client, big, url, django_assert_max_num_queries):
    client.force_login(big.bulk_coach)
    with django_assert_max_num_queries(PAGE + SIGNED_IN):
        assert client.get(reverse(url)).status_code == 200


def test_the_commissioners_dashboard_stays_within_the_budget(client, big, django_assert_max_num_queries):
    client.force_login(big.bulk_commissioner)
    with django_assert_max_num_queries(PAGE + SIGNED_IN):
        assert client.get(reverse("commissioner-dashboard", args=[big.pk])).status_code == 200


def test_the_league_page_of_a_400_team_league_with_a_long_history_stays_under_100_kb(client, db):
    league = bulk_league(teams=400, finals=2000)
    response = client.get(reverse("league-detail", args=[league.pk]))
    assert response.status_code == 200
    assert len(response.content) < 100_000, len(response.content)


def test_the_league_page_once_its_panels_are_kept_reads_only_the_league_row(client, big, django_assert_num_queries):
    """The table, fixtures, results and reports panels are documents kept per version (dugout/web/views.py): a
    visitor's page that finds them reads the league row alone, at 4 teams as at 400."""
    url = reverse("league-detail", args=[big.pk])
    assert client.get(url).status_code == 200  # renders and keeps them
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200
