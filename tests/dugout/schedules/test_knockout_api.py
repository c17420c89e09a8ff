"""Knockouts through the API (issue 13, "Schedules"; rules: ../shared/rules/blitzbowl.md "League": match kinds;
decisions: docs/decisions/ "Pure schedule generators" and "Generated schedules as matches")."""

from __future__ import annotations

import pytest

from matches.models import Match, MatchTeam
from tests.dugout.schedules.helpers import pairs
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db

URL = "/api/v1/leagues/{}/schedule/"
STEPS = [
    ("improvements", {}, {}),
    ("team_stats", {}, {}),
    ("fortune", {"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [4], "fan_factor": [2, 2, 2]}),
    ("hire_fire", {}, {}),
    ("prepare", {}, {"expensive_mistakes": [6]}),
]


def walk(client, mid: int, team_id: int) -> None:
    """The team's post-match sequence, every step through the API (no improvement: nobody earned SPP enough)."""
    for step, choices, rolls in STEPS:
        r = client.post(
            f"/api/v1/matches/{mid}/aftermath/{team_id}/",
            {"step": step, "choices": choices, "rolls": rolls},
            format="json",
        )
        assert r.status_code == 200, (step, r.json())
        assert r.json()["pending"] is None, (step, r.json())
    assert r.json()["complete"] is True


def play(api_as, mid: int, home, away, score: tuple[int, int], submitter, confirmer) -> None:
    """A result: each touchdown scored by the side's first players, no MVP."""
    players = []
    for team, goals in ((home, score[0]), (away, score[1])):
        scorers = list(team.players.order_by("number"))
        players += [{"player": scorers[i].pk, "touchdowns": 1} for i in range(goals)]
    body = {
        "teams": [{"team": home.pk, "score": score[0]}, {"team": away.pk, "score": score[1]}],
        "players": players,
    }
    r = api_as(submitter).post(f"/api/v1/matches/{mid}/result/", body, format="json")
    assert r.status_code == 201, r.json()
    r = api_as(confirmer).post(f"/api/v1/matches/{mid}/confirm/")
    assert r.status_code == 200, r.json()


@pytest.fixture
def four(league, commissioner):
    from tests.factories import UserFactory

    teams = [full_team(league, UserFactory(), f"Seed {x}") for x in "ABCD"]
    return teams


def test_golden_a_four_team_knockout_seeded_from_the_table_is_played_to_the_final(api_as, league, commissioner, four):
    """The table first: a generated round robin of A B C D (circle method: A–D B–C / C–A D–B / A–B C–D), every
    match decided by a forfeit of the later letter, so A 9, B 6, C 3, D 0 points (R: win 3, loss 0).

    `from_standings: 4` seeds A B C D; standard seeding pairs 1 v 4 and 2 v 3, the better seed at home, both
    `playoff`. A beats D 1–0, C beats B 2–1: once both are final the final is created by itself — A (the
    better seed) at home v C, kind `final` — and A wins it 2–0: the champion."""
    A, B, C, D = four
    client = api_as(commissioner)
    rr = client.post(
        URL.format(league.pk),
        {"format": "round_robin", "start": "2027-01-04", "teams": [t.pk for t in four]},
        format="json",
    ).json()
    assert [pairs(rnd["matches"]) for rnd in rr["rounds"]] == [
        [(A.pk, D.pk), (B.pk, C.pk)],
        [(C.pk, A.pk), (D.pk, B.pk)],
        [(A.pk, B.pk), (C.pk, D.pk)],
    ]
    order = {t.pk: i for i, t in enumerate(four)}
    for rnd in rr["rounds"]:
        for mid, (home, away) in zip(rnd["matches"], pairs(rnd["matches"]), strict=True):
            loser = max(home, away, key=order.__getitem__)
            r = client.post(f"/api/v1/matches/{mid}/forfeit/", {"team": loser, "reason": "Table."}, format="json")
            assert r.status_code == 200, r.json()
    table = api_as(None).get(f"/api/v1/leagues/{league.pk}/standings/").json()["rows"]
    assert [(row["team"], row["points"]) for row in table][:4] == [(A.pk, 9), (B.pk, 6), (C.pk, 3), (D.pk, 0)]

    r = client.post(
        URL.format(league.pk), {"format": "knockout", "from_standings": 4, "start": "2027-02-01"}, format="json"
    )
    assert r.status_code == 201, r.json()
    first = r.json()["rounds"]
    assert len(first) == 1 and first[0]["kind"] == "playoff" and first[0]["bye"] is None
    semi_ad, semi_bc = first[0]["matches"]
    assert pairs([semi_ad, semi_bc]) == [(A.pk, D.pk), (B.pk, C.pk)]
    assert set(Match.objects.filter(pk__in=[semi_ad, semi_bc]).values_list("kind", flat=True)) == {"playoff"}
    bracket = api_as(None).get(f"/api/v1/leagues/{league.pk}/bracket/").json()
    assert bracket["champion"] is None and [len(r["matches"]) for r in bracket["rounds"]] == [2]

    play(api_as, semi_ad, A, D, (1, 0), A.coach, D.coach)
    assert len(api_as(None).get(f"/api/v1/leagues/{league.pk}/bracket/").json()["rounds"]) == 1  # still waiting
    play(api_as, semi_bc, B, C, (1, 2), B.coach, C.coach)
    bracket = api_as(None).get(f"/api/v1/leagues/{league.pk}/bracket/").json()
    assert [[m["winner"] for m in rnd["matches"]] for rnd in bracket["rounds"]] == [[A.pk, C.pk], [None]]
    final = bracket["rounds"][1]
    assert (final["kind"], final["starts"], final["deadline"]) == ("final", "2027-02-08", "2027-02-14")
    final_id = final["matches"][0]["id"]
    assert final["matches"][0]["teams"] == [A.pk, C.pk]
    m = Match.objects.get(pk=final_id)
    assert (m.kind, m.round, m.season) == ("final", 2, 1)

    walk(api_as(A.coach), semi_ad, A.pk)
    walk(api_as(C.coach), semi_bc, C.pk)
    play(api_as, final_id, A, C, (2, 0), C.coach, A.coach)
    bracket = api_as(None).get(f"/api/v1/leagues/{league.pk}/bracket/").json()
    assert bracket["champion"] == A.pk
    assert bracket["rounds"][1]["matches"][0]["winner"] == A.pk
    assert Match.objects.filter(kind="final").count() == 1  # the final made no round after it


def test_byes_go_to_the_top_seeds_when_the_field_is_not_a_power_of_two(api_as, league, commissioner, four):
    """Three teams listed in seed order: a bracket of four, so seed 1 goes through round 1 on a bye and seeds 2
    and 3 meet (the better at home); when that match is forfeited, the final pairs seed 1 with its winner."""
    A, B, C, _D = four
    client = api_as(commissioner)
    r = client.post(
        URL.format(league.pk), {"format": "knockout", "teams": [A.pk, B.pk, C.pk], "start": "2027-02-01"}, format="json"
    )
    assert r.status_code == 201, r.json()
    (rnd,) = r.json()["rounds"]
    assert rnd["bye"] == A.pk and pairs(rnd["matches"]) == [(B.pk, C.pk)]
    client.post(f"/api/v1/matches/{rnd['matches'][0]}/forfeit/", {"team": B.pk, "reason": "No show."}, format="json")
    bracket = api_as(None).get(f"/api/v1/leagues/{league.pk}/bracket/").json()
    assert bracket["rounds"][0]["byes"] == [A.pk]
    assert bracket["rounds"][1]["kind"] == "final" and bracket["rounds"][1]["matches"][0]["teams"] == [A.pk, C.pk]


def test_h_a_drawn_knockout_match_sends_the_better_seed_through(api_as, league, commissioner, four):
    """H (the rulebooks are silent; docs/decisions/ "Generated schedules as matches"): a drawn knockout match
    is won by the better seed — no replay to arrange, and the seeding already rewards the better table."""
    A, B, *_ = four
    client = api_as(commissioner)
    r = client.post(
        URL.format(league.pk), {"format": "knockout", "teams": [A.pk, B.pk], "start": "2027-02-01"}, format="json"
    )
    (rnd,) = r.json()["rounds"]
    assert rnd["kind"] == "final"
    play(api_as, rnd["matches"][0], A, B, (1, 1), A.coach, B.coach)
    bracket = api_as(None).get(f"/api/v1/leagues/{league.pk}/bracket/").json()
    assert bracket["champion"] == A.pk
    assert set(MatchTeam.objects.filter(match_id=rnd["matches"][0]).values_list("outcome", flat=True)) == {"draw"}


def test_the_bracket_of_a_season_without_a_knockout_is_empty(api, league):
    assert api.get(f"/api/v1/leagues/{league.pk}/bracket/").json() == {
        "rounds": [],
        "champion": None,
        "seeds": [],
        "names": {},
    }
