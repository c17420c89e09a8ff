"""A Blitz Bowl league of four teams, each with eleven players, ready to play."""

from __future__ import annotations

import pytest

from tests.factories import TeamFactory, hire


def full_team(league, coach, name, roster="hume", position="lineman", n=11):
    team = TeamFactory(league=league, coach=coach, name=name, roster=roster)
    for i in range(n):
        hire(team, position, name=f"{name} {i + 1}", number=i + 1)
    return team


@pytest.fixture
def home(league, coach):
    return full_team(league, coach, "Home")


@pytest.fixture
def away(league, other_coach):
    return full_team(league, other_coach, "Away")


@pytest.fixture
def play(api_as):
    """`play(match_id, body, submitter, confirmer)`: submit and confirm a result through the API."""

    def run(match_id, body, submitter, confirmer):
        response = api_as(submitter).post(f"/api/v1/matches/{match_id}/result/", body, format="json")
        assert response.status_code == 201, response.json()
        response = api_as(confirmer).post(f"/api/v1/matches/{match_id}/confirm/")
        assert response.status_code == 200, response.json()
        return response.json()

    return run
