"""The weekly report's table, and its table a week ago, are the tables the season's sides give
(`matches.selectors.standings_from` over every final side, as the report counted them before it stopped reading
the season: docs/decisions/, 2026-12-01 "The weekly report reads the week, not the season"): the league's
table now without the week's sides, and without any later ones when the report is written late, ranked by
the league's tie-breakers with head-to-head read only for the level teams.

Five weeks of results between eight teams, drawn from a seeded generator with many draws so that teams are often
level on points; head-to-head is the first tie-breaker after points; two teams join during the season and one
final match has no confirmation time (it counts as played before any week)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from dugout.reports import build_report, results
from dugout.reports.week import BEFORE, Week
from league.models import League
from matches.models import Match, MatchTeam
from matches.selectors import league_standings, standings_from
from teams.models import Team
from tests.factories import LeagueFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db

BREAKERS = ["points", "head_to_head", "touchdown_difference", "name"]
COLUMNS = ("team", "position", "played", "won", "drawn", "lost", "points", "scored", "conceded", "previous_position")


def seeded_season(commissioner, now):
    league = LeagueFactory(
        created_by=commissioner,
        ruleset="blitzbowl",
        house_rules_overrides={"tie_breakers": BREAKERS, "coach_may_run_several_teams": True},
    )
    coach = UserFactory()
    teams = [
        TeamFactory(league=league, coach=coach, name=name) for name in ["Hg", "Fe", "Cu", "Ag", "Au", "Zn", "Sn", "Pb"]
    ]
    season_start = now - timedelta(days=35)
    Team.objects.filter(league=league).update(created_at=season_start - timedelta(days=1))
    for late, days in ((teams[6], 15), (teams[7], 29)):  # two teams join during the season
        Team.objects.filter(pk=late.pk).update(created_at=season_start + timedelta(days=days))
    joined = {t.pk: t.created_at for t in Team.objects.filter(league=league)}
    rng = random.Random(12)
    for n in range(60):
        moment = season_start + timedelta(hours=rng.randrange(35 * 24))
        home, away = rng.sample([t for t in teams if joined[t.pk] < moment], 2)
        home_score, away_score = rng.choice([(0, 0), (1, 1), (1, 0), (0, 1), (2, 1), (2, 2), (0, 2), (3, 0)])
        match = Match.objects.create(
            league=league,
            status="final",
            created_by=commissioner,
            confirmed_by=commissioner,
            confirmed_at=None if n == 0 else moment,
        )
        for order, (team, scored, conceded) in enumerate(
            ((home, home_score, away_score), (away, away_score, home_score))
        ):
            outcome = "win" if scored > conceded else "loss" if scored < conceded else "draw"
            MatchTeam.objects.create(
                match=match,
                team=team,
                order=order,
                score=scored,
                casualties_inflicted=rng.randrange(3),
                outcome=outcome,
                league_points={"win": 3, "draw": 1, "loss": 0}[outcome],
            )
    return League.objects.get(pk=league.pk)


def reference_table(league, start, end) -> list[tuple]:
    """The table at `end` with each team's position at `start`, from every final side of the season."""
    teams = list(Team.objects.filter(league=league).order_by("name", "pk"))
    sides = list(
        MatchTeam.objects.filter(match__league=league, match__status="final").values(
            "match_id", "team_id", "score", "casualties_inflicted", "outcome", "league_points", "match__confirmed_at"
        )
    )

    def table(until, everything=False):
        counted = [
            s for s in sides if everything or s["match__confirmed_at"] is None or s["match__confirmed_at"] < until
        ]
        existing = [(t.pk, t.name) for t in teams if everything or t.created_at < until]
        return standings_from(teams=existing, sides=counted, tie_breakers=BREAKERS)

    later = any(s["match__confirmed_at"] and s["match__confirmed_at"] >= end for s in sides)
    before = {row["team"]: row["position"] for row in table(start)}
    return [(*tuple(row[k] for k in COLUMNS[:-1]), before.get(row["team"])) for row in table(end, everything=not later)]


def test_the_reports_tables_are_the_seasons_whatever_the_week_and_however_late(commissioner):
    now = timezone.now()
    league = seeded_season(commissioner, now)
    late = 0
    for days_ago in range(0, 36, 3):  # the week ending now (nothing later), and weeks written later
        end = now - timedelta(days=days_ago)
        start = end - timedelta(days=7)
        report = build_report(league=league, week_start=start, week_end=end)
        assert [tuple(row[k] for k in COLUMNS) for row in report["table"]] == reference_table(league, start, end)
        late += Week(league, start, end).later_matches
    assert late == 11


def test_head_to_head_is_read_only_for_a_breaker_that_needs_it(commissioner, django_assert_num_queries):
    now = timezone.now()
    league = seeded_season(commissioner, now)
    week = Week(league, now - timedelta(days=7), now)
    counts = results._without(league_standings(league=league), week.week_sides)
    with django_assert_num_queries(2):  # teams level on points (many draws): their sides, then their matches
        results._ranked(week, BEFORE, counts, BREAKERS)
    with django_assert_num_queries(0):  # no head-to-head among the breakers
        results._ranked(week, BEFORE, counts, ["points", "touchdown_difference", "name"])
