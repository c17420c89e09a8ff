"""The league page's fixtures, results and reports panels are cached and exact (dugout/web/views.py
`_activity_panels`, docs/decisions/ 2026-12-01 "The league page's panels").

They are one document per activity version (`League.activity_version`), which every write able to change what
they show replaces in its own transaction. Each test warms the cached panels, writes through the service (or the
admin) that door uses, and reads the page again at once: the change is there, on local memory and (with
REDIS_URL) on Redis. What is the viewer's own stays rendered per request.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.contrib.admin.sites import site

from dugout.reports.services import report_generate
from league.admin import LeagueAdmin, StadiumAdmin
from league.models import League, Stadium
from league.services import league_update
from matches.corrections import match_correct
from matches.services import match_confirm, match_reject, match_schedule, match_submit_result
from teams.admin import TeamAdmin
from teams.models import Team
from tests.matches.test_standings_cache import table_cache  # noqa: F401 (the cache fixture, both backends)
from tests.web.matchpages.helpers import plain, rows, table, text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("table_cache")]


def page(client, league) -> str:
    response = client.get(f"/leagues/{league.pk}/")
    assert response.status_code == 200
    return text(response)


def fixtures(client, league) -> list[list[str]]:
    """The fixtures panel's rows as shown: [match, kind, stadium, status, scheduled]; [] when none."""
    shown = page(client, league)
    return rows(table(shown, "fixtures")) if 'id="fixtures"' in shown else []


def results(client, league) -> list[tuple[str, str]]:
    """The results panel's rows as shown: (match, score); [] when none."""
    shown = page(client, league)
    return [(row[0], row[1]) for row in rows(table(shown, "results"))] if 'id="results"' in shown else []


def result_body(home, away, home_score, away_score) -> dict:
    scores = [(home, home_score), (away, away_score)]
    return {
        "teams": [{"team": team.pk, "score": score} for team, score in scores],
        "players": [
            {"player": team.players.order_by("number").first().pk, "touchdowns": score}
            for team, score in scores
            if score
        ],
    }


@pytest.fixture
def scheduled(league, home, away, commissioner):
    return match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])


def test_a_scheduled_match_is_in_the_fixtures_at_once(client, league, home, away, commissioner):
    assert fixtures(client, league) == []
    match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    assert [row[0] for row in fixtures(client, league)] == ["Home v Away"]


def test_a_submitted_then_rejected_result_shows_its_status_at_once(
    client, league, home, away, coach, commissioner, scheduled
):
    assert [row[3] for row in fixtures(client, league)] == ["Scheduled"]
    match_submit_result(user=coach, match_id=scheduled.pk, body=result_body(home, away, 1, 0))
    assert [row[3] for row in fixtures(client, league)] == ["Result submitted"]
    match_reject(user=commissioner, match_id=scheduled.pk)
    assert [row[3] for row in fixtures(client, league)] == ["Scheduled"]


def test_a_replaced_result_gives_the_page_a_new_activity_version(client, league, home, away, coach, scheduled):
    """A replaced result shows no differently until it is confirmed, but it is a write to what the panels are
    made of: the page's panels are rendered again rather than trusted to look the same."""
    match_submit_result(user=coach, match_id=scheduled.pk, body=result_body(home, away, 1, 0))
    before = League.objects.get(pk=league.pk).activity_version
    match_submit_result(user=coach, match_id=scheduled.pk, body=result_body(home, away, 2, 0))
    assert League.objects.get(pk=league.pk).activity_version != before
    assert [row[3] for row in fixtures(client, league)] == ["Result submitted"]


def test_a_confirmed_then_corrected_result_moves_to_the_results_at_once(
    client, league, home, away, coach, commissioner, scheduled
):
    match_submit_result(user=coach, match_id=scheduled.pk, body=result_body(home, away, 2, 0))
    assert results(client, league) == [] and len(fixtures(client, league)) == 1
    match_confirm(user=commissioner, match_id=scheduled.pk)
    assert fixtures(client, league) == []
    assert results(client, league) == [("Home v Away", "2–0")]
    match_correct(user=commissioner, match_id=scheduled.pk, body=result_body(home, away, 0, 1))
    assert results(client, league) == [("Home v Away", "0–1")]


def test_a_team_renamed_in_the_admin_is_renamed_in_the_fixtures_at_once(client, rf, league, home, scheduled):
    assert [row[0] for row in fixtures(client, league)] == ["Home v Away"]
    team = Team.objects.get(pk=home.pk)
    team.name = "Renamed"
    TeamAdmin(Team, site).save_model(rf.post("/admin/"), team, SimpleNamespace(initial={"league": league.pk}), True)
    assert [row[0] for row in fixtures(client, league)] == ["Renamed v Away"]


def test_a_stadium_renamed_in_the_admin_is_renamed_in_the_fixtures_at_once(
    client, rf, league, home, away, commissioner
):
    stadium = Stadium.objects.create(league=league, name="The Pit")
    match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk], stadium_id=stadium.pk)
    assert [row[2] for row in fixtures(client, league)] == ["The Pit"]
    stadium.name = "The Crater"
    form = SimpleNamespace(initial={"league": league.pk})
    StadiumAdmin(Stadium, site).save_model(rf.post("/admin/"), stadium, form, True)
    assert [row[2] for row in fixtures(client, league)] == ["The Crater"]
    StadiumAdmin(Stadium, site).delete_model(rf.post("/admin/"), stadium)
    assert [row[2] for row in fixtures(client, league)] == ["—"]


def test_a_report_written_is_listed_at_once(client, league):
    assert 'id="reports"' not in page(client, league)
    report = report_generate(league_id=league.pk)
    assert re.findall(r"Week (\S+)", plain(page(client, league).split("<h2>Weekly reports</h2>")[1])) == [report.week]


def test_the_report_settings_changed_are_on_the_page_at_once(client, league, commissioner):
    assert "Monday 8:00, UTC" in plain(page(client, league))
    league_update(user=commissioner, league_id=league.pk, report_settings={"report_weekday": 4, "report_hour": 19})
    assert "Friday 19:00, UTC" in plain(page(client, league))
    league_update(user=commissioner, league_id=league.pk, report_settings={"reports_enabled": False})
    assert "Friday 19:00" not in plain(page(client, league))


def test_the_report_settings_changed_in_the_admin_are_on_the_page_at_once(client, rf, league):
    assert "Monday 8:00, UTC" in plain(page(client, league))
    edited = League.objects.get(pk=league.pk)
    edited.report_hour = 21
    edited.save()  # as the admin's form saves the row, then its inlines (stadiums, memberships)
    form = SimpleNamespace(instance=edited, save_m2m=lambda: None)
    LeagueAdmin(League, site).save_related(rf.post("/admin/"), form, [], True)
    assert "Monday 21:00, UTC" in plain(page(client, league))


def test_the_cached_panels_carry_nothing_of_the_viewer_who_rendered_them(
    client, league, home, coach, stranger, scheduled
):
    """The panels a coach's request rendered are served to a stranger and an anonymous visitor without his
    "Schedule a match" link, his teams or his CSRF token — and the other way round."""
    client.force_login(coach)
    own = page(client, league)
    assert "Schedule a match" in own and 'id="own-teams"' in own
    for viewer in (stranger, None):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        other = page(client, league)
        assert "Schedule a match" not in other and 'id="own-teams"' not in other
        assert [row[0] for row in rows(table(other, "fixtures"))] == ["Home v Away"]
    client.force_login(coach)
    assert "Schedule a match" in page(client, league)


def test_a_page_whose_panels_are_kept_reads_neither_matches_nor_reports(
    client, django_assert_num_queries, league, home, away, coach, commissioner, scheduled
):
    match_submit_result(user=coach, match_id=scheduled.pk, body=result_body(home, away, 1, 0))
    match_confirm(user=commissioner, match_id=scheduled.pk)
    page(client, league)  # renders and keeps the panels (and the table's)
    with django_assert_num_queries(1) as ctx:  # the league row (with its stadiums and the viewer's roles)
        assert results(client, league) == [("Home v Away", "1–0")]
    assert "league_league" in ctx.captured_queries[0]["sql"]
