"""Issue 14, "Leaders": the teams' leaderboards (Blitz Bowl team value, treasury, Fan Factor, win rate) through the
API and on the page, from the three matches of the `history` fixture (season 1: Home won both; season 2: Away
won). The win counts are cached under the league's table version: a correction shows at once."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def boards(api, league, season=None) -> dict[str, list[tuple[str, int]]]:
    query = "" if season is None else f"?season={season}"
    response = api.get(f"/api/v1/leagues/{league.pk}/leaders/teams/{query}")
    assert response.status_code == 200, response.content
    body = response.json()
    assert [row["position"] for board in body["boards"] for row in board["rows"][:1]] == [1] * len(body["boards"])
    return {board["key"]: [(row["name"], row["value"]) for row in board["rows"]] for board in body["boards"]}


def test_win_rates_worked_by_hand_for_each_season_and_all_time(api, league, history):
    """Wins ÷ final matches of the season asked, in per cent, rounded (H); ties by name."""
    assert boards(api, league, 1)["win_rate"] == [("Home", 100), ("Away", 0)]
    assert boards(api, league)["win_rate"] == [("Away", 100), ("Home", 0)]  # the open season, two
    assert boards(api, league, "all")["win_rate"] == [("Home", 67), ("Away", 33)]  # 2 of 3, 1 of 3


def test_value_treasury_and_fan_factor_are_the_teams_as_they_stand(api, league, history, home, away):
    """The same numbers as each team's own API (the ruleset's team value, the ledger's treasury, the Fan Factor),
    highest first, in the order the ruleset lists its boards."""
    got = boards(api, league, "all")
    assert list(got) == ["team_value", "treasury", "fan_factor", "win_rate"]
    teams = {t["name"]: t for t in (api.get(f"/api/v1/teams/{x.pk}/").json() for x in (home, away))}
    for key, field in (("team_value", "team_value"), ("treasury", "treasury"), ("fan_factor", "fan_factor")):
        expected = sorted(((n, t[field]) for n, t in teams.items()), key=lambda p: (-p[1], p[0]))
        assert got[key] == expected, key


def test_a_correction_changes_the_win_rates_at_once(api, api_as, league, history, home, away, commissioner):
    """The cached counts are the table version's: the third match corrected to a 1-1 draw."""
    assert boards(api, league, "all")["win_rate"] == [("Home", 67), ("Away", 33)]  # cached now
    third, a1, h1 = history["matches"][2], history["a1"], history["h1"]
    corrected = {
        "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 1}],
        "players": [{"player": a1.pk, "touchdowns": 1}, {"player": h1.pk, "touchdowns": 1}],
    }
    response = api_as(commissioner).post(f"/api/v1/matches/{third}/correct/", corrected, format="json")
    assert response.status_code == 200, response.json()
    assert boards(api, league, "all")["win_rate"] == [("Home", 67), ("Away", 0)]
    assert boards(api, league)["win_rate"] == [("Away", 0), ("Home", 0)]


def test_the_page_shows_the_same_boards(client, league, history):
    page = client.get(reverse("league-leaders", args=[league.pk]) + "?season=all").content.decode()
    assert 'id="teams-win_rate"' in page and 'id="teams-team_value"' in page
    section = page.split('id="teams-win_rate"')[1].split("</section>")[0]
    assert section.index(">Home<") < section.index(">Away<") and ">67<" in section and ">33<" in section


def test_an_unknown_season_is_a_400_and_an_unknown_league_a_404(api, league, history):
    assert api.get(f"/api/v1/leagues/{league.pk}/leaders/teams/?season=9").status_code == 400
    assert api.get("/api/v1/leagues/999999/leaders/teams/").status_code == 404
