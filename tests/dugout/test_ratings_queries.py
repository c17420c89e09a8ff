"""The Elo ratings' reads in fixed queries (issue 14; issue 12's budget of 5): the API and the page cost the same at
4 teams as at 400 with a few hundred matches — cold (computed: the league, the sides, the teams) and warm (from
the cache: the league row only)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from teams.models import Team
from tests.bulk_league import bulk_league

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[4, 400], ids=["4-teams", "400-teams"])
def big(request):
    assert connection.features.supports_json_field  # SQLite probes JSON support once: not in the count
    return bulk_league(teams=request.param)


@pytest.mark.parametrize(
    "url",
    ["/api/v1/leagues/{}/ratings/", "/leagues/{}/ratings/", "/api/v1/leagues/{}/ratings/teams/{}/"],
    ids=["api", "page", "team-history"],
)
def test_the_ratings_read_in_fixed_queries_at_any_league_size(client, big, url):
    team = Team.objects.filter(league=big).order_by("pk").first()
    url = url.format(big.pk, team.pk)
    cache.clear()
    counts = []
    for _ in range(2):  # cold, then warm
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] <= 5 and counts[1] <= counts[0], counts
    assert counts == [3, 1], counts  # the league, the sides, the teams; then the league row alone
