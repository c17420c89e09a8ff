"""The league clock (issue 13, "Deadlines"): both coaches are told two days before a match's deadline and on
the day, each reminder once and as a `deadline_soon` notification (mailed or pushed as each chose), and a match
still unplayed past its deadline is overdue (`overdue_matches`, the commissioner's queue's read). Time is
controlled: every tick is given its moment (and the task's default moment is Django's `timezone.now`,
monkeypatched)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core import mail
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dugout.celery import app
from dugout.tasks import league_clock_tick
from league.models import League
from matches import clock, notices, services
from matches.clock import clock_tick, due_kind, overdue_matches, reminder_moments
from matches.models import Match, MatchReminder, MatchTeam
from notifications.models import Delivery, Notification, NotificationSettings
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


def reminders():
    """The clock's notifications, with their users."""
    return Notification.objects.filter(kind="deadline_soon").select_related("user")


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


def test_an_hourly_clock_tells_both_coaches_two_days_before_and_on_the_day_each_once(match, coach, other_coach):
    told_at = {}
    for moment in ticks(datetime(2026, 12, 6, 0, 5, tzinfo=UTC), datetime(2026, 12, 12, 0, 5, tzinfo=UTC)):
        before = set(reminders().values_list("pk", flat=True))
        clock_tick(moment)
        new = reminders().exclude(pk__in=before)
        if new:
            told_at[moment] = sorted(n.user.email for n in new)

    both = sorted([coach.email, other_coach.email])
    assert told_at == {datetime(2026, 12, 8, 8, 5, tzinfo=UTC): both, datetime(2026, 12, 10, 8, 5, tzinfo=UTC): both}
    texts = [n.text for n in reminders().order_by("pk")]
    assert all(t.startswith("Gil Cup: Home v Away — the result is due ") for t in texts)
    assert [("in two days" in t, "today" in t) for t in texts] == [(True, False)] * 2 + [(False, True)] * 2
    assert "by Thursday 10 December, 20:00 (UTC)." in texts[0]
    assert "No time is agreed yet: propose one on the match page." in texts[0]
    assert {(n.league_id, n.match_id, n.url) for n in reminders()} == {
        (match.league_id, match.pk, f"/matches/{match.pk}/")
    }
    assert MatchReminder.objects.filter(state=State.SENT).count() == 4
    # The reminder is the notification: the clock mails nobody itself; each coach's e-mail is an outbox row.
    assert mail.outbox == []
    assert Delivery.objects.filter(notification__kind="deadline_soon", channel="email").count() == 4


def test_the_reminder_speaks_the_leagues_time(match, league):
    """In Tokyo the deadline is 05:00 on Friday 11 December: the day's reminder goes at midnight there."""
    League.objects.filter(pk=league.pk).update(timezone="Asia/Tokyo")
    Match.objects.filter(pk=match.pk).update(scheduled_for=datetime(2026, 12, 10, 10, 0, tzinfo=UTC))
    clock_tick(datetime(2026, 12, 10, 15, 5, tzinfo=UTC))
    [first, _] = reminders()
    assert "due today, by Friday 11 December, 05:00 (Asia/Tokyo)." in first.text
    assert first.text.endswith("Agreed kick-off: Thursday 10 December, 19:00.")


def test_the_same_tick_twice_and_two_ticks_in_an_hour_tell_nobody_twice(match):
    moment = datetime(2026, 12, 8, 8, 5, tzinfo=UTC)
    assert clock_tick(moment) == {"due": 2, "sent": 2, **QUIET}
    assert clock_tick(moment) == {"due": 2, "sent": 0, **QUIET}
    assert clock_tick(moment + timedelta(minutes=30)) == {"due": 2, "sent": 0, **QUIET}
    assert reminders().count() == 2


def test_a_deadline_set_the_day_before_is_reminded_once_on_the_day_never_in_two_days(match):
    Match.objects.filter(pk=match.pk).update(deadline=datetime(2026, 12, 9, 20, 0, tzinfo=UTC))
    for moment in ticks(datetime(2026, 12, 8, 12, 5, tzinfo=UTC), datetime(2026, 12, 10, 0, 5, tzinfo=UTC)):
        clock_tick(moment)
    assert all("the result is due today" in n.text for n in reminders())
    assert set(MatchReminder.objects.values_list("kind", flat=True)) == {Kind.DAY}
    assert reminders().count() == 2


def test_a_moved_deadline_is_reminded_again_and_the_old_reminder_left_unsent_expires(match):
    clock_tick(datetime(2026, 12, 8, 8, 5, tzinfo=UTC))
    assert reminders().count() == 2
    # Due again for the new deadline, a week later; an unsent row of the old one is never given.
    later = DEADLINE + timedelta(days=7)
    stale = MatchReminder.objects.create(match=match, kind=Kind.DAY, deadline=DEADLINE, user=match.created_by)
    Match.objects.filter(pk=match.pk).update(deadline=later)
    clock_tick(datetime(2026, 12, 10, 8, 5, tzinfo=UTC))
    assert reminders().count() == 2
    stale.refresh_from_db()
    assert stale.state == State.EXPIRED
    clock_tick(datetime(2026, 12, 15, 8, 5, tzinfo=UTC))
    assert reminders().count() == 4 and "17 December" in reminders().order_by("pk").last().text


def test_a_match_played_before_its_reminder_gets_none_and_a_coach_without_an_address_is_told_in_the_app(
    league, commissioner, match, coach
):
    coach.email = ""
    coach.save(update_fields=["email"])
    played = services.match_schedule(user=commissioner, league=league, team_ids=[s.team_id for s in match.sides.all()])
    Match.objects.filter(pk=played.pk).update(deadline=DEADLINE, status=Match.Status.SUBMITTED)
    clock_tick(datetime(2026, 12, 8, 8, 5, tzinfo=UTC))
    assert sorted(n.user.username for n in reminders()) == ["alice", "bob"]
    assert set(reminders().values_list("match_id", flat=True)) == {match.pk}
    emailed = Delivery.objects.filter(notification__kind="deadline_soon", channel="email")
    assert [d.notification.user.username for d in emailed] == ["bob"]


def test_a_coach_who_turned_the_reminders_mail_off_gets_the_notification_and_no_mail(match, coach, other_coach):
    NotificationSettings.objects.create(user=coach, kinds={"deadline_soon": {"email": False}})
    clock_tick(datetime(2026, 12, 8, 8, 5, tzinfo=UTC))
    assert sorted(n.user.username for n in reminders()) == ["alice", "bob"]
    emailed = Delivery.objects.filter(notification__kind="deadline_soon", channel="email")
    assert [d.notification.user_id for d in emailed] == [other_coach.pk]


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
    assert [n.user.username for n in reminders()] == ["bob"]
    assert any("never marked sent" in r.getMessage() for r in caplog.records)


def test_a_notification_that_cannot_be_written_leaves_its_reminder_pending_and_the_retry_gives_it_once(match):
    """The claim and the notification commit together: a failure in between claims nothing."""
    moment = datetime(2026, 12, 8, 8, 5, tzinfo=UTC)
    with (
        mock.patch.object(notices, "notify", side_effect=OperationalError("database went away")),
        pytest.raises(OperationalError),
    ):
        clock_tick(moment)
    assert MatchReminder.objects.filter(state=State.PENDING).count() == 2 and not reminders().exists()
    clock_tick(moment + timedelta(hours=1))
    assert reminders().count() == 2 and MatchReminder.objects.filter(state=State.SENT).count() == 2


def test_a_reminder_not_sent_before_the_deadline_passed_expires(match):
    clock.reminders_fill(datetime(2026, 12, 10, 8, 5, tzinfo=UTC))
    # (the deadline passed: the commissioner is told once, the league leaving overdue matches to his queue)
    assert clock_tick(DEADLINE + timedelta(minutes=5)) == {"due": 0, "sent": 0, **QUIET, "announced": 1}
    assert not reminders().exists()
    assert set(MatchReminder.objects.values_list("state", flat=True)) == {State.EXPIRED}


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
    assert all("the result is due today" in n.text for n in reminders())
    assert {n.url for n in reminders()} == {f"/matches/{match.pk}/"}


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
