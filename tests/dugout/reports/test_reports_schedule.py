"""Weekly league reports: which leagues are due when (time zones and DST included, the clock passed in),
the hourly fan-out and its beat entry, the ISO-week labels, and idempotency — a week's report is written
once (regenerated in place on demand) and mailed at most once per member."""

from __future__ import annotations

import smtplib
from datetime import UTC, datetime, timedelta
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.db import IntegrityError, OperationalError, transaction
from kombu.exceptions import OperationalError as BrokerError

from dugout.celery import app
from dugout.reports import services as reports
from dugout.reports.services import leagues_due, report_generate, report_mail, week_label
from dugout.tasks import generate_league_report, weekly_reports_fanout
from league.models import League, LeagueReport, Membership, ReportDelivery
from tests.factories import LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def make_league(name: str, *, weekday: int = 0, hour: int = 8, tz: str = "UTC", enabled: bool = True) -> League:
    league = LeagueFactory(name=name)
    League.objects.filter(pk=league.pk).update(
        report_weekday=weekday, report_hour=hour, timezone=tz, reports_enabled=enabled
    )
    league.refresh_from_db()
    return league


@pytest.fixture
def leagues(db) -> dict[str, League]:
    """Leagues written on Monday at 08:00 in London, New York, Tokyo and UTC; one disabled; one on Tuesday; one
    at 09:00."""
    return {
        "london": make_league("london", tz="Europe/London"),
        "new_york": make_league("new_york", tz="America/New_York"),
        "tokyo": make_league("tokyo", tz="Asia/Tokyo"),
        "utc": make_league("utc"),
        "disabled": make_league("disabled", enabled=False),
        "tuesday": make_league("tuesday", weekday=1),
        "nine": make_league("nine", hour=9),
    }


# 2026: the US springs forward on 8 March and falls back on 1 November; the UK on 29 March and 25 October.
DUE = [
    # Winter (GMT, EST): Monday 08:00 in London is 08:00 UTC, in New York 13:00 UTC.
    (utc(2026, 1, 11, 23, 0), {"tokyo"}),  # Sunday 23:00 UTC is already Monday 08:00 in Tokyo
    (utc(2026, 1, 12, 7, 0), set()),
    (utc(2026, 1, 12, 8, 0), {"london", "utc"}),
    (utc(2026, 1, 12, 8, 59), {"london", "utc"}),  # the hour, whatever the minute
    (utc(2026, 1, 12, 9, 0), {"nine"}),
    (utc(2026, 1, 12, 13, 0), {"new_york"}),
    (utc(2026, 1, 13, 8, 0), {"tuesday"}),
    (utc(2026, 1, 12, 23, 0), set()),  # Tokyo's Tuesday 08:00 is not its report day
    # Summer (BST, EDT): London an hour earlier in UTC, New York too.
    (utc(2026, 7, 6, 7, 0), {"london"}),
    (utc(2026, 7, 6, 8, 0), {"utc"}),
    (utc(2026, 7, 6, 12, 0), {"new_york"}),
    (utc(2026, 7, 6, 13, 0), set()),
    (utc(2026, 7, 5, 23, 0), {"tokyo"}),  # no DST in Tokyo
    # Between the two changes (New York on EDT, London still on GMT).
    (utc(2026, 3, 16, 8, 0), {"london", "utc"}),
    (utc(2026, 3, 16, 12, 0), {"new_york"}),
    # Europe back on GMT, New York still on EDT.
    (utc(2026, 10, 26, 8, 0), {"london", "utc"}),
    (utc(2026, 10, 26, 12, 0), {"new_york"}),
]


def case_id(value) -> str:
    return f"{value:%a-%Y-%m-%dT%H:%M}Z" if isinstance(value, datetime) else "-".join(sorted(value)) or "none"


@pytest.mark.parametrize(("moment", "expected"), DUE, ids=case_id)
def test_leagues_due_are_exactly_those_whose_local_day_and_hour_is_now(leagues, moment, expected):
    assert {league.name for league in leagues_due(moment)} == expected


def test_leagues_due_reads_the_moment_in_any_time_zone(leagues):
    """The same instant given in another zone picks the same leagues."""
    moment = utc(2026, 1, 12, 13, 0).astimezone(ZoneInfo("Australia/Sydney"))
    assert {league.name for league in leagues_due(moment)} == {"new_york"}


def test_leagues_due_never_picks_a_disabled_league(leagues):
    for hour in range(24 * 7):
        moment = utc(2026, 1, 12) + timedelta(hours=hour)
        assert leagues["disabled"] not in leagues_due(moment)


def test_each_enabled_league_is_due_exactly_once_a_week(leagues):
    """Over a whole week of hourly fan-outs, outside the DST changes, each enabled league comes up once."""
    seen: dict[str, int] = {}
    for hour in range(24 * 7):
        for league in leagues_due(utc(2026, 1, 11) + timedelta(hours=hour)):
            seen[league.name] = seen.get(league.name, 0) + 1
    assert seen == {name: 1 for name in leagues if name != "disabled"}


def due_count(league: League, monday: datetime) -> int:
    """How many hourly fan-outs of the week from `monday` 00:00 UTC pick `league`."""
    return sum(league in leagues_due(monday + timedelta(hours=hour)) for hour in range(24 * 7))


@pytest.mark.parametrize(
    ("tz", "hour", "monday"),
    [("Europe/London", 1, utc(2026, 3, 23)), ("America/New_York", 2, utc(2026, 3, 2, 5))],
)
def test_a_report_hour_skipped_by_the_clocks_going_forward_still_gets_that_weeks_report(tz, hour, monday):
    """I: a report hour the clocks skip that day (Sunday 01:00 London on 2026-03-29, 02:00 New York on
    2026-03-08) comes at the first hour after the gap."""
    league = make_league("spring", weekday=6, hour=hour, tz=tz)
    assert due_count(league, monday - timedelta(days=7)) == 1  # the week before: once, as always
    assert due_count(league, monday) >= 1


def test_a_report_hour_repeated_by_the_clocks_going_back_writes_and_mails_once(settings):
    """I: Sunday 01:00 in London happens twice on 2026-10-25 (00:00 and 01:00 UTC): the report comes at the
    first, once — and even a second run of that hour writes and mails nothing more."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    league = make_league("autumn", weekday=6, hour=1, tz="Europe/London")
    first, second = utc(2026, 10, 25, 0, 0), utc(2026, 10, 25, 1, 0)
    assert weekly_reports_fanout.apply(kwargs={"now": first.isoformat()}).get() == [league.pk]
    assert weekly_reports_fanout.apply(kwargs={"now": second.isoformat()}).get() == []
    assert weekly_reports_fanout.apply(kwargs={"now": first.isoformat()}).get() == [league.pk]
    assert list(LeagueReport.objects.values_list("week", flat=True)) == ["2026-W43"]
    assert [m.to for m in mail.outbox] == [[league.created_by.email]]


def test_leagues_due_is_one_query(leagues, django_assert_num_queries):
    with django_assert_num_queries(1):
        leagues_due(utc(2026, 1, 12, 8, 0))


# --- the fan-out task -------------------------------------------------------------------------------


@pytest.mark.parametrize(("moment", "expected"), DUE[:6] + DUE[8:11], ids=case_id)
def test_fanout_queues_exactly_the_leagues_due(leagues, moment, expected):
    with mock.patch.object(generate_league_report, "delay") as delay:
        result = weekly_reports_fanout.apply(kwargs={"now": moment.isoformat()})
    assert result.successful(), result.traceback
    queued = {call.args[0] for call in delay.call_args_list}
    assert queued == {leagues[name].pk for name in expected}
    assert len(delay.call_args_list) == len(expected)  # each once
    assert sorted(result.get()) == sorted(leagues[name].pk for name in expected)
    for call in delay.call_args_list:
        # The worker writes the report of the fan-out's moment, not of whenever it gets to it.
        assert call.kwargs == {"now": moment.isoformat()}


def test_fanout_without_now_uses_the_clock(leagues):
    with (
        mock.patch("django.utils.timezone.now", return_value=utc(2026, 1, 12, 13, 0)),
        mock.patch.object(generate_league_report, "delay") as delay,
    ):
        weekly_reports_fanout.apply()
    assert [call.args[0] for call in delay.call_args_list] == [leagues["new_york"].pk]


def test_fanout_queues_nothing_when_no_league_is_due(leagues):
    with mock.patch.object(generate_league_report, "delay") as delay:
        assert weekly_reports_fanout.apply(kwargs={"now": utc(2026, 1, 14, 3, 0).isoformat()}).get() == []
    delay.assert_not_called()


def test_beat_runs_the_fanout_every_hour_on_the_hour():
    app.loader.import_default_modules()
    entry = app.conf.beat_schedule["weekly-reports-fanout"]
    assert entry["task"] == "dugout.tasks.weekly_reports_fanout"
    assert entry["task"] in app.tasks
    schedule = entry["schedule"]
    assert schedule.minute == {0}
    assert schedule.hour == set(range(24))
    assert schedule.day_of_week == set(range(7))
    assert schedule.day_of_month == set(range(1, 32))
    assert app.conf.timezone == "UTC"


def test_beat_database_scheduler_stores_the_hourly_fanout():
    """The beat runs django-celery-beat's DatabaseScheduler: the settings' entry becomes an hourly crontab."""
    from django_celery_beat.models import PeriodicTask
    from django_celery_beat.schedulers import DatabaseScheduler

    assert app.conf.beat_scheduler == "django_celery_beat.schedulers:DatabaseScheduler"
    entry = dict(app.conf.beat_schedule["weekly-reports-fanout"])
    DatabaseScheduler.Entry.from_entry("weekly-reports-fanout", app=app, **entry)
    task = PeriodicTask.objects.get(name="weekly-reports-fanout")
    assert task.task == "dugout.tasks.weekly_reports_fanout" and task.enabled
    assert (task.crontab.minute, task.crontab.hour, task.crontab.day_of_week) == ("0", "*", "*")


# --- week labels ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moment", "tz", "label"),
    [
        (utc(2026, 11, 29, 23, 30), "UTC", "2026-W48"),  # Sunday in UTC
        (utc(2026, 11, 29, 23, 30), "Asia/Tokyo", "2026-W49"),  # already Monday in Tokyo
        (utc(2026, 11, 29, 23, 30), "Europe/London", "2026-W48"),
        (utc(2026, 11, 30, 4, 30), "America/New_York", "2026-W48"),  # still Sunday night in New York
        (utc(2026, 11, 30, 5, 0), "America/New_York", "2026-W49"),
        (utc(2026, 11, 30, 8, 0), "UTC", "2026-W49"),
        (utc(2027, 1, 1, 12, 0), "UTC", "2026-W53"),  # the ISO year, not the calendar year
        (utc(2026, 1, 1, 12, 0), "UTC", "2026-W01"),
        (utc(2024, 12, 30, 12, 0), "UTC", "2025-W01"),
        (utc(2026, 3, 29, 1, 30), "Europe/London", "2026-W13"),  # the night the clocks go forward
    ],
)
def test_week_label_is_the_iso_week_in_the_leagues_time_zone(moment, tz, label):
    assert week_label(moment, tz) == label
    assert len(label) <= LeagueReport._meta.get_field("week").max_length


# --- writing a week's report once ---------------------------------------------------------------------


@pytest.fixture
def members(league, coach, other_coach, make_coach):
    """The league of `commissioner` with two coaches and a member without an e-mail address."""
    make_coach(coach)
    make_coach(other_coach)
    no_mail = make_coach(UserFactory(username="nomail", email=""))
    return {"with_email": [league.created_by, coach, other_coach], "without_email": [no_mail]}


MONDAY = utc(2026, 11, 30, 8, 0)


def test_generating_twice_the_same_week_gives_one_report(league):
    first = report_generate(league_id=league.pk, moment=MONDAY)
    again = report_generate(league_id=league.pk, moment=MONDAY + timedelta(minutes=5))
    later_that_week = report_generate(league_id=league.pk, moment=MONDAY + timedelta(days=3))
    assert first.pk == again.pk == later_that_week.pk
    assert LeagueReport.objects.filter(league=league).count() == 1
    assert first.week == "2026-W49"
    assert first.week_end == MONDAY and first.week_start == MONDAY - timedelta(days=7)
    assert first.html.strip() and first.text.strip()


def test_the_next_week_gets_a_report_of_its_own(league):
    first = report_generate(league_id=league.pk, moment=MONDAY)
    second = report_generate(league_id=league.pk, moment=MONDAY + timedelta(days=7))
    assert first.pk != second.pk
    assert [r.week for r in LeagueReport.objects.filter(league=league)] == ["2026-W50", "2026-W49"]


def test_the_report_week_is_the_leagues_local_week(league):
    League.objects.filter(pk=league.pk).update(timezone="Asia/Tokyo")
    report = report_generate(league_id=league.pk, moment=utc(2026, 11, 29, 23, 0))  # Monday 08:00 in Tokyo
    assert report.week == "2026-W49"


def test_the_database_refuses_a_second_report_for_the_same_week(league):
    report = report_generate(league_id=league.pk, moment=MONDAY)
    with pytest.raises(IntegrityError), transaction.atomic():
        LeagueReport.objects.create(
            league=league, week=report.week, week_start=report.week_start, week_end=report.week_end, html="x"
        )


def test_regenerate_replaces_the_weeks_report_in_place(league):
    first = report_generate(league_id=league.pk, moment=MONDAY)
    LeagueReport.objects.filter(pk=first.pk).update(html="stale", text="stale", data={"stale": True})
    stale = LeagueReport.objects.get(pk=first.pk)
    later = MONDAY + timedelta(days=2)
    with mock.patch("django.utils.timezone.now", return_value=stale.updated_at + timedelta(hours=1)):
        again = report_generate(league_id=league.pk, moment=later, regenerate=True)
    again.refresh_from_db()
    assert again.pk == first.pk
    assert LeagueReport.objects.filter(league=league).count() == 1
    assert again.html != "stale" and again.text != "stale" and again.data != {"stale": True}
    assert again.week_end == later
    assert again.updated_at > stale.updated_at
    assert again.created_at == first.created_at


def test_without_regenerate_the_report_is_not_rewritten(league):
    first = report_generate(league_id=league.pk, moment=MONDAY)
    LeagueReport.objects.filter(pk=first.pk).update(html="kept")
    assert report_generate(league_id=league.pk, moment=MONDAY + timedelta(hours=1)).html == "kept"


# --- mailing it once per member -----------------------------------------------------------------------


def test_the_report_is_mailed_once_to_each_member_with_an_address(league, members):
    report = report_generate(league_id=league.pk, moment=MONDAY)
    assert report_mail(report_id=report.pk) == 3
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in members["with_email"])
    assert all(len(m.to) == 1 for m in mail.outbox)
    for message in mail.outbox:
        assert report.week in message.subject and league.name in message.subject
        assert message.body == report.text
        assert [tuple(a) for a in message.alternatives] == [(report.html, "text/html")]
    # The member without an address is skipped, and not marked as mailed.
    assert not ReportDelivery.objects.filter(user__in=members["without_email"], sent_at__isnull=False).exists()
    assert ReportDelivery.objects.filter(league=league, week=report.week, sent_at__isnull=False).count() == 3


def test_mailing_twice_sends_nothing_more(league, members):
    report = report_generate(league_id=league.pk, moment=MONDAY)
    report_mail(report_id=report.pk)
    assert report_mail(report_id=report.pk) == 0
    assert len(mail.outbox) == 3


def test_a_regenerated_report_is_not_mailed_again(league, members):
    report = report_generate(league_id=league.pk, moment=MONDAY)
    report_mail(report_id=report.pk)
    again = report_generate(league_id=league.pk, moment=MONDAY + timedelta(days=1), regenerate=True)
    assert report_mail(report_id=again.pk) == 0
    assert len(mail.outbox) == 3


def test_a_member_who_joins_later_in_the_week_gets_the_report_once(league, members):
    report = report_generate(league_id=league.pk, moment=MONDAY)
    report_mail(report_id=report.pk)
    newcomer = UserFactory(username="newcomer")
    Membership.objects.create(league=league, user=newcomer, role=Membership.Role.COACH)
    assert report_mail(report_id=report.pk) == 1
    assert mail.outbox[-1].to == [newcomer.email]


def test_a_member_with_two_roles_gets_one_email(league, members):
    Membership.objects.create(league=league, user=league.created_by, role=Membership.Role.COACH)
    report = report_generate(league_id=league.pk, moment=MONDAY)
    report_mail(report_id=report.pk)
    assert [m.to for m in mail.outbox].count([league.created_by.email]) == 1


def test_another_leagues_members_are_not_mailed(league, members):
    outsider = UserFactory(username="outsider")
    LeagueFactory(created_by=outsider)
    report_mail(report_id=report_generate(league_id=league.pk, moment=MONDAY).pk)
    assert outsider.email not in [m.to[0] for m in mail.outbox]


# --- the tasks, eagerly -------------------------------------------------------------------------------


def test_the_task_writes_and_mails_once_however_often_it_runs(league, members):
    now = MONDAY.isoformat()
    first = generate_league_report.apply(args=[league.pk], kwargs={"now": now})
    assert first.successful(), first.traceback
    second = generate_league_report.apply(args=[league.pk], kwargs={"now": now})
    assert first.get() == second.get() == LeagueReport.objects.get(league=league).pk
    assert len(mail.outbox) == 3
    regenerated = generate_league_report.apply(args=[league.pk], kwargs={"now": now, "regenerate": True})
    assert regenerated.get() == first.get()
    assert len(mail.outbox) == 3


def test_a_mail_server_failure_is_retried_and_nobody_is_mailed_twice(league, members):
    """The mail server drops the connection on the second member: the task retries (autoretry), and the retry
    mails only those who have not had the report."""
    from django.core.mail import EmailMultiAlternatives

    send = EmailMultiAlternatives.send
    failed: list[str] = []

    def flaky(message, *args, **kwargs):
        if message.to == [members["with_email"][1].email] and not failed:
            failed.append(message.to[0])
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return send(message, *args, **kwargs)

    with mock.patch.object(EmailMultiAlternatives, "send", flaky):
        result = generate_league_report.apply(args=[league.pk], kwargs={"now": MONDAY.isoformat()})
    assert result.successful(), result.traceback
    assert failed == [members["with_email"][1].email]
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in members["with_email"])
    assert LeagueReport.objects.filter(league=league).count() == 1


def test_eager_fanout_writes_the_due_leagues_reports_only(leagues, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert app.conf.task_always_eager is True
    result = weekly_reports_fanout.apply(kwargs={"now": utc(2026, 1, 12, 8, 0).isoformat()})
    assert result.successful(), result.traceback
    written = {r.league.name: r.week for r in LeagueReport.objects.select_related("league")}
    assert written == {"london": "2026-W03", "utc": "2026-W03"}
    # Each league's creator (its commissioner) got that league's report.
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [leagues["london"].created_by.email, leagues["utc"].created_by.email]
    )


def test_the_tokyo_report_fanned_out_on_sunday_utc_is_labelled_mondays_week(leagues, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    weekly_reports_fanout.apply(kwargs={"now": utc(2026, 11, 29, 23, 0).isoformat()})
    assert list(LeagueReport.objects.values_list("league__name", "week")) == [("tokyo", "2026-W49")]


def test_the_tasks_ack_late_and_retry_transient_failures_with_backoff():
    for task in (weekly_reports_fanout, generate_league_report):
        assert task.acks_late is True
        assert task.retry_backoff and task.max_retries
        assert OperationalError in task.autoretry_for and BrokerError in task.autoretry_for


def test_generate_now_queues_a_regeneration_of_this_weeks_report(league):
    with (
        mock.patch("django.utils.timezone.now", return_value=MONDAY),
        mock.patch.object(generate_league_report, "apply_async") as apply_async,
    ):
        assert reports.report_queue_now(league=league) == "2026-W49"
    apply_async.assert_called_once()
    assert apply_async.call_args.kwargs["args"] == [league.pk]
    assert apply_async.call_args.kwargs["kwargs"] == {"now": MONDAY.isoformat(), "regenerate": True}
