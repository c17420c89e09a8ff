"""Issue 14 query budgets (issue 12's: at most 5 per page or API read), the same at 4 teams as at 400 with a
history of per-match rows: the leaders (API, CSV, page), the records, the memorial and a player's API and page,
each read with a cold cache (the first read of a table version)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from matches.models import PlayerMatch
from teams.models import Player
from tests.bulk_league import bulk_league

BUDGET = 5

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _json_feature_known():
    """SQLite's JSON support is probed with a query the first time a JSON column is read: ask first."""
    assert connection.features.supports_json_field


@pytest.fixture(params=[4, 400], ids=["4-teams", "400-teams"])
def big(request):
    """A bulk league whose every final match has a per-match row for each side's first player."""
    league = bulk_league(teams=request.param)
    firsts = {}
    for pk, team_id in Player.objects.filter(team__league=league).order_by("team_id", "id").values_list("pk", "team"):
        firsts.setdefault(team_id, pk)
    rows = [
        PlayerMatch(match_id=m, team_id=t, player_id=firsts[t], touchdowns=2 if order == 0 else 1, spp=6)
        for m, t, order in league.matches.filter(status="final").values_list("id", "sides__team", "sides__order")
    ]
    PlayerMatch.objects.bulk_create(rows)
    league.busy_player = max(firsts.values(), key=lambda p: sum(r.player_id == p for r in rows))
    return league


def _urls(league):
    player = league.busy_player
    return {
        "leaders-api": f"/api/v1/leagues/{league.pk}/leaders/?stat=touchdowns&season=all",
        "leaders-csv": f"/api/v1/leagues/{league.pk}/leaders/?stat=spp&format=csv",
        "records-api": f"/api/v1/leagues/{league.pk}/records/",
        "team-leaders-api": f"/api/v1/leagues/{league.pk}/leaders/teams/?season=all",
        "player-api": f"/api/v1/players/{player}/",
        "leaders-page": reverse("league-leaders", args=[league.pk]),
        "records-page": reverse("league-records", args=[league.pk]),
        "memorial-page": reverse("league-memorial", args=[league.pk]),
        "player-page": reverse("player-detail", args=[player]),
    }


@pytest.mark.parametrize(
    "name",
    [
        "leaders-api",
        "leaders-csv",
        "records-api",
        "team-leaders-api",
        "player-api",
        "leaders-page",
        "records-page",
        "memorial-page",
        "player-page",
    ],
)
def test_issue14_reads_stay_within_five_queries_at_any_league_size(client, big, name, django_assert_max_num_queries):
    """Issue 12/14: constant queries (no query per team, player or match), pinned at 4 and 400 teams."""
    url = _urls(big)[name]
    with django_assert_max_num_queries(BUDGET):
        response = client.get(url)
    assert response.status_code == 200, response.content[:300]
