"""A round robin refused for too few teams ready to play says so: how many are ready (named), how many it needs
and why, and which teams are not ready yet — not the consecutive-meetings rule, which only follows from it
(rules: ../shared/rules/blitzbowl.md "League")."""

from __future__ import annotations

import pytest

from campaigns import scheduling
from league.models import Division
from matches.models import Match, Schedule
from tests.dugout.schedules.helpers import ready_teams
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/leagues/{}/schedule/"
BODY = {"format": "round_robin", "start": "2027-01-04"}


def in_creation(league, *names: str) -> list[int]:
    return [TeamFactory(league=league, name=name).pk for name in names]


def met_twice(client, league, a: int, b: int) -> None:
    """A and B have just met twice in a row (two forfeits: final matches, no roster needed)."""
    for _ in range(2):
        mid = client.post("/api/v1/matches/", {"league": league.pk, "teams": [a, b]}, format="json").json()["id"]
        client.post(f"/api/v1/matches/{mid}/forfeit/", {"team": b, "reason": "No show."}, format="json")


def test_two_ready_teams_that_just_met_twice_are_told_a_third_is_needed_and_who_is_not_ready(
    api_as, league, commissioner
):
    a, b = ready_teams(league, 2)
    in_creation(league, "Slowcoaches", "Latecomers")
    client = api_as(commissioner)
    met_twice(client, league, a, b)
    matches = Match.objects.count()
    r = client.post(URL.format(league.pk), BODY, format="json")
    assert r.status_code == 400, r.content
    assert r.json() == {
        "teams": [
            "Only 2 teams of the league are ready to play (Team A, Team B): a round robin needs 3 (two teams alone "
            "would meet 3 times in a row, and the rules allow 2 at most). Not ready yet (still in creation): "
            "Slowcoaches, Latecomers. A coach declares his team ready on its team sheet; or list the teams to "
            "schedule (a listed team leaves creation)."
        ]
    }
    assert Match.objects.count() == matches and not Schedule.objects.exists()


def test_one_ready_team_is_told_two_are_needed(api_as, league, commissioner):
    ready_teams(league, 1)
    in_creation(league, "Slowcoaches")
    r = api_as(commissioner).post(URL.format(league.pk), BODY, format="json")
    assert r.status_code == 400
    (words,) = r.json()["teams"]
    assert words.startswith("Only 1 team of the league is ready to play (Team A): a round robin needs 2.")
    assert "Not ready yet (still in creation): Slowcoaches." in words
    assert "in a row" not in words


def test_no_ready_team_names_those_in_creation(api_as, league, commissioner):
    in_creation(league, "Slowcoaches", "Latecomers")
    r = api_as(commissioner).post(URL.format(league.pk), BODY, format="json")
    assert r.status_code == 400
    (words,) = r.json()["teams"]
    assert words.startswith("No team of the league is ready to play: a round robin needs 2.")
    assert "Not ready yet (still in creation): Slowcoaches, Latecomers." in words


def test_two_ready_teams_with_no_recent_meetings_still_play_a_round_robin(api_as, league, commissioner):
    ready_teams(league, 2)
    in_creation(league, "Slowcoaches")
    r = api_as(commissioner).post(URL.format(league.pk), {**BODY, "legs": 2}, format="json")
    assert r.status_code == 201, r.json()


def test_listed_teams_keep_the_consecutive_rules_own_words(api_as, league, commissioner):
    """The commissioner chose the two teams himself: the rule is what refuses them, as before."""
    a, b = ready_teams(league, 2)
    client = api_as(commissioner)
    met_twice(client, league, a, b)
    r = client.post(URL.format(league.pk), {**BODY, "teams": [a, b]}, format="json")
    assert r.status_code == 400
    assert "in a row" in r.json()["teams"][0] and "ready" not in r.json()["teams"][0]


def test_a_division_with_too_few_ready_teams_is_named_with_its_teams(api_as, league, commissioner):
    a, b, c = ready_teams(league, 3)
    slow = in_creation(league, "Slowcoaches")
    north = Division.objects.create(league=league, name="North", order=0)
    south = Division.objects.create(league=league, name="South", order=1)
    league.teams.filter(pk__in=[a, b]).update(division=north)
    league.teams.filter(pk__in=[c, *slow]).update(division=south)
    r = api_as(commissioner).post(URL.format(league.pk), {**BODY, "per_division": True}, format="json")
    assert r.status_code == 400
    assert r.json() == {
        "division": [
            "Only 1 team of division South is ready to play (Team C): a round robin needs 2. Not ready yet (still "
            "in creation): Slowcoaches. A coach declares his team ready on its team sheet."
        ]
    }
    assert not Schedule.objects.exists()


@pytest.mark.parametrize(
    ("previous", "legs", "run", "needed"),
    [
        ({}, 1, 1, 2),
        ({}, 2, 2, 2),
        ({1: [2], 2: [1]}, 2, 3, 3),
        ({1: [2, 2], 2: [1, 1]}, 1, 3, 3),
        ({1: [2, 3], 2: [1]}, 1, 2, 2),  # team 1 met another since: its run against 2 restarted
    ],
)
def test_r_teams_needed_counts_the_pairs_run_after_its_previous_meetings(previous, legs, run, needed):
    assert scheduling.pair_run(1, 2, legs=legs, previous=previous) == run
    assert scheduling.teams_needed([1, 2], legs=legs, limit=2, previous=previous) == needed
    assert scheduling.teams_needed([1, 2], legs=legs, limit=None, previous=previous) == 2
    assert scheduling.teams_needed([1, 2, 3], legs=legs, limit=2, previous=previous) == 2


def test_the_start_is_still_checked_first(api_as, league, commissioner):
    in_creation(league, "Slowcoaches")
    r = api_as(commissioner).post(URL.format(league.pk), {"format": "round_robin"}, format="json")
    assert r.status_code == 400 and "start" in r.json()
