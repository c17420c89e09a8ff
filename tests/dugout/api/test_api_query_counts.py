"""Query budgets of the API's reads (issue 12): every list and read at most 5 queries, the same for a league
of 4 teams as for one of 400 with a few hundred matches. A token-authenticated call also pays `TOKEN`
queries whatever the endpoint (knox reads the token with its user, and the user's tokens), counted on top."""

from __future__ import annotations

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.bulk_league import bulk_league
from tests.factories import token_for

TOKEN = 2
READ = 5

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _json_feature_known():
    """SQLite's JSON support is probed with a query the first time a JSON column is read: ask first."""
    assert connection.features.supports_json_field


@pytest.fixture(
    params=[(4, 0), (400, 0), (4, 2), (400, 4)],
    ids=["4-teams", "400-teams", "4-teams-2-divisions", "400-teams-4-divisions"],
)
def big(request):
    """Issue 12's budgets at 4 and 400 teams, and the same with divisions (issue 13): one table per division."""
    teams, divisions = request.param
    return bulk_league(teams=teams, divisions=divisions)


ENDPOINTS = {
    "leagues": "/api/v1/leagues/",
    "league": "/api/v1/leagues/{league}/",
    "standings": "/api/v1/leagues/{league}/standings/",
    "standings-division": "/api/v1/leagues/{league}/standings/?division={division}",
    "divisions": "/api/v1/leagues/{league}/divisions/",
    "members": "/api/v1/leagues/{league}/members/",
    "memorial": "/api/v1/leagues/{league}/memorial/",
    "stadiums": "/api/v1/leagues/{league}/stadiums/",
    "reports": "/api/v1/leagues/{league}/reports/",
    "teams": "/api/v1/teams/?league={league}",
    "team": "/api/v1/teams/{team}/",
    "ledger": "/api/v1/teams/{team}/ledger/",
    "matches": "/api/v1/matches/?league={league}",
    "matches-final": "/api/v1/matches/?league={league}&status=final",
    "match": "/api/v1/matches/{match}/",
    "rolls": "/api/v1/matches/{match}/rolls/",
    "transfers": "/api/v1/transfers/",
    "rulesets": "/api/v1/rulesets/",
    "rosters": "/api/v1/rulesets/blitzbowl/rosters/",
}


def _url(name: str, league) -> str:
    team = league.teams.order_by("id").first()
    match = league.matches.filter(status="final").order_by("id").first()
    division = league.divisions.order_by("id").first()
    if division is None and "{division}" in ENDPOINTS[name]:
        pytest.skip("a league without divisions has no division's table")
    return ENDPOINTS[name].format(league=league.pk, team=team.pk, match=match.pk, division=getattr(division, "pk", 0))


@pytest.mark.parametrize("name", list(ENDPOINTS))
def test_an_anonymous_read_stays_within_five_queries_at_any_league_size(big, name, django_assert_max_num_queries):
    url = _url(name, big)
    with django_assert_max_num_queries(READ):
        assert APIClient().get(url).status_code == 200


@pytest.mark.parametrize("name", [*ENDPOINTS, "invitations"])
def test_a_token_read_stays_within_five_queries_plus_the_token(big, name, django_assert_max_num_queries):
    url = "/api/v1/invitations/" if name == "invitations" else _url(name, big)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(big.bulk_coach)}")
    with django_assert_max_num_queries(READ + TOKEN):
        assert client.get(url).status_code == 200


def test_the_team_api_answers_the_ongoing_sponsorships_oldest_first_with_their_dates(api, team):
    import datetime as dt

    from django.utils import timezone

    from teams.models import Sponsorship

    later = Sponsorship.objects.create(team=team, name="Later")
    first = Sponsorship.objects.create(team=team, name="First")
    Sponsorship.objects.filter(pk=first.pk).update(gained_at=later.gained_at - dt.timedelta(days=2, microseconds=7))
    Sponsorship.objects.create(team=team, name="Ended", ended_at=timezone.now())
    first.refresh_from_db()
    body = api.get(f"/api/v1/teams/{team.pk}/").json()
    as_drf = lambda moment: moment.isoformat().replace("+00:00", "Z")  # noqa: E731 — DRF's rendering
    assert body["sponsorships"] == [
        {"id": first.pk, "name": "First", "gained_at": as_drf(first.gained_at)},
        {"id": later.pk, "name": "Later", "gained_at": as_drf(later.gained_at)},
    ]
