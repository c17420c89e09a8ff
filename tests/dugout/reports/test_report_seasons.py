"""Issue 13, "Matches, standings, leaders and weekly reports belong to a season": a weekly report carries the
season open when it was written (`LeagueReport.season`), counts that season's matches only — in the week a
season turned, the new season's (I: docs/decisions/, "A report in the week a season turned") — and says its
season on its page, in the reports API (`season`, `?season=N`) and in the export."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone

from dugout.reports import build_report
from dugout.reports.services import report_generate
from dugout.seasons import season_start_next
from league.models import LeagueReport, Season
from matches.models import Aftermath
from tests.assertions import assert_refused
from tests.dugout.api.test_reports_api import make_report, reports_url
from tests.dugout.export.test_export import export_doc
from tests.dugout.reports.test_report_content import blitz_week  # noqa: F401  (the fixture: a Blitz Bowl week)

pytestmark = pytest.mark.django_db


@pytest.fixture
def turned(api_as, commissioner, league, blitz_week):  # noqa: F811
    """The Blitz Bowl week, its season closed after M2 and M3 and season 2 opened; M4 (carried over to season 2)
    then played in the same week: Cold Cats 2–0 Dim Dogs, Cold Cats #1 scoring both."""
    w = blitz_week
    Aftermath.objects.filter(match__league=league).update(complete=True, step_index=5)
    season_start_next(user=commissioner, league_id=league.pk, name="Second")
    _ash, _bog, cold, dim = w["teams"]
    m4 = w["matches"][3]
    body = {
        "teams": [{"team": cold.pk, "score": 2}, {"team": dim.pk, "score": 0}],
        "players": [{"player": w["players"][2][1], "touchdowns": 2}],
    }
    response = api_as(cold.coach).post(f"/api/v1/matches/{m4}/result/", body, format="json")
    assert response.status_code == 201, response.json()
    assert api_as(dim.coach).post(f"/api/v1/matches/{m4}/confirm/").status_code == 200
    return w


def test_a_report_in_the_week_a_season_turned_is_the_new_seasons_I(league, turned):
    """I (docs/decisions/): written after the turn, the report is of season 2 and its results, leaders and
    table count season 2's match only; season 1's matches of the same week are not in it."""
    w = turned
    report = report_generate(league_id=league.pk, moment=w["end"])
    assert report.season == 2
    assert [r["id"] for r in report.data["results"]] == [w["matches"][3]]
    scorer = w["players"][2][1]
    assert [(e["player"], e["value"]) for e in report.data["top_scorers"]["week"]] == [(scorer, 2)]
    assert [(e["player"], e["value"]) for e in report.data["top_scorers"]["season"]] == [(scorer, 2)]
    played = {row["name"]: row["played"] for row in report.data["table"]}
    assert played == {"Ash Apes": 0, "Bog Bats": 0, "Cold Cats": 1, "Dim Dogs": 1}
    assert report.data["fixtures"] == []


def test_the_same_week_of_the_closed_season_counts_only_its_matches_I(league, turned):
    """The report's sections read one season: season 1's week has M2 and M3, never season 2's M4."""
    w = turned
    _m1, m2, m3, _m4 = w["matches"]
    data = build_report(league=league, week_start=w["start"], week_end=w["end"], season=1)
    assert [r["id"] for r in data["results"]] == [m2, m3]
    # Its table is season 1's, as it was frozen at the turn: M1, M2 and M3 only (Cold Cats and Dim Dogs one each).
    assert {row["name"]: row["played"] for row in data["table"]} == {
        "Ash Apes": 2,
        "Bog Bats": 2,
        "Cold Cats": 1,
        "Dim Dogs": 1,
    }
    season_scorers = {e["player"]: e["value"] for e in data["top_scorers"]["season"]}
    assert w["players"][2][1] not in season_scorers or season_scorers[w["players"][2][1]] < 2


def test_the_report_page_says_its_season(client, league, turned):
    report = report_generate(league_id=league.pk, moment=turned["end"])
    page = client.get(f"/leagues/{league.pk}/reports/{report.week}/")
    assert page.status_code == 200 and "Season 2:" in page.content.decode()


def test_the_reports_api_lists_each_reports_season_and_filters_by_it(api, league):
    """api-v1-extensions: each report carries `season`; `?season=N` lists that season's only."""
    make_report(league, "2026-W47")
    second = make_report(league, "2026-W48")
    LeagueReport.objects.filter(pk=second.pk).update(season=2)
    body = api.get(reports_url(league)).json()
    assert [(r["week"], r["season"]) for r in body] == [("2026-W48", 2), ("2026-W47", 1)]
    assert [r["week"] for r in api.get(reports_url(league) + "?season=2").json()] == ["2026-W48"]
    assert [r["week"] for r in api.get(reports_url(league) + "?season=1").json()] == ["2026-W47"]
    assert api.get(reports_url(league) + "?season=9").json() == []


@pytest.mark.parametrize("value", ["0", "two", "1.5", "40000"])
def test_a_bad_season_filter_is_400_naming_it(api, league, value):
    assert_refused(api.get(reports_url(league) + f"?season={value}"), 400, "season")


def test_the_export_records_each_reports_season(api, league):
    report = make_report(league, "2026-W47")
    LeagueReport.objects.filter(pk=report.pk).update(season=3)
    assert [r["season"] for r in export_doc(api, league.pk)["reports"]] == [3]


def test_the_migration_puts_each_report_in_the_season_its_week_fell_in(league):
    """Backfill (league/migrations/0012): the latest season opened by the report's week end, else 1."""
    now = timezone.now()
    Season.objects.filter(league=league, number=1).update(started_at=now - timedelta(days=30))
    Season.objects.filter(league=league).update(status="closed")
    Season.objects.create(league=league, number=2, started_at=now - timedelta(days=10))
    old = LeagueReport.objects.create(league=league, week="W1", week_start=now, week_end=now - timedelta(days=20))
    new = LeagueReport.objects.create(league=league, week="W2", week_start=now, week_end=now - timedelta(days=3))
    older = LeagueReport.objects.create(league=league, week="W0", week_start=now, week_end=now - timedelta(days=99))
    LeagueReport.objects.update(season=7)
    importlib.import_module("league.migrations.0013_report_season").reports_seasons(apps, None)
    assert {r.week: r.season for r in LeagueReport.objects.filter(pk__in=[old.pk, new.pk, older.pk])} == {
        "W1": 1,
        "W2": 2,
        "W0": 1,
    }
