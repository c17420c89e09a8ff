"""Reads are planned: API lists cost the same number of queries for a small or a large league."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import LeagueFactory, TeamFactory, hire


def fill(league, teams: int, players: int) -> None:
    for _ in range(teams):
        team = TeamFactory(league=league)
        for n in range(players):
            hire(team, "lineman", name=f"P{n}", number=n + 1)


def count_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_team_list_costs_the_same_queries_for_2_or_8_teams(api, commissioner):
    small, large = LeagueFactory(created_by=commissioner), LeagueFactory(created_by=commissioner)
    fill(small, 2, 2)
    fill(large, 8, 11)
    assert count_queries(api, f"/api/v1/teams/?league={small.pk}") == count_queries(
        api, f"/api/v1/teams/?league={large.pk}"
    )


def test_team_detail_costs_the_same_queries_for_1_or_16_players(api, league):
    a, b = TeamFactory(league=league), TeamFactory(league=league)
    hire(a, "lineman")
    for n in range(15):
        hire(b, "lineman", name=f"P{n}")
    assert count_queries(api, f"/api/v1/teams/{a.pk}/") == count_queries(api, f"/api/v1/teams/{b.pk}/")


def test_league_list_costs_the_same_queries_for_1_or_6_leagues(api, commissioner):
    LeagueFactory(created_by=commissioner)
    one = count_queries(api, "/api/v1/leagues/")
    for _ in range(5):
        LeagueFactory(created_by=commissioner)
    assert count_queries(api, "/api/v1/leagues/") == one
