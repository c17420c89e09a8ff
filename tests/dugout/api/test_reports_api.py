"""api-v1 and the weekly reports: `GET/POST /leagues/{id}/reports/` (the list newest first; "generate now"
answered 202 queued, 503 with the broker unreachable, 403 for anyone but the commissioner), the report
settings through `PATCH /leagues/{id}/` (400 naming the field), and the reports in the league's export."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.utils.dateparse import parse_datetime
from kombu.exceptions import OperationalError as BrokerError

from dugout.celery import app
from dugout.reports.services import week_label
from dugout.tasks import generate_league_report
from league.models import League, LeagueReport
from tests.assertions import assert_refused
from tests.dugout.export.test_export import export_doc
from tests.factories import LeagueFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)  # Sunday night in UTC, Monday morning in Tokyo


def reports_url(league) -> str:
    return f"/api/v1/leagues/{league.pk}/reports/"


def make_report(league: League, week: str, *, headline: str = "") -> LeagueReport:
    end = datetime.strptime(f"{week}-1 08", "%G-W%V-%u %H").replace(tzinfo=UTC)
    return LeagueReport.objects.create(
        league=league,
        week=week,
        week_start=end - timedelta(days=7),
        week_end=end,
        data={"headline": headline, "sections": [{"title": "Results", "rows": []}]},
        html=f"<h2>Week {week}</h2>",
        text=f"Week {week}",
    )


@pytest.fixture
def three_reports(league) -> list[LeagueReport]:
    return [make_report(league, "2026-W48"), make_report(league, "2026-W49"), make_report(league, "2026-W47")]


@pytest.fixture
def queue_ok():
    with mock.patch.object(generate_league_report, "apply_async") as apply_async:
        yield apply_async


@pytest.fixture
def queue_refused():
    error = BrokerError("Error 111 connecting to 127.0.0.1:1. Connection refused.")
    with mock.patch.object(generate_league_report, "apply_async", side_effect=error) as apply_async:
        yield apply_async


@pytest.fixture
def broker_down(settings):
    """The Celery app's broker URL points to a closed port (its connection pools set aside meanwhile)."""
    saved = app._pool, app.amqp._producer_pool
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 2}
    app._pool, app.amqp._producer_pool = None, None
    assert app.conf.broker_url == "redis://127.0.0.1:1/0"
    try:
        yield
    finally:
        if app._pool is not None:
            app._pool.force_close_all()
        app._pool, app.amqp._producer_pool = saved


# --- GET the list --------------------------------------------------------------------------------------


def test_the_list_is_newest_first_with_urls(api, league, three_reports):
    response = api.get(reports_url(league))
    assert response.status_code == 200
    body = response.json()
    assert [r["week"] for r in body] == ["2026-W49", "2026-W48", "2026-W47"]
    by_week = {r.week: r for r in three_reports}
    for item in body:
        assert set(item) == {"id", "week", "season", "created_at", "url"}
        assert item["season"] == 1  # issue 13: the season the report is of
        report = by_week[item["week"]]
        assert item["id"] == report.pk
        assert parse_datetime(item["created_at"]) == report.created_at
        assert item["url"].endswith(f"/leagues/{league.pk}/reports/{report.week}/")


def test_the_listed_urls_open_the_reports(api, client, league, three_reports):
    for item in api.get(reports_url(league)).json():
        path = item["url"].split("://", 1)[-1]
        path = path[path.index("/") :]
        response = client.get(path)
        assert response.status_code == 200 and f"Week {item['week']}" in response.content.decode()


def test_an_empty_league_lists_no_reports(api, league):
    assert api.get(reports_url(league)).json() == []


def test_only_the_leagues_own_reports_are_listed(api, league, three_reports):
    other = LeagueFactory()
    make_report(other, "2026-W40")
    assert "2026-W40" not in [r["week"] for r in api.get(reports_url(league)).json()]


def test_the_list_of_an_unknown_league_is_404(api):
    assert api.get("/api/v1/leagues/999999/reports/").status_code == 404


# --- POST "generate now" -------------------------------------------------------------------------------------


def test_the_commissioner_queues_a_report_202(api_as, league, queue_ok):
    League.objects.filter(pk=league.pk).update(timezone="Asia/Tokyo")
    with mock.patch("django.utils.timezone.now", return_value=NOW):
        response = api_as(league.created_by).post(reports_url(league))
    assert response.status_code == 202, response.content
    assert response.json() == {"status": "queued", "week": "2026-W49"}  # the league's local week
    queue_ok.assert_called_once()
    call = queue_ok.call_args.kwargs
    assert call["args"] == [league.pk]
    assert call["kwargs"] == {"now": NOW.isoformat(), "regenerate": True}


def test_the_queued_week_is_this_weeks_label(api_as, league, queue_ok):
    response = api_as(league.created_by).post(reports_url(league))
    assert response.status_code == 202
    now = parse_datetime(queue_ok.call_args.kwargs["kwargs"]["now"])
    assert response.json()["week"] == week_label(now, league.timezone)


def test_with_the_broker_refusing_the_answer_is_503_in_words(api_as, league, queue_refused):
    response = api_as(league.created_by).post(reports_url(league))
    body = assert_refused(response, 503)
    assert "unavailable" in body["detail"]


def test_with_the_broker_down_the_answer_is_503_and_reads_still_work(api, api_as, league, three_reports, broker_down):
    started = time.monotonic()
    response = api_as(league.created_by).post(reports_url(league))
    assert time.monotonic() - started < 10  # fails fast
    body = assert_refused(response, 503)
    assert "unavailable" in body["detail"]
    assert [r["week"] for r in api.get(reports_url(league)).json()] == ["2026-W49", "2026-W48", "2026-W47"]
    assert api.get(f"/api/v1/leagues/{league.pk}/").status_code == 200
    assert LeagueReport.objects.filter(league=league).count() == 3


def test_only_the_commissioner_may_generate_now(api, api_as, league, coach, stranger, make_coach, queue_ok):
    assert_refused(api_as(make_coach(coach)).post(reports_url(league)), 403)
    assert_refused(api_as(stranger).post(reports_url(league)), 403)
    assert api.post(reports_url(league)).status_code in (401, 403)
    queue_ok.assert_not_called()


def test_another_leagues_commissioner_may_not_generate_now(api_as, league, queue_ok):
    other = LeagueFactory()
    assert_refused(api_as(other.created_by).post(reports_url(league)), 403)
    queue_ok.assert_not_called()


def test_generate_now_for_an_unknown_league_is_404(api_as, commissioner, queue_ok):
    assert api_as(commissioner).post("/api/v1/leagues/999999/reports/").status_code == 404
    queue_ok.assert_not_called()


# --- PATCH the report settings -----------------------------------------------------------------------------


def settings_of(league: League) -> tuple:
    league.refresh_from_db()
    return league.reports_enabled, league.report_weekday, league.report_hour, league.timezone


def test_the_league_shows_its_report_settings(api, league):
    body = api.get(f"/api/v1/leagues/{league.pk}/").json()
    assert (body["reports_enabled"], body["report_weekday"], body["report_hour"], body["timezone"]) == (
        True,
        0,
        8,
        "UTC",
    )


def test_the_commissioner_patches_the_report_settings(api_as, league):
    patch = {"reports_enabled": False, "report_weekday": 4, "report_hour": 18, "timezone": "America/New_York"}
    response = api_as(league.created_by).patch(f"/api/v1/leagues/{league.pk}/", patch, format="json")
    assert response.status_code == 200, response.json()
    assert {k: response.json()[k] for k in patch} == patch
    assert settings_of(league) == (False, 4, 18, "America/New_York")


def test_a_partial_patch_leaves_the_other_settings(api_as, league):
    response = api_as(league.created_by).patch(f"/api/v1/leagues/{league.pk}/", {"report_hour": 0}, format="json")
    assert response.status_code == 200
    assert settings_of(league) == (True, 0, 0, "UTC")


def test_a_form_encoded_partial_patch_leaves_the_other_settings(api_as, league):
    """A boolean left out of a form-encoded PATCH is left alone, not read as False."""
    response = api_as(league.created_by).patch(f"/api/v1/leagues/{league.pk}/", {"report_hour": 6}, format="multipart")
    assert response.status_code == 200
    assert settings_of(league) == (True, 0, 6, "UTC")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("timezone", "Mars/Olympus_Mons"),
        ("timezone", "GMT+1"),
        ("timezone", ""),
        ("report_hour", 24),
        ("report_hour", -1),
        ("report_weekday", 7),
        ("report_weekday", "Monday"),
        ("reports_enabled", "perhaps"),
    ],
)
def test_a_bad_setting_is_400_naming_the_field_and_changes_nothing(api_as, league, field, value):
    before = settings_of(league)
    body = {"report_weekday": 2, "report_hour": 9, "timezone": "Europe/London", field: value}
    response = api_as(league.created_by).patch(f"/api/v1/leagues/{league.pk}/", body, format="json")
    assert_refused(response, 400, field)
    assert settings_of(league) == before


def test_a_bad_time_zone_says_what_a_time_zone_looks_like(api_as, league):
    response = api_as(league.created_by).patch(
        f"/api/v1/leagues/{league.pk}/", {"timezone": "Mars/Olympus_Mons"}, format="json"
    )
    message = " ".join(assert_refused(response, 400, "timezone")["timezone"])
    assert "Mars/Olympus_Mons" in message and "time zone" in message


def test_only_the_commissioner_patches_the_report_settings(api, api_as, league, coach, make_coach):
    url = f"/api/v1/leagues/{league.pk}/"
    assert_refused(api_as(make_coach(coach)).patch(url, {"report_hour": 3}, format="json"), 403)
    assert api.patch(url, {"report_hour": 3}, format="json").status_code in (401, 403)
    assert settings_of(league) == (True, 0, 8, "UTC")


def test_patched_settings_decide_when_the_league_is_due(api_as, league):
    from dugout.reports.services import leagues_due

    api_as(league.created_by).patch(
        f"/api/v1/leagues/{league.pk}/",
        {"report_weekday": 4, "report_hour": 18, "timezone": "Asia/Tokyo"},
        format="json",
    )
    assert league in leagues_due(datetime(2026, 12, 4, 9, 0, tzinfo=UTC))  # Friday 18:00 in Tokyo
    assert league not in leagues_due(datetime(2026, 11, 30, 8, 0, tzinfo=UTC))


# --- the export ----------------------------------------------------------------------------------------------


def test_the_export_holds_the_reports_with_week_and_data(api, league, three_reports):
    doc = export_doc(api, league.pk)
    assert [r["week"] for r in doc["reports"]] == ["2026-W49", "2026-W48", "2026-W47"]
    by_week = {r.week: r for r in three_reports}
    for item in doc["reports"]:
        assert item["data"] == by_week[item["week"]].data
        assert item["id"] == by_week[item["week"]].pk
        assert item["url"].endswith(f"/leagues/{league.pk}/reports/{item['week']}/")
    assert doc["league"]["report_weekday"] == 0 and doc["league"]["timezone"] == "UTC"


def test_an_empty_leagues_export_has_an_empty_report_list(api, league):
    assert export_doc(api, league.pk)["reports"] == []
