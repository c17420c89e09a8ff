"""The league clock (issue 13, "Deadlines"): both coaches are mailed two days before a match's deadline and on
the day, each reminder once, and a match still unplayed past its deadline is overdue (`overdue_matches`, the
commissioner's queue's read). Time is controlled: every tick is given its moment (and the task's default
moment is Django's `timezone.now`, monkeypatched)."""

from __future__ import annotations

import logging
import smtplib
from datetime import UTC, datetime, timedelta
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core import mail
from django.core.mail import EmailMessage
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dugout.celery import app
from dugout.reports.services import site_url
from dugout.tasks import league_clock_tick
from league.models import League
from matches import clock, services
from matches.clock import clock_tick, due_kind, overdue_matches, reminder_moments
from matches.models import Match, MatchReminder, MatchTeam
from tests.factories import LeagueFactory

pytestmark = pytest.mark.django_db

#: Thursday 10 December 2026, 20:00 UTC: the deadline most tests use.
DEADLINE = datetime(2026, 12, 10, 20, 0, tzinfo=UTC)
Kind, State = MatchReminder.Kind, MatchReminder.State
#: A tick's count of the house rules' acts when none is due (matches/clock_acts.py).
QUIET = {"confirmed": 0, "forfeited": 0, "announced": 0}


@pytest.fixture
def match(league, commissioner, home, away):
    match = services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    Match.objects.filter(pk=match.pk).update(deadline=DEADLINE)
    match.refresh_from_db()
    return match


def fixture_of(match: Match, **fields) -> Match:
    """Another match between the same sides, set up directly (the schedule generator's job, not under test)."""
    fields = {"season": match.league.season, **fields}
    other = Match.objects.create(league=match.league, created_by=match.created_by, **fields)
    MatchTeam.objects.bulk_create([MatchTeam(match=other, team_id=s.team_id, order=s.order) for s in match.sides.all()])
    return other


def ticks(start: datetime, end: datetime, every: timedelta = timedelta(hours=1)):
    moment = start
    while moment <= end:
        yield moment
        moment += every


def mailed() -> list[tuple[str, str]]:
    return [(message.to[0], message.subject) for message in mail.outbox]


# --- when a reminder is due (pure) ---------------------------------------------------------------------------


def test_the_reminders_fall_at_eight_two_days_before_the_deadlines_day_and_on_it():
    moments = reminder_moments(DEADLINE, "Europe/London")
    assert moments == {
        Kind.TWO_DAYS: datetime(2026, 12, 8, 8, 0, tzinfo=ZoneInfo("Europe/London")),
        Kind.DAY: datetime(2026, 12, 10, 8, 0, tzinfo=ZoneInfo("Europe/London")),
    }


def test_a_deadline_at_midnight_belongs_to_the_day_that_ends_there():
    midnight = datetime(2026, 12, 10, 0, 0, tzinfo=ZoneInfo("Europe/Paris"))
    assert reminder_moments(midnight, "Europe/Paris")[Kind.DAY] == datetime(
        2026, 12, 9, 8, 0, tzinfo=ZoneInfo("Europe/Paris")
    )


def test_a_deadline_before_eight_moves_its_reminders_to_the_start_of_their_days():
    early = datetime(2026, 12, 10, 6, 0, tzinfo=UTC)
    assert reminder_moments(early, "UTC") == {
        Kind.TWO_DAYS: datetime(2026, 12, 8, 0, 0, tzinfo=UTC),
        Kind.DAY: datetime(2026, 12, 10, 0, 0, tzinfo=UTC),
    }


def test_the_reminders_follow_the_leagues_time_zone():
    """08:00 in Tokyo is 23:00 UTC the evening before."""
    moments = reminder_moments(DEADLINE, "Asia/Tokyo")  # 05:00 on 11 December in Tokyo
    assert moments[Kind.DAY] == datetime(2026, 12, 10, 15, 0, tzinfo=UTC)  # 00:00 Tokyo, the deadline before 08:00
    later = datetime(2026, 12, 11, 12, 0, tzinfo=UTC)  # 21:00 Tokyo
    assert reminder_moments(later, "Asia/Tokyo")[Kind.TWO_DAYS] == datetime(2026, 12, 8, 23, 0, tzinfo=UTC)


def test_only_the_latest_reminder_due_is_due_and_none_after_the_deadline():
    assert due_kind(DEADLINE, "UTC", datetime(2026, 12, 8, 7, 59, tzinfo=UTC)) is None
    assert due_kind(DEADLINE, "UTC", datetime(2026, 12, 8, 8, 0, tzinfo=UTC)) == Kind.TWO_DAYS
    assert due_kind(DEADLINE, "UTC", datetime(2026, 12, 10, 8, 0, tzinfo=UTC)) == Kind.DAY
    assert due_kind(DEADLINE, "UTC", DEADLINE) is None


# --- the clock, hour by hour ---------------------------------------------------------------------------------


def test_an_hourly_clock_mails_both_coaches_two_days_before_and_on_the_day_each_once(match, coach, other_coach):
    sent_at = {}
    for moment in ticks(datetime(2026, 12, 6, 0, 5, tzinfo=UTC), datetime(2026, 12, 12, 0, 5, tzinfo=UTC)):
        before = len(mail.outbox)
        clock_tick(moment)
        if len(mail.outbox) > before:
            sent_at[moment] = sorted(m.to[0] for m in mail.outbox[before:])

    both = sorted([coach.email, other_coach.email])
    assert sent_at == {datetime(2026, 12, 8, 8, 5, tzinfo=UTC): both, datetime(2026, 12, 10, 8, 5, tzinfo=UTC): both}
    subjects = [m.subject for m in mail.outbox]
    assert all("Home v Away" in s for s in subjects)
    assert [("in two days" in s, "today" in s) for s in subjects] == [(True, False)] * 2 + [(False, True)] * 2
    assert "Thursday 10 December, 20:00 (UTC)" in mail.outbox[0].body
    assert MatchReminder.objects.filter(state=State.SENT).count() == 4


def test_the_mail_speaks_the_leagues_time(match, league):
    """In Tokyo the deadline is 05:00 on Friday 11 December: the day's reminder goes at midnight there."""
    League.objects.filter(pk=league.pk).update(timezone="Asia/Tokyo")
    Match.objects.filter(pk=match.pk).update(scheduled_for=datetime(2026, 12, 10, 10, 0, tzinfo=UTC))
    clock_tick(datetime(2026, 12, 10, 15, 5, tzinfo=UTC))
    [first, _] = mail.outbox
    assert "result due today (Fri 11 Dec 05:00)" in first.subject
    assert "due today, by 05:00 (Asia/Tokyo)" in first.body
    assert "Agreed kick-off: Thursday 10 December, 19:00." in first.body


def test_the_same_tick_twice_and_two_ticks_in_an_hour_send_nothing_twice(match):
    moment = datetime(2026, 12, 8, 8, 5, tzinfo=UTC)
    assert clock_tick(moment) == {"due": 2, "sent": 2, **QUIET}
    assert clock_tick(moment) == {"due": 2, "sent": 0, **QUIET}
    assert clock_tick(moment + timedelta(minutes=30)) == {"due": 2, "sent": 0, **QUIET}
    assert len(mail.outbox) == 2


def test_a_deadline_set_the_day_before_is_reminded_once_on_the_day_never_in_two_days(match):
    Match.objects.filter(pk=match.pk).update(deadline=datetime(2026, 12, 9, 20, 0, tzinfo=UTC))
    for moment in ticks(datetime(2026, 12, 8, 12, 5, tzinfo=UTC), datetime(2026, 12, 10, 0, 5, tzinfo=UTC)):
        clock_tick(moment)
    assert {m.subject.split("result due ")[1].split(" (")[0] for m in mail.outbox} == {"today"}
    assert set(MatchReminder.objects.values_list("kind", flat=True)) == {Kind.DAY}
    assert len(mail.outbox) == 2


def test_a_moved_deadline_is_reminded_again_and_the_old_reminder_left_unsent_expires(match):
    clock_tick(datetime(2026, 12, 8, 8, 5, tzinfo=UTC))
    assert len(mail.outbox) == 2
    # Due again for the new deadline, a week later; an unsent row of the old one is never mailed.
    later = DEADLINE + timedelta(days=7)
    stale = MatchReminder.objects.create(match=match, kind=Kind.DAY, deadline=DEADLINE, user=match.created_by)
    Match.objects.filter(pk=match.pk).update(deadline=later)
    clock_tick(datetime(2026, 12, 10, 8, 5, tzinfo=UTC))
    assert len(mail.outbox) == 2
    stale.refresh_from_db()
    assert stale.state == State.EXPIRED
    clock_tick(datetime(2026, 12, 15, 8, 5, tzinfo=UTC))
    assert len(mail.outbox) == 4 and "17 Dec" in mail.outbox[-1].subject


def test_a_match_played_before_its_reminder_gets_none_and_a_coach_without_an_address_is_skipped(
    league, commissioner, match, coach
):
    coach.email = ""
    coach.save(update_fields=["email"])
    played = services.match_schedule(user=commissioner, league=league, team_ids=[s.team_id for s in match.sides.all()])
    Match.objects.filter(pk=played.pk).update(deadline=DEADLINE, status=Match.Status.SUBMITTED)
    clock_tick(datetime(2026, 12, 8, 8, 5, tzinfo=UTC))
    assert [m.to[0] for m in mail.outbox] == ["bob@example.com"]
    assert set(MatchReminder.objects.values_list("match_id", flat=True)) == {match.pk}


def test_the_tick_reads_in_a_constant_number_of_queries(match):
    with CaptureQueriesContext(connection) as one:
        clock.reminders_fill(datetime(2026, 12, 8, 8, 5, tzinfo=UTC))
    for _ in range(5):
        fixture_of(match, deadline=DEADLINE)
    with CaptureQueriesContext(connection) as six:
        clock.reminders_fill(datetime(2026, 12, 8, 9, 5, tzinfo=UTC))
    assert len(one) == len(six) <= 4


# --- at most once, whatever fails --------------------------------------------------------------------------


def test_a_reminder_left_sending_by_a_dead_worker_is_never_resent_and_is_logged(match, caplog):
    moment = datetime(2026, 12, 8, 8, 5, tzinfo=UTC)
    clock.reminders_fill(moment)
    MatchReminder.objects.filter(user__username="alice").update(state=State.SENDING)
    with caplog.at_level(logging.ERROR, logger="matches.clock"):
        assert clock_tick(moment)["sent"] == 1
    assert [m.to[0] for m in mail.outbox] == ["bob@example.com"]
    assert any("never marked sent" in r.getMessage() for r in caplog.records)


def test_a_refused_mail_goes_back_to_pending_and_the_retry_sends_it_once(match):
    moment = datetime(2026, 12, 8, 8, 5, tzinfo=UTC)
    send = EmailMessage.send
    calls = []

    def refuse_first(self, *args, **kwargs):
        calls.append(self.to)
        if len(calls) == 1:
            raise smtplib.SMTPServerDisconnected("down")
        return send(self, *args, **kwargs)

    with mock.patch.object(EmailMessage, "send", refuse_first), pytest.raises(smtplib.SMTPServerDisconnected):
        clock_tick(moment)
    assert MatchReminder.objects.filter(state=State.PENDING).count() == 2 and mail.outbox == []
    clock_tick(moment + timedelta(hours=1))
    assert len(mail.outbox) == 2 and MatchReminder.objects.filter(state=State.SENT).count() == 2


def test_a_reminder_not_sent_before_the_deadline_passed_expires(match):
    clock.reminders_fill(datetime(2026, 12, 10, 8, 5, tzinfo=UTC))
    # (the deadline passed: the commissioner is told once, the league leaving overdue matches to his queue)
    assert clock_tick(DEADLINE + timedelta(minutes=5)) == {"due": 0, "sent": 0, **QUIET, "announced": 1}
    assert mail.outbox == [] and set(MatchReminder.objects.values_list("state", flat=True)) == {State.EXPIRED}


# --- the beat and the task ----------------------------------------------------------------------------------


def test_celery_beat_runs_the_clock_every_ten_minutes_and_the_task_is_registered():
    entry = settings.CELERY_BEAT_SCHEDULE["league-clock"]
    assert entry["task"] == "dugout.tasks.league_clock_tick"
    assert entry["schedule"].minute == {5, 15, 25, 35, 45, 55} and len(entry["schedule"].hour) == 24
    app.loader.import_default_modules()
    assert "dugout.tasks.league_clock_tick" in app.tasks


def test_the_task_without_a_moment_reads_the_clock(match, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 12, 10, 8, 5, tzinfo=UTC))
    assert league_clock_tick.apply().get() == {"due": 2, "sent": 2, **QUIET}
    assert all("today" in m.subject for m in mail.outbox)
    assert all(f"{site_url()}/matches/{match.pk}/" in m.body for m in mail.outbox)


# --- overdue -----------------------------------------------------------------------------------------------


def test_a_match_unplayed_past_its_deadline_is_overdue_and_leaves_the_list_when_played_or_moved(match, league):
    assert list(overdue_matches(league=league, now=DEADLINE)) == []
    after = DEADLINE + timedelta(seconds=1)
    assert list(overdue_matches(league=league, now=after)) == [match]

    Match.objects.filter(pk=match.pk).update(status=Match.Status.SUBMITTED)  # the result is in: it waits instead
    assert list(overdue_matches(league=league, now=after)) == []
    Match.objects.filter(pk=match.pk).update(status=Match.Status.SCHEDULED, deadline=DEADLINE + timedelta(days=2))
    assert list(overdue_matches(league=league, now=after)) == []


def test_overdue_is_the_leagues_open_season_longest_overdue_first_with_its_teams_in_two_queries(
    match, league, commissioner
):
    older = fixture_of(match, deadline=DEADLINE - timedelta(days=3))
    fixture_of(match, deadline=None)
    fixture_of(match, deadline=DEADLINE, season=league.season + 1)
    fixture_of(match, deadline=DEADLINE, status=Match.Status.FINAL)
    elsewhere = LeagueFactory(name="Elsewhere")
    assert not overdue_matches(league=elsewhere, now=DEADLINE + timedelta(days=1)).exists()

    league = League.objects.get(pk=league.pk)
    with CaptureQueriesContext(connection) as queries:
        rows = list(overdue_matches(league=league, now=DEADLINE + timedelta(days=1)))
        names = [[s.team.name for s in m.sides.all()] for m in rows]
    assert [m.pk for m in rows] == [older.pk, match.pk]
    assert names == [["Home", "Away"], ["Home", "Away"]]
    assert len(queries) == 2
