"""A Blitz Bowl league whose teams play a known set of matches through the API (issue 14: players, leaders and
records worked out by hand from them)."""

from __future__ import annotations

import pytest

from tests.factories import LeagueFactory, TeamFactory, hire


def full_team(league, coach, name, n=11):
    team = TeamFactory(league=league, coach=coach, name=name, roster="hume")
    for i in range(n):
        hire(team, "lineman", name=f"{name} {i + 1}", number=i + 1)
    return team


@pytest.fixture
def league(commissioner):
    """Levels out of reach (no improvement roll to make in the post-match sequences these tests walk), and the
    same two teams may meet again and again."""
    return LeagueFactory(
        created_by=commissioner,
        name="Record Cup",
        ruleset="blitzbowl",
        house_rules_overrides={
            "level_thresholds": [100, 200, 300, 400, 500, 600],
            "max_consecutive_matches_vs_same_opponent": 9,
        },
    )


@pytest.fixture
def home(league, coach):
    return full_team(league, coach, "Home")


@pytest.fixture
def away(league, other_coach):
    return full_team(league, other_coach, "Away")


STEPS = [
    {"step": "improvements", "choices": {"improvements": {}}},
    {"step": "team_stats"},
    {
        "step": "fortune",
        "rolls": {"winnings": [4], "fan_factor": [6, 6, 6]},
        "choices": {"reroll_winnings": False, "seek_sponsor": False},
    },
    {"step": "hire_fire"},
    {"step": "prepare", "rolls": {"expensive_mistakes": [6]}},
]


@pytest.fixture
def play(api_as):
    """`play(home, away, body, submitter, confirmer)`: schedule, submit and confirm a result through the API and
    walk both teams' post-match sequences; the match's id."""

    def run(home, away, body, submitter, confirmer):
        client = api_as(submitter)
        match_id = client.post(
            "/api/v1/matches/", {"league": home.league_id, "teams": [home.pk, away.pk]}, format="json"
        ).json()
        assert "id" in match_id, match_id
        match_id = match_id["id"]
        response = client.post(f"/api/v1/matches/{match_id}/result/", body, format="json")
        assert response.status_code == 201, response.json()
        response = api_as(confirmer).post(f"/api/v1/matches/{match_id}/confirm/")
        assert response.status_code == 200, response.json()
        for team, user in ((home, submitter), (away, confirmer)):
            for step in STEPS:
                response = api_as(user).post(f"/api/v1/matches/{match_id}/aftermath/{team.pk}/", step, format="json")
                assert response.status_code == 200, response.json()
        return match_id

    return run


def _players(home, away):
    by_name = {p.name: p for p in [*home.players.all(), *away.players.all()]}
    return by_name["Home 1"], by_name["Home 2"], by_name["Away 1"]


@pytest.fixture
def history(api_as, league, home, away, coach, other_coach, commissioner, play):
    """Season 1: Home 2-1 Away (Home 1: 2 TD, 1 completion; Away 1: 1 TD, 1 casualty, MVP; Home 2: MVP), then
    Home 1-0 Away (Home 2: 1 TD, 1 interception, MVP). Season 2: Away 3-0 Home (Away 1: 3 TD)."""
    h1, h2, a1 = _players(home, away)
    first = play(
        home,
        away,
        {
            "teams": [
                {"team": home.pk, "score": 2, "mvp": h2.pk},
                {"team": away.pk, "score": 1, "casualties_inflicted": 1, "mvp": a1.pk},
            ],
            "players": [
                {"player": h1.pk, "touchdowns": 2, "completions": 1},
                {"player": a1.pk, "touchdowns": 1, "casualties": 1},
            ],
        },
        coach,
        other_coach,
    )
    second = play(
        home,
        away,
        {
            "teams": [{"team": home.pk, "score": 1, "mvp": h2.pk}, {"team": away.pk, "score": 0}],
            "players": [{"player": h2.pk, "touchdowns": 1, "interceptions": 1}],
        },
        coach,
        other_coach,
    )
    response = api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/seasons/", {"name": "Two"}, format="json")
    assert response.status_code == 201, response.json()
    third = play(
        home,
        away,
        {
            "teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 3}],
            "players": [{"player": a1.pk, "touchdowns": 3}],
        },
        coach,
        other_coach,
    )
    return {"h1": h1, "h2": h2, "a1": a1, "matches": [first, second, third]}
