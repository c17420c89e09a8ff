"""The report's mail outbox: one row per member written with the report, each claimed by one conditional update
after the report commits, then mailed, then marked sent — so a crash before the claim mails later, a crash after
it never mails twice, and two runs at once send each mail once. And the broker's side of a lost worker: its
task comes back within minutes, every task acknowledged late and rejected back to the queue on worker loss."""

from __future__ import annotations

import importlib
import logging
import smtplib
import threading
from datetime import UTC, datetime
from unittest import mock

import pytest
from django.apps import apps
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.db import connections

from dugout.celery import app
from dugout.reports.services import report_generate, report_mail
from dugout.tasks import generate_league_report, weekly_reports_fanout
from league.cache import redis_broker_options
from league.models import LeagueReport, Membership, ReportDelivery
from matches.tasks import player_totals_audit
from teams.tasks import ledger_audit
from tests.factories import UserFactory

MONDAY = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
State = ReportDelivery.State


@pytest.fixture
def addresses(league):
    for username in ("ob-alice", "ob-bob"):
        user = UserFactory(username=username, email=f"{username}@example.com")
        Membership.objects.create(league=league, user=user, role=Membership.Role.COACH)
    Membership.objects.create(
        league=league, user=UserFactory(username="ob-nomail", email=""), role=Membership.Role.COACH
    )
    return sorted([league.created_by.email, "ob-alice@example.com", "ob-bob@example.com"])


def mailed() -> list[str]:
    return sorted(address for message in mail.outbox for address in message.to)


def states(league) -> dict[str, str]:
    return dict(ReportDelivery.objects.filter(league=league).values_list("user__email", "state"))


def test_the_rows_are_written_with_the_report_and_no_mail_goes_out_before_it_commits(league, addresses):
    report_generate(league_id=league.pk, moment=MONDAY)
    assert mail.outbox == []
    assert states(league) == dict.fromkeys(addresses, State.PENDING)  # the member without an address has none


def test_a_crash_after_the_report_commits_but_before_any_claim_mails_everyone_on_the_next_run(league, addresses):
    with (
        mock.patch("dugout.reports.services.report_mail", side_effect=SystemExit("worker killed")),
        pytest.raises(SystemExit),
    ):
        generate_league_report.apply(args=[league.pk], kwargs={"now": MONDAY.isoformat()})
    assert LeagueReport.objects.filter(league=league).count() == 1 and mail.outbox == []

    generate_league_report.apply(args=[league.pk], kwargs={"now": MONDAY.isoformat()})
    assert mailed() == addresses
    assert states(league) == dict.fromkeys(addresses, State.SENT)


def test_a_row_left_sending_by_a_dead_worker_is_never_mailed_again_and_is_logged(league, addresses, caplog):
    report = report_generate(league_id=league.pk, moment=MONDAY)
    ReportDelivery.objects.filter(league=league, user__email=addresses[0]).update(state=State.SENDING)
    with caplog.at_level(logging.ERROR, logger="dugout.reports.services"):
        assert report_mail(report_id=report.pk) == 2
    assert mailed() == addresses[1:]
    assert any("never marked sent" in record.getMessage() for record in caplog.records)


def test_a_refused_mail_goes_back_to_pending_and_the_retry_sends_it_once(league, addresses):
    report = report_generate(league_id=league.pk, moment=MONDAY)
    send = EmailMultiAlternatives.send
    refused = smtplib.SMTPRecipientsRefused({addresses[0]: (550, b"mailbox full")})
    with mock.patch.object(EmailMultiAlternatives, "send", side_effect=refused), pytest.raises(smtplib.SMTPException):
        report_mail(report_id=report.pk)
    assert states(league)[addresses[0]] == State.PENDING

    with mock.patch.object(EmailMultiAlternatives, "send", autospec=True, side_effect=send):
        assert report_mail(report_id=report.pk) == 3
    assert mailed() == addresses


def test_a_send_that_timed_out_is_not_sent_again(league, addresses):
    """The server may have taken the message: the row stays `sending`, and the retry mails only the others."""
    report = report_generate(league_id=league.pk, moment=MONDAY)
    with mock.patch.object(EmailMultiAlternatives, "send", side_effect=TimeoutError), pytest.raises(TimeoutError):
        report_mail(report_id=report.pk)
    assert report_mail(report_id=report.pk) == 2
    assert mailed() == addresses[1:]
    assert states(league)[addresses[0]] == State.SENDING


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_send_each_mail_once(league, addresses):
    """Each run's first send waits for the other run's first send: both are mailing at the same moment, and the
    conditional claim leaves every row to one of them."""
    report = report_generate(league_id=league.pk, moment=MONDAY)
    send = EmailMultiAlternatives.send
    both_sending = threading.Barrier(2, timeout=30)
    first_of_thread = threading.local()
    counts: list[int] = []

    def slow_send(message):
        if not getattr(first_of_thread, "done", False):
            first_of_thread.done = True
            both_sending.wait()
        return send(message)

    def run():
        try:
            counts.append(report_mail(report_id=report.pk))
        finally:
            connections.close_all()

    with mock.patch.object(EmailMultiAlternatives, "send", autospec=True, side_effect=slow_send):
        threads = [threading.Thread(target=run) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert not both_sending.broken  # they really overlapped
    assert sorted(counts) in ([1, 2], [0, 3]) and sum(counts) == 3
    assert mailed() == addresses
    assert states(league) == dict.fromkeys(addresses, State.SENT)


def test_a_regenerated_report_mails_nobody_again(league, addresses):
    report = report_generate(league_id=league.pk, moment=MONDAY)
    report_mail(report_id=report.pk)
    again = report_generate(league_id=league.pk, moment=MONDAY, regenerate=True)
    assert report_mail(report_id=again.pk) == 0
    assert mailed() == addresses


def test_deliveries_from_before_the_outbox_are_sent_if_they_have_a_sent_at(league, addresses):
    migration = importlib.import_module("league.migrations.0003_report_outbox")
    report_generate(league_id=league.pk, moment=MONDAY)
    ReportDelivery.objects.filter(league=league).update(state=State.SENDING)
    ReportDelivery.objects.filter(user__email=addresses[0]).update(sent_at=MONDAY)
    migration.states_from_sent_at(apps, None)
    assert states(league) == {addresses[0]: State.SENT, addresses[1]: State.PENDING, addresses[2]: State.PENDING}


# --- A lost worker's task comes back -------------------------------------------------------------------------


def test_a_lost_workers_task_is_handed_out_again_within_minutes_not_an_hour(settings):
    assert settings.CELERY_TASK_SOFT_TIME_LIMIT < settings.CELERY_TASK_TIME_LIMIT < settings.CELERY_VISIBILITY_TIMEOUT
    assert settings.CELERY_VISIBILITY_TIMEOUT <= 180
    options = redis_broker_options(visibility_timeout=settings.CELERY_VISIBILITY_TIMEOUT)
    assert options["visibility_timeout"] == settings.CELERY_VISIBILITY_TIMEOUT
    # Expired tasks are swept back every 10 s, not every 100 s (kombu's default throttle).
    assert options["unacked_restore_interval"] <= 10 and options["unacked_restore_throttle"] == 1
    if settings.REDIS_URL:
        assert app.conf.broker_transport_options["visibility_timeout"] == settings.CELERY_VISIBILITY_TIMEOUT


@pytest.mark.parametrize("task", [weekly_reports_fanout, generate_league_report, ledger_audit, player_totals_audit])
def test_every_task_acks_late_is_requeued_on_worker_loss_and_ends_before_the_visibility_timeout(task, settings):
    assert task.acks_late is True
    assert task.reject_on_worker_lost is True
    limit = task.time_limit or app.conf.task_time_limit
    assert limit and limit < settings.CELERY_VISIBILITY_TIMEOUT
