"""The weekly reports on the web: the league page and the reports page list them newest first, a report's
page shows its HTML, the Atom feed is valid Atom, the dashboard's "Weekly report" panel saves the schedule,
and "generate now" says queued — or, with the broker unreachable, that the queue is unavailable (never a 500)."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.utils.dateparse import parse_datetime
from kombu.exceptions import OperationalError as BrokerError

from dugout.celery import app
from dugout.tasks import generate_league_report
from league.models import League, LeagueReport
from tests.dugout.export.test_export import export_doc
from tests.factories import LeagueFactory

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


def make_report(league: League, week: str, *, headline: str = "", html: str | None = None) -> LeagueReport:
    """A stored report of an ISO week ("2026-W49"), written on that week's Monday at 08:00 UTC."""
    end = datetime.strptime(f"{week}-1 08", "%G-W%V-%u %H").replace(tzinfo=UTC)
    return LeagueReport.objects.create(
        league=league,
        week=week,
        week_start=end - timedelta(days=7),
        week_end=end,
        data={"headline": headline, "week": week},
        html=html
        if html is not None
        else f"<section class='report-body'><h2>Week {week}</h2><p>{headline}</p></section>",
        text=f"Week {week}\n{headline}\n",
    )


@pytest.fixture
def three_reports(league) -> list[LeagueReport]:
    """Three weeks' reports of `league`, stored oldest last-created so that the ordering cannot come from ids."""
    return [
        make_report(league, "2026-W48", headline="Hume rout"),
        make_report(league, "2026-W49", headline="Goblin upset"),
        make_report(league, "2026-W47", headline="Opening week"),
    ]


def positions(page: str, needles: list[str]) -> list[int]:
    found = [page.find(needle) for needle in needles]
    assert all(i >= 0 for i in found), list(zip(needles, found, strict=True))
    return found


@pytest.fixture
def queue_ok():
    """A working queue: `generate_league_report.apply_async` records the call instead of sending."""
    with mock.patch.object(generate_league_report, "apply_async") as apply_async:
        yield apply_async


@pytest.fixture
def queue_refused():
    """The broker refuses the connection (as kombu reports it)."""
    error = BrokerError("Error 111 connecting to 127.0.0.1:1. Connection refused.")
    with mock.patch.object(generate_league_report, "apply_async", side_effect=error) as apply_async:
        yield apply_async


@pytest.fixture
def broker_down(settings):
    """The real thing: the Celery app's broker URL points to a closed port (the connection pools are set
    aside so the new URL is used, and put back afterwards)."""
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


# --- the league page and the reports page ---------------------------------------------------------------


def test_the_league_page_lists_past_reports_newest_first_with_links(client, league, three_reports):
    response = client.get(f"/leagues/{league.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    links = [f'href="/leagues/{league.pk}/reports/{week}/"' for week in ("2026-W49", "2026-W48", "2026-W47")]
    assert positions(page, links) == sorted(positions(page, links))
    assert f'href="/leagues/{league.pk}/reports/feed/"' in page
    assert f'href="/leagues/{league.pk}/reports/"' in page


def test_the_reports_page_lists_them_newest_first(client, league, three_reports):
    response = client.get(f"/leagues/{league.pk}/reports/")
    assert response.status_code == 200
    page = response.content.decode()
    links = [f'href="/leagues/{league.pk}/reports/{week}/"' for week in ("2026-W49", "2026-W48", "2026-W47")]
    assert positions(page, links) == sorted(positions(page, links))


def test_a_league_without_reports_says_so(client, league):
    for url in (f"/leagues/{league.pk}/", f"/leagues/{league.pk}/reports/"):
        response = client.get(url)
        assert response.status_code == 200
        assert "No report has been written yet" in response.content.decode()


def test_another_leagues_reports_are_not_listed(client, league, three_reports):
    other = LeagueFactory(name="Other Cup")
    make_report(other, "2026-W40")
    page = client.get(f"/leagues/{league.pk}/reports/").content.decode()
    assert "2026-W40" not in page


def test_the_report_page_shows_the_reports_html(client, league, three_reports):
    response = client.get(f"/leagues/{league.pk}/reports/2026-W49/")
    assert response.status_code == 200
    page = response.content.decode()
    assert three_reports[1].html in page  # unescaped: the report's own markup
    assert "2026-W48" not in page.split("<article", 1)[1]


def test_an_unknown_week_or_another_leagues_report_is_404(client, league, three_reports):
    other = LeagueFactory(name="Other Cup")
    assert client.get(f"/leagues/{league.pk}/reports/2026-W01/").status_code == 404
    assert client.get(f"/leagues/{other.pk}/reports/2026-W49/").status_code == 404
    assert client.get("/leagues/999999/reports/").status_code == 404


# --- "generate now" on the reports page -------------------------------------------------------------------


def test_the_commissioner_sees_generate_now_and_others_do_not(client, league, coach, make_coach):
    client.force_login(league.created_by)
    assert 'id="generate-now"' in client.get(f"/leagues/{league.pk}/reports/").content.decode()
    client.force_login(make_coach(coach))
    assert 'id="generate-now"' not in client.get(f"/leagues/{league.pk}/reports/").content.decode()
    client.logout()
    assert 'id="generate-now"' not in client.get(f"/leagues/{league.pk}/reports/").content.decode()


def test_generate_now_with_a_working_queue_says_queued(client, league, queue_ok):
    client.force_login(league.created_by)
    response = client.post(f"/leagues/{league.pk}/reports/", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain == [(f"/leagues/{league.pk}/reports/", 302)]
    page = response.content.decode()
    assert "queued" in page
    queue_ok.assert_called_once()
    call = queue_ok.call_args.kwargs
    assert call["args"] == [league.pk] and call["kwargs"]["regenerate"] is True
    assert parse_datetime(call["kwargs"]["now"]) is not None


def test_generate_now_with_the_broker_refusing_says_unavailable(client, league, three_reports, queue_refused):
    client.force_login(league.created_by)
    response = client.post(f"/leagues/{league.pk}/reports/", follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "unavailable" in page and "queued" not in page.replace("nothing was queued", "")
    assert f'href="/leagues/{league.pk}/reports/2026-W49/"' in page  # the page itself still works


def test_with_the_broker_down_the_pages_render_and_generate_now_says_unavailable(
    client, league, three_reports, broker_down
):
    client.force_login(league.created_by)
    for url in (
        f"/leagues/{league.pk}/",
        f"/leagues/{league.pk}/reports/",
        f"/leagues/{league.pk}/reports/2026-W49/",
        f"/leagues/{league.pk}/reports/feed/",
        f"/commissioner/{league.pk}/",
    ):
        assert client.get(url).status_code == 200, url
    started = time.monotonic()
    response = client.post(f"/leagues/{league.pk}/reports/", follow=True)
    assert time.monotonic() - started < 10  # fails fast, no endless retrying
    assert response.status_code == 200
    assert "unavailable" in response.content.decode()
    assert LeagueReport.objects.filter(league=league).count() == 3  # nothing was touched


def test_only_the_commissioner_may_generate_now(client, league, coach, stranger, make_coach, queue_ok):
    client.force_login(make_coach(coach))
    assert client.post(f"/leagues/{league.pk}/reports/").status_code == 403
    client.force_login(stranger)
    assert client.post(f"/leagues/{league.pk}/reports/").status_code == 403
    client.logout()
    assert client.post(f"/leagues/{league.pk}/reports/").status_code in (302, 403)
    queue_ok.assert_not_called()


# --- the Atom feed -----------------------------------------------------------------------------------------


def parse_feed(response) -> ET.Element:
    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0].strip() == "application/atom+xml"
    root = ET.fromstring(response.content)
    assert root.tag == f"{ATOM}feed"
    return root


def assert_atom_date(text: str | None) -> datetime:
    moment = parse_datetime(text or "")
    assert moment is not None and moment.tzinfo is not None, text
    return moment


def test_the_atom_feed_is_valid_atom_with_an_entry_per_report(client, league, three_reports):
    root = parse_feed(client.get(f"/leagues/{league.pk}/reports/feed/"))
    for child in ("id", "title", "updated"):
        assert (root.findtext(f"{ATOM}{child}") or "").strip(), child
    assert league.name in root.findtext(f"{ATOM}title")
    assert_atom_date(root.findtext(f"{ATOM}updated"))
    feed_links = root.findall(f"{ATOM}link")
    assert any(link.get("href", "").endswith(f"/leagues/{league.pk}/") for link in feed_links)
    assert any(link.get("rel") == "self" for link in feed_links)

    entries = root.findall(f"{ATOM}entry")
    assert len(entries) == 3
    by_week = {r.week: r for r in three_reports}
    weeks = []
    for entry in entries:
        for child in ("id", "title", "updated"):
            assert (entry.findtext(f"{ATOM}{child}") or "").strip(), child
        assert_atom_date(entry.findtext(f"{ATOM}updated"))
        link = entry.find(f"{ATOM}link")
        assert link is not None and link.get("href")
        week = link.get("href").rstrip("/").rsplit("/", 1)[1]
        weeks.append(week)
        assert link.get("href").endswith(f"/leagues/{league.pk}/reports/{week}/")
        assert week in entry.findtext(f"{ATOM}title")
        body = entry.find(f"{ATOM}content")
        if body is None:
            body = entry.find(f"{ATOM}summary")
        assert body is not None and body.get("type") == "html"
        assert body.text == by_week[week].html  # the report's HTML, escaped once by the XML
    assert weeks == ["2026-W49", "2026-W48", "2026-W47"]  # newest first
    assert len({entry.findtext(f"{ATOM}id") for entry in entries}) == 3  # ids unique


def test_the_feed_entry_title_carries_the_headline(client, league, three_reports):
    root = parse_feed(client.get(f"/leagues/{league.pk}/reports/feed/"))
    titles = [entry.findtext(f"{ATOM}title") for entry in root.findall(f"{ATOM}entry")]
    assert "Goblin upset" in titles[0]


def test_a_regenerated_report_shows_a_later_updated_date_in_the_feed(client, league, three_reports):
    report = three_reports[1]
    later = report.updated_at + timedelta(days=1)
    LeagueReport.objects.filter(pk=report.pk).update(updated_at=later, html="<p>rewritten</p>")
    root = parse_feed(client.get(f"/leagues/{league.pk}/reports/feed/"))
    entry = root.findall(f"{ATOM}entry")[0]
    assert assert_atom_date(entry.findtext(f"{ATOM}updated")) == later
    assert assert_atom_date(root.findtext(f"{ATOM}updated")) == later
    assert "rewritten" in (entry.findtext(f"{ATOM}summary") or entry.findtext(f"{ATOM}content"))


def test_an_empty_leagues_feed_is_still_valid_atom(client, league):
    root = parse_feed(client.get(f"/leagues/{league.pk}/reports/feed/"))
    for child in ("id", "title", "updated"):
        assert (root.findtext(f"{ATOM}{child}") or "").strip(), child
    assert_atom_date(root.findtext(f"{ATOM}updated"))
    assert root.find(f"{ATOM}link") is not None
    assert root.findall(f"{ATOM}entry") == []


def test_the_feed_of_an_unknown_league_is_404(client):
    assert client.get("/leagues/999999/reports/feed/").status_code == 404


def test_the_pages_advertise_the_feed(client, league, three_reports):
    for url in (f"/leagues/{league.pk}/", f"/leagues/{league.pk}/reports/2026-W49/"):
        page = client.get(url).content.decode()
        assert 'rel="alternate" type="application/atom+xml"' in page
        assert f'href="/leagues/{league.pk}/reports/feed/"' in page


# --- the dashboard's "Weekly report" panel -----------------------------------------------------------------


def dashboard(league) -> str:
    return f"/commissioner/{league.pk}/"


def report_settings(league: League) -> tuple:
    league.refresh_from_db()
    return league.reports_enabled, league.report_weekday, league.report_hour, league.timezone


def test_the_dashboard_has_the_weekly_report_panel_with_generate_now(client, league, three_reports):
    client.force_login(league.created_by)
    response = client.get(dashboard(league))
    assert response.status_code == 200
    page = response.content.decode()
    panel = page.split('id="weekly-report"', 1)[1]
    for name in ("report-reports_enabled", "report-report_weekday", "report-report_hour", "report-timezone"):
        assert f'name="{name}"' in panel, name
    assert 'name="action" value="report"' in panel
    assert f'action="/leagues/{league.pk}/reports/"' in panel and "Generate" in panel
    assert f'href="/leagues/{league.pk}/reports/2026-W49/"' in panel


def test_the_panel_saves_day_hour_and_time_zone(client, league):
    client.force_login(league.created_by)
    response = client.post(
        dashboard(league),
        {
            "action": "report",
            "report-reports_enabled": "on",
            "report-report_weekday": "4",
            "report-report_hour": "18",
            "report-timezone": "America/New_York",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert response.redirect_chain == [(dashboard(league), 302)]
    assert "Report settings saved" in response.content.decode()
    assert report_settings(league) == (True, 4, 18, "America/New_York")


def test_the_panel_turns_reports_off(client, league):
    client.force_login(league.created_by)
    body = {"action": "report", "report-report_weekday": "0", "report-report_hour": "8", "report-timezone": "UTC"}
    assert client.post(dashboard(league), body).status_code == 302
    assert report_settings(league) == (False, 0, 8, "UTC")


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("timezone", "Mars/Olympus_Mons", "is not a time zone"),
        ("timezone", "", "required"),
        ("report_hour", "24", "less than or equal to 23"),
        ("report_weekday", "7", "Select a valid choice"),
    ],
)
def test_a_bad_setting_shows_an_error_and_changes_nothing(client, league, field, value, words):
    client.force_login(league.created_by)
    before = report_settings(league)
    body = {
        "action": "report",
        "report-reports_enabled": "on",
        "report-report_weekday": "3",
        "report-report_hour": "20",
        "report-timezone": "Asia/Tokyo",
        f"report-{field}": value,
    }
    response = client.post(dashboard(league), body)
    assert response.status_code == 400  # refused input: a 4xx, the form again with the error in words
    assert words in response.content.decode()
    assert report_settings(league) == before


def test_only_the_commissioner_changes_the_report_settings(client, league, coach, make_coach):
    client.force_login(make_coach(coach))
    body = {"action": "report", "report-report_weekday": "3", "report-report_hour": "20", "report-timezone": "UTC"}
    assert client.post(dashboard(league), body).status_code == 403
    assert report_settings(league) == (True, 0, 8, "UTC")


def test_the_dashboards_generate_now_button_works_with_the_broker_down(client, league, queue_refused):
    client.force_login(league.created_by)
    response = client.post(f"/leagues/{league.pk}/reports/", follow=True)
    assert response.status_code == 200 and "unavailable" in response.content.decode()
    assert client.get(dashboard(league)).status_code == 200


def test_a_written_report_renders_on_every_page_the_feed_and_the_export(client, api, league, team, other_team):
    """A report written by the service (not a stored fixture): its page, the lists, the feed and the export."""
    from core.templatetags.dugout_html import without_inline_styles
    from dugout.reports.services import report_generate

    report = report_generate(league_id=league.pk, moment=datetime(2026, 11, 30, 8, 0, tzinfo=UTC))
    page = client.get(f"/leagues/{league.pk}/reports/{report.week}/")
    # The page shows the e-mail's markup without its inline styles (the CSP refuses them; the stylesheet styles it).
    assert page.status_code == 200 and without_inline_styles(report.html) in page.content.decode()
    assert 'style="' in report.html and 'style="' not in page.content.decode().split("<article", 1)[1]
    for url in (f"/leagues/{league.pk}/", f"/leagues/{league.pk}/reports/"):
        assert f'href="/leagues/{league.pk}/reports/{report.week}/"' in client.get(url).content.decode()
    root = parse_feed(client.get(f"/leagues/{league.pk}/reports/feed/"))
    (entry,) = root.findall(f"{ATOM}entry")
    assert (entry.findtext(f"{ATOM}summary") or entry.findtext(f"{ATOM}content")) == report.html
    doc = export_doc(api, league.pk)
    assert doc["reports"][0]["week"] == report.week and doc["reports"][0]["data"] == report.data
