"""The weekly report costs the same queries for 4 teams as for 400 (issue 12: reads are planned, nothing is
queried per team or per match), and its ledger query reads only the week's entries through the ledger's
(team, created_at) index (docs/decisions/, 2026-12-01 "The ledger's date index")."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dugout.reports.services import REPORT_SPAN, report_generate
from matches.models import Aftermath, Match, MatchTeam, PlayerMatch
from teams.models import LedgerEntry, Player
from tests.factories import LeagueFactory, TeamFactory, UserFactory


def league_of(teams: int, commissioner):
    """A Blitz Bowl league of `teams` teams of two players; each pair of teams played one final match
    yesterday, its winnings in the ledger."""
    league = LeagueFactory(created_by=commissioner, house_rules_overrides={"coach_may_run_several_teams": True})
    coach = UserFactory()
    made = [TeamFactory(league=league, coach=coach, name=f"Team {i:03}") for i in range(teams)]
    position = made[0].roster.positions.order_by("order", "id").first()
    Player.objects.bulk_create(
        Player(team=t, position=position, name=f"{t.name} #{n}", number=n) for t in made for n in (1, 2)
    )
    players = {t.pk: list(t.players.values_list("pk", flat=True)) for t in made}
    yesterday = timezone.now() - timedelta(days=1)
    steps = len(league.rules.postmatch_steps)
    for home, away in zip(made[::2], made[1::2], strict=True):
        match = Match.objects.create(
            league=league, status="final", created_by=commissioner, confirmed_by=commissioner, confirmed_at=yesterday
        )
        for order, team in enumerate((home, away)):
            MatchTeam.objects.create(
                match=match, team=team, order=order, score=1 - order, outcome=("win", "loss")[order]
            )
            Aftermath.objects.create(match=match, team=team, step_index=steps, complete=True)
            PlayerMatch.objects.create(match=match, team=team, player_id=players[team.pk][0], touchdowns=1 - order)
            LedgerEntry.objects.create(
                team=team,
                sequence=2,
                amount=10_000,
                balance_after=110_000,
                kind="winnings",
                reason="Winnings",
                match=match,
            )
    LedgerEntry.objects.filter(team__league=league, match__isnull=False).update(created_at=yesterday)
    return league


def report_queries(league) -> int:
    with CaptureQueriesContext(connection) as ctx:
        report = report_generate(league_id=league.pk, moment=timezone.now())
    assert len(report.data["results"]) == league.teams.count() // 2
    return len(ctx.captured_queries)


def test_the_weekly_report_costs_the_same_queries_for_4_or_400_teams(commissioner):
    small, large = league_of(4, commissioner), league_of(400, commissioner)
    assert report_queries(small) == report_queries(large)


def test_the_reports_ledger_query_reads_the_week_through_the_team_and_date_index(commissioner):
    league = league_of(4, commissioner)
    now = timezone.now()
    week = LedgerEntry.objects.filter(team__league=league, created_at__gte=now - REPORT_SPAN, created_at__lt=now)
    assert week.count() == 8  # 4 starting treasuries, 4 winnings
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, LedgerEntry._meta.db_table)
    assert indexes["ledger_team_created_at"]["columns"] == ["team_id", "created_at"]
    if connection.vendor == "sqlite":  # PostgreSQL's planner rightly scans a table this small
        assert "USING INDEX ledger_team_created_at" in week.explain()
