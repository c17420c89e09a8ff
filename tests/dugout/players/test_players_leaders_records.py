"""Issue 14 (api-v1 v1.1 "Players and leaders"): a player's career, the leaders and the records, each equal to
the numbers worked out by hand from three matches played through the API across two seasons; a commissioner's
correction changes them all. SPP by the rulebook (R, Blitz Bowl "Star Player Points": TD 3, casualty 2,
completion 1, interception 2, MVP 5)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def leaders(api, league, stat, season=None):
    query = f"?stat={stat}" + (f"&season={season}" if season is not None else "")
    response = api.get(f"/api/v1/leagues/{league.pk}/leaders/{query}")
    assert response.status_code == 200, response.content
    return [(r["position"], r["name"], r["value"]) for r in response.json()["rows"]]


def test_player_api_career_seasons_and_history_are_his_match_rows(api, history, home, away):
    """Issue 14 (contract: career, seasons[], history[] newest first with opponent and injury)."""
    a1 = history["a1"]
    body = api.get(f"/api/v1/players/{a1.pk}/").json()
    assert body["id"] == a1.pk and body["team"] == away.pk and body["name"] == "Away 1"
    assert body["career"] == {
        "matches": 3,  # the second match too: he played it, without a stat line
        "touchdowns": 4,
        "casualties": 1,
        "completions": 0,
        "interceptions": 0,
        "mvp": 1,
        "spp": 3 + 2 + 5 + 9,
    }
    assert [(s["season"], s["matches"], s["touchdowns"], s["spp"]) for s in body["seasons"]] == [
        (1, 2, 1, 10),
        (2, 1, 3, 9),
    ]
    first, second, third = history["matches"]
    assert [(h["match"], h["season"], h["opponent"], h["touchdowns"]) for h in body["history"]] == [
        (third, 2, home.pk, 3),
        (second, 1, home.pk, 0),
        (first, 1, home.pk, 1),
    ]
    assert body["history"][0]["played_at"] and body["history"][0]["injury"] is None


def test_leaders_for_each_stat_in_a_season_and_all_time_ties_by_name(api, league, history):
    """Issue 14: the top 10 by the stat, ties by name (H docs/decisions/ "Leaders"); default the open season."""
    assert leaders(api, league, "touchdowns", 1) == [(1, "Home 1", 2), (2, "Away 1", 1), (3, "Home 2", 1)]
    assert leaders(api, league, "touchdowns") == [(1, "Away 1", 3)]
    assert leaders(api, league, "touchdowns", "all") == [(1, "Away 1", 4), (2, "Home 1", 2), (3, "Home 2", 1)]
    assert leaders(api, league, "spp", "all") == [(1, "Away 1", 19), (2, "Home 2", 15), (3, "Home 1", 7)]
    assert leaders(api, league, "mvp", "all") == [(1, "Home 2", 2), (2, "Away 1", 1)]
    assert leaders(api, league, "casualties", "all") == [(1, "Away 1", 1)]
    assert leaders(api, league, "completions", 1) == [(1, "Home 1", 1)]
    assert leaders(api, league, "interceptions", "all") == [(1, "Home 2", 1)]
    # Every player of both teams played all three matches: the top 10 by name.
    names = sorted([f"Away {n}" for n in range(1, 12)] + [f"Home {n}" for n in range(1, 12)])[:10]
    assert leaders(api, league, "matches", "all") == [(i, name, 3) for i, name in enumerate(names, start=1)]


def test_leaders_refuse_an_unknown_stat_or_season_with_400(api, league, history):
    """Issue 14: 400 for an unknown stat (of the ruleset) or season."""
    for query in ("stat=goals", "stat=touchdowns&season=3", "stat=touchdowns&season=x", ""):
        response = api.get(f"/api/v1/leagues/{league.pk}/leaders/?{query}")
        assert response.status_code == 400, query
    assert api.get("/api/v1/leagues/999999/leaders/?stat=touchdowns").status_code == 404


def test_leaders_and_standings_as_csv_with_a_header_row(api, league, history):
    """Contract v1.1 "Feeds, exports": text/csv with a header row."""
    response = api.get(f"/api/v1/leagues/{league.pk}/leaders/?stat=touchdowns&season=all&format=csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    assert lines[0] == '"position","player","name","team","team_name","value"'  # every field quoted
    assert lines[1].endswith(f',"Away 1","{history["a1"].team_id}","Away","4"')
    response = api.get(f"/api/v1/leagues/{league.pk}/standings/?format=csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    assert '"team"' in lines[0].split(",") and len(lines) == 3


def test_records_worked_out_by_hand(api, league, history, home, away):
    """Issue 14 records: most TDs in a match, a season, a career; biggest win by margin then score; the longest
    unbeaten run (wins and draws, H docs/decisions/); the season champions."""
    body = api.get(f"/api/v1/leagues/{league.pk}/records/").json()
    td = body["players"]["touchdowns"]
    expected = [("Away 1", 3), ("Home 1", 2), ("Away 1", 1), ("Home 2", 1)]
    assert [(r["name"], r["value"]) for r in td["match"]] == expected
    assert [(r["name"], r["season"], r["value"]) for r in td["season"]][:2] == [("Away 1", 2, 3), ("Home 1", 1, 2)]
    assert [(r["name"], r["value"]) for r in td["career"]] == [("Away 1", 4), ("Home 1", 2), ("Home 2", 1)]
    assert [(r["name"], r["value"]) for r in body["players"]["casualties"]["career"]] == [("Away 1", 1)]
    assert [(w["match"], w["margin"], w["score"]) for w in body["biggest_wins"]] == [
        (history["matches"][2], 3, [3, 0]),
        (history["matches"][0], 1, [2, 1]),
        (history["matches"][1], 1, [1, 0]),
    ]
    assert [(r["team_name"], r["value"]) for r in body["unbeaten_runs"]] == [("Home", 2), ("Away", 1)]
    assert [(c["season"], c["team"]) for c in body["champions"]] == [(1, home.pk)]


def test_a_commissioners_correction_changes_player_leaders_and_records(
    api, api_as, league, history, home, away, commissioner
):
    """Issue 14: all derived from the per-match rows, cached per table version: a correction shows at once."""
    third, a1, h1 = history["matches"][2], history["a1"], history["h1"]
    assert leaders(api, league, "touchdowns", "all")[0] == (1, "Away 1", 4)  # cached now
    corrected = {
        "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 1}],
        "players": [{"player": a1.pk, "touchdowns": 1}, {"player": h1.pk, "touchdowns": 1}],
    }
    response = api_as(commissioner).post(f"/api/v1/matches/{third}/correct/", corrected, format="json")
    assert response.status_code == 200, response.json()
    assert leaders(api, league, "touchdowns", "all") == [(1, "Home 1", 3), (2, "Away 1", 2), (3, "Home 2", 1)]
    assert api.get(f"/api/v1/players/{a1.pk}/").json()["career"]["touchdowns"] == 2
    body = api.get(f"/api/v1/leagues/{league.pk}/records/").json()
    assert body["biggest_wins"][0]["margin"] == 1
    assert [(r["team_name"], r["value"]) for r in body["unbeaten_runs"]] == [("Home", 3), ("Away", 1)]
