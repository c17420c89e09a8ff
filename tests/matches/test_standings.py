"""Standings: the league's tie-breakers, with head-to-head as a mini-table of the level teams."""

from matches.models import Match, MatchTeam
from matches.selectors import league_standings
from tests.factories import LeagueFactory, TeamFactory


def final(league, user, home, away, score, *, cas=(0, 0)):
    """A final match written directly: the standings read only MatchTeam lines of final matches."""
    match = Match.objects.create(league=league, created_by=user, status=Match.Status.FINAL)
    outcome = {1: ("win", "loss"), 0: ("draw", "draw"), -1: ("loss", "win")}[
        (score[0] > score[1]) - (score[0] < score[1])
    ]
    points = {"win": 3, "draw": 1, "loss": 0}
    for order, (team, goals, result, c) in enumerate(zip((home, away), score, outcome, cas, strict=True)):
        MatchTeam.objects.create(
            match=match,
            team=team,
            order=order,
            score=goals,
            outcome=result,
            league_points=points[result],
            casualties_inflicted=c,
        )


def test_a_head_to_head_cycle_of_three_level_teams_falls_through_to_the_name(commissioner):
    """H: tie-breakers points, touchdown difference, casualties, head-to-head, name. A beat B, B beat C and
    C beat A by the same score: the mini-table is level (3 points each), so the names decide — every time."""
    league = LeagueFactory(created_by=commissioner)
    a, b, c = (TeamFactory(league=league, name=n) for n in ("Cobras", "Adders", "Boas"))
    final(league, commissioner, a, b, (1, 0))
    final(league, commissioner, b, c, (1, 0))
    final(league, commissioner, c, a, (1, 0))
    rows = league_standings(league=league)
    assert [r["name"] for r in rows] == ["Adders", "Boas", "Cobras"]
    assert [r["position"] for r in rows] == [1, 2, 3]


def test_head_to_head_counts_only_the_matches_among_the_level_teams(commissioner):
    """Three teams level on points (4), difference (0) and casualties (0). Among themselves: Adders–Cobras
    1–1, Boas 1–0 Adders, Boas–Cobras 0–0, so the mini-table reads Boas 4, Cobras 2, Adders 1 — that order,
    not the alphabetical one."""
    league = LeagueFactory(created_by=commissioner)
    adders, boas, cobras = (TeamFactory(league=league, name=n) for n in ("Adders", "Boas", "Cobras"))
    other = TeamFactory(league=league, name="Dingoes")
    final(league, commissioner, adders, cobras, (1, 1))
    final(league, commissioner, boas, adders, (1, 0))
    final(league, commissioner, boas, cobras, (0, 0))
    final(league, commissioner, other, boas, (1, 0))  # Boas: 3 + 1 + 0 = 4 points, +1 − 1 = 0
    final(league, commissioner, cobras, other, (0, 0))  # Cobras: 1 + 1 + 1 + 1 = 4 points, difference 0
    final(league, commissioner, other, cobras, (0, 0))
    final(league, commissioner, adders, other, (1, 0))  # Adders: 1 + 0 + 3 = 4 points, 0 − 1 + 1 = 0
    rows = {r["name"]: r for r in league_standings(league=league)}
    level = [rows[n] for n in ("Adders", "Boas", "Cobras")]
    assert {(r["points"], r["difference"], r["casualties_inflicted"]) for r in level} == {(4, 0, 0)}
    order = [r["name"] for r in league_standings(league=league) if r["name"] != "Dingoes"]
    assert order == ["Boas", "Cobras", "Adders"]


def test_a_team_that_has_not_played_is_in_the_table_with_zeros(commissioner):
    league = LeagueFactory(created_by=commissioner)
    TeamFactory(league=league, name="Solo")
    rows = league_standings(league=league)
    assert [(r["name"], r["played"], r["points"], r["position"]) for r in rows] == [("Solo", 0, 0, 1)]
