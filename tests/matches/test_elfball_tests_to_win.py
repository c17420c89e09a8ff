"""ElfBall's Tests to win has no upper limit in the rulebook (../shared/rules/elfball.md "Matches": R the first
team to win N Tests wins, N agreed before the match, usually 2 or 3; H league default 2). Through the API
(../shared/docs/api-v1.md "Matches": `tests_to_win?`), the schedule page and the house rules.

I: N is a whole number of at least 1; `MAX_TESTS_TO_WIN` (99) only refuses absurd input.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaigns.rulesets.elfball.rules import MAX_TESTS_TO_WIN
from matches.models import Match
from tests.invites import invite_and_accept

from .elfball_helpers import ElfSeason, goals, refused

pytestmark = pytest.mark.django_db

RAZORBACKS = ["hunter"] * 4 + ["midfielder"] * 4


def league_of_two() -> tuple[ElfSeason, int, int, int]:
    s = ElfSeason()
    for name in ("commish", "ann", "ben"):
        s.register(name)
    league = s.post("commish", "/api/v1/leagues/", {"name": "Long Cup", "ruleset": "elfball"})["id"]
    for coach in ("ann", "ben"):
        invite_and_accept(s, commissioner="commish", league=league, who=coach)
    a = s.build("ann", league, "Ash Razorbacks", "razorbacks", RAZORBACKS)
    b = s.build("ben", league, "Bog Razorbacks", "razorbacks", RAZORBACKS)
    return s, league, a, b


def test_a_match_of_twelve_tests_to_win_is_scheduled_and_played_through_the_api():
    """R: the first team to win N Tests wins — N = 12, above the old undocumented cap of 9: the match is scheduled,
    a 12–5 result with one goal per Test won is accepted, and the 12 wins."""
    s, league, a, b = league_of_two()
    mid = s.schedule("ann", league, a, b, tests_to_win=12)
    assert s.get(f"/api/v1/matches/{mid}/")["tests_to_win"] == 12
    ids_a, ids_b = list(s.ids(a).values()), list(s.ids(b).values())
    s.submit(
        "ann",
        mid,
        {
            "teams": [{"team": a, "score": 12}, {"team": b, "score": 5}],
            "goals": [*goals(a, ids_a[:4], 12), *goals(b, ids_b[:4], 5)],
        },
    )
    s.confirm("ben", mid)
    sides = {x["team"]: x for x in s.get(f"/api/v1/matches/{mid}/")["sides"]}
    assert (sides[a]["score"], sides[a]["outcome"], sides[b]["outcome"]) == (12, "win", "loss")


def test_tests_to_win_is_a_whole_number_from_one_up_to_the_technical_bound():
    """R: N Tests, N agreed before the match; I: N ≥ 1, and only absurd input above `MAX_TESTS_TO_WIN` (99) is
    refused — 400 naming `tests_to_win`, nothing scheduled."""
    s, league, a, b = league_of_two()
    body = {"league": league, "teams": [a, b]}
    assert s.post("ann", "/api/v1/matches/", {**body, "tests_to_win": MAX_TESTS_TO_WIN})["tests_to_win"] == 99
    for bad in (0, -1, MAX_TESTS_TO_WIN + 1, "many"):
        refused(
            s.clients["ann"].post("/api/v1/matches/", {**body, "tests_to_win": bad}, format="json"), 400, "tests_to_win"
        )
    assert Match.objects.count() == 1


def test_the_league_default_tests_to_win_may_be_set_above_nine_but_not_below_one():
    """H: the league default is 2 and the commissioner may change it: 15 is accepted and a match scheduled without
    `tests_to_win` takes it; 0 and absurd values are refused (400 on `tests_to_win`)."""
    s, league, a, b = league_of_two()
    client = s.clients["commish"]
    answer = client.patch(f"/api/v1/leagues/{league}/", {"house_rules": {"tests_to_win": 15}}, format="json")
    assert answer.status_code == 200, answer.json()
    assert s.get(f"/api/v1/matches/{s.schedule('ann', league, a, b)}/")["tests_to_win"] == 15
    for bad in (0, MAX_TESTS_TO_WIN + 1, 10**9):
        answer = client.patch(f"/api/v1/leagues/{league}/", {"house_rules": {"tests_to_win": bad}}, format="json")
        body = refused(answer, 400, "tests_to_win")
        assert "no limit" in " ".join(body["tests_to_win"])
    created = s.clients["ann"].post(
        "/api/v1/leagues/",
        {"name": "Zero Cup", "ruleset": "elfball", "house_rules": {"tests_to_win": 0}},
        format="json",
    )
    refused(created, 400, "tests_to_win")


def test_the_schedule_page_accepts_more_than_nine_tests_to_win(client):
    """R: N agreed before the match, no limit in the rulebook: the schedule page stores 10 and the result page
    offers a row for each of the 10 goals a team can score."""
    _, league, a, b = league_of_two()
    client.force_login(get_user_model().objects.get(username="ann"))
    url = f"{reverse('match-schedule')}?league={league}"
    client.post(url, {"home": a, "away": b, "kind": "league", "tests_to_win": 10})
    match = Match.objects.get()
    assert match.tests_to_win == 10
    page = client.get(reverse("match-result", args=[match.pk])).content.decode()
    assert f'id="goal-{b}-10"' in page and f'id="goal-{b}-11"' not in page
