"""Links in the weekly reports and their feed: with `SITE_URL` unset (the default) the report page and the Atom
feed build them on the address they were asked at, and the mailed report (no request) on the fallback
`http://127.0.0.1:8000`; with `SITE_URL` set, everything uses it."""

from __future__ import annotations

import pytest
from django.core import mail

from dugout.reports.services import MAIL_FALLBACK_URL, report_generate, report_mail
from matches import services
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(league, coach, other_coach):
    """A final match this week (so the report links to it) and a member with an address to mail."""
    home = TeamFactory(league=league, coach=coach, name="Home")
    away = TeamFactory(league=league, coach=other_coach, name="Away")
    match = services.match_schedule(user=coach, league=league, team_ids=[home.pk, away.pk])
    body = {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}]}
    services.match_submit_result(user=coach, match_id=match.pk, body=body)
    services.match_confirm(user=other_coach, match_id=match.pk)
    coach.email = "alice@example.test"
    coach.save(update_fields=["email"])
    return match


def page_of(client, report, host: str) -> str:
    return client.get(f"/leagues/{report.league_id}/reports/{report.week}/", HTTP_HOST=host).content.decode()


def feed_of(client, league, host: str) -> str:
    return client.get(f"/leagues/{league.pk}/reports/feed/", HTTP_HOST=host).content.decode()


def test_without_site_url_the_report_page_links_to_the_host_it_was_asked_at(client, settings, league, played):
    settings.SITE_URL = ""
    report = report_generate(league_id=league.pk)

    page = page_of(client, report, "localhost:5000")

    assert f'href="http://localhost:5000/matches/{played.pk}/"' in page
    assert "127.0.0.1:8000" not in page


def test_without_site_url_the_feed_links_and_ids_follow_the_host(client, settings, league, played):
    settings.SITE_URL = ""
    report_generate(league_id=league.pk)

    feed = feed_of(client, league, "localhost:5000")

    assert f'href="http://localhost:5000/matches/{played.pk}/"' in feed  # in the entry's HTML
    assert f"<id>http://localhost:5000/leagues/{league.pk}/reports/" in feed
    assert "127.0.0.1:8000" not in feed


def test_without_site_url_the_mailed_report_links_to_the_fallback_address(settings, league, played):
    settings.SITE_URL = ""
    report = report_generate(league_id=league.pk)

    report_mail(report_id=report.pk)

    [message] = [m for m in mail.outbox if m.to == ["alice@example.test"]]
    assert f"{MAIL_FALLBACK_URL}/matches/{played.pk}/" in message.body
    assert f'href="{MAIL_FALLBACK_URL}/matches/{played.pk}/"' in message.alternatives[0][0]


def test_with_site_url_set_page_feed_and_mail_all_use_it(client, settings, league, played):
    settings.SITE_URL = "https://dugout.example"
    report = report_generate(league_id=league.pk)
    report_mail(report_id=report.pk)

    link = f"https://dugout.example/matches/{played.pk}/"
    assert f'href="{link}"' in page_of(client, report, "localhost:5000")
    assert f'href="{link}"' in feed_of(client, league, "localhost:5000")
    assert mail.outbox and all(link in message.body for message in mail.outbox)
