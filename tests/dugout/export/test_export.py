"""api-v1 `GET /leagues/{id}/export/`: the whole league as one JSON document, public, in a fixed number of
queries whatever the league's size."""

import json

from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import Match
from tests.factories import LeagueFactory
from tests.matches.conftest import full_team


def export_doc(client, league_id: int) -> dict:
    """The export, read to its end (it streams) and parsed."""
    response = client.get(f"/api/v1/leagues/{league_id}/export/")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return json.loads(b"".join(response.streaming_content))


def count_queries(client, url: str) -> int:
    """Queries of a streamed answer, counted until its last byte."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
        assert response.status_code == 200
        b"".join(response.streaming_content)
    return len(ctx.captured_queries)


def played_league(commissioner, coaches, teams: int) -> tuple:
    """A Blitz Bowl league of `teams` teams where the first two played a match (a touchdown, an injury)."""
    league = LeagueFactory(created_by=commissioner, house_rules_overrides={"coach_may_run_several_teams": True})
    built = [full_team(league, coaches[i % len(coaches)], f"Team {i}") for i in range(teams)]
    return league, built


def play(api_as, league, home, away, commissioner):
    mid = (
        api_as(commissioner)
        .post("/api/v1/matches/", {"league": league.pk, "teams": [home.pk, away.pk]}, format="json")
        .json()["id"]
    )
    scorer = home.players.order_by("number").first()
    body = {
        "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 0}],
        "players": [{"player": scorer.pk, "touchdowns": 1}],
    }
    response = api_as(home.coach).post(f"/api/v1/matches/{mid}/result/", body, format="json")
    assert response.status_code == 201, response.json()
    assert api_as(commissioner).post(f"/api/v1/matches/{mid}/confirm/").status_code == 200
    return mid, scorer


def test_the_export_holds_league_rules_teams_players_with_history_matches_ledgers_and_rolls(
    api, api_as, commissioner, coach, other_coach
):
    league, (home, away) = played_league(commissioner, [coach, other_coach], 2)
    mid, scorer = play(api_as, league, home, away, commissioner)
    doc = export_doc(api, league.pk)
    assert doc["league"]["id"] == league.pk and doc["house_rules"]["starting_treasury"] == 100000
    assert [t["name"] for t in doc["teams"]] == ["Team 0", "Team 1"]
    player = next(p for t in doc["teams"] for p in t["players"] if p["id"] == scorer.pk)
    assert [(h["match_id"], h["touchdowns"], h["spp"]) for h in player["history"]] == [(mid, 1, 3)]
    (match,) = doc["matches"]
    assert (match["id"], match["status"], match["prematch"], match["inducements"]) == (mid, "final", None, [])
    # 100,000 − 11 linemen × 5,000 = 45,000, in 12 entries.
    assert [e["balance_after"] for e in doc["ledgers"][str(home.pk)]][-1] == 45000
    assert len(doc["ledgers"][str(home.pk)]) == 12
    assert doc["rolls"] == [] and doc["reports"] == []


def test_the_export_costs_the_same_queries_for_a_small_or_a_large_league(api, api_as, commissioner, coach, other_coach):
    small, (a, b) = played_league(commissioner, [coach, other_coach], 2)
    play(api_as, small, a, b, commissioner)
    large, teams = played_league(commissioner, [coach, other_coach], 6)
    play(api_as, large, teams[0], teams[1], commissioner)
    play(api_as, large, teams[2], teams[3], commissioner)
    assert Match.objects.filter(league=large).count() == 2
    assert count_queries(api, f"/api/v1/leagues/{small.pk}/export/") == count_queries(
        api, f"/api/v1/leagues/{large.pk}/export/"
    )
