"""Celery tasks for the weekly league reports: thin wrappers around `dugout.reports.services`.

Every task acknowledges late and is rejected back to the queue when its worker is lost (a worker killed mid-task
leaves it queued: the broker hands it out again after CELERY_VISIBILITY_TIMEOUT, a little above the time limit),
and retries transient failures — the database or the broker down, the mail server unreachable — with
exponential backoff. They are safe to run twice: the fan-out only queues the reports, a week's report is written
once per league, and each member's mail is claimed from the outbox by one run only.
"""

from __future__ import annotations

import logging
import smtplib

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from kombu.exceptions import OperationalError as BrokerError

from dugout import webhook_tasks  # noqa: F401 (registers the webhook tasks with the worker)
from dugout.reports import services as reports
from league import password_reset
from matches.clock import clock_tick

log = logging.getLogger(__name__)

TRANSIENT = (OperationalError, InterfaceError, BrokerError, ConnectionError, smtplib.SMTPException, TimeoutError)
RETRY = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "soft_time_limit": settings.CELERY_TASK_SOFT_TIME_LIMIT,
    "time_limit": settings.CELERY_TASK_TIME_LIMIT,
    "autoretry_for": TRANSIENT,
    "retry_backoff": True,
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": 8,
}


def _moment(now: str | None):
    return parse_datetime(now) if now else timezone.now()


@shared_task(**RETRY)
def weekly_reports_fanout(now: str | None = None) -> list[int]:
    """Hourly: queue the report of every league whose report day and hour (its own time zone) is now."""
    moment = _moment(now)
    due = reports.leagues_due(moment)
    for league in due:
        generate_league_report.delay(league.pk, now=moment.isoformat())
    return [league.pk for league in due]


@shared_task(**RETRY)
def generate_league_report(league_id: int, now: str | None = None, regenerate: bool = False) -> int:
    """Write the league's report for the week of `now` (once, or again when `regenerate`), then mail it to
    the members who have not had it yet."""
    report = reports.report_generate(league_id=league_id, moment=_moment(now), regenerate=regenerate)
    sent = reports.report_mail(report_id=report.pk)
    log.info("league %s: report %s written, %s e-mail(s) sent", league_id, report.week, sent)
    return report.pk


@shared_task(**RETRY)
def league_clock_tick(now: str | None = None) -> dict[str, int]:
    """Hourly: the league clock (matches/clock.py) writes the match reminders due now and tells the coaches of
    the pending ones, each once (safe to run twice: a reminder is a unique row, claimed by one run)."""
    done = clock_tick(_moment(now))
    log.info("league clock: %(due)s reminder(s) due, %(sent)s sent", done)
    return done


@shared_task(acks_late=True, reject_on_worker_lost=True, soft_time_limit=60, time_limit=90)
def password_reset_send(mail_ids: list[int]) -> int:
    """Mail these password-reset rows, each at most once (league/password_reset.py). Not retried: a refused mail
    is marked failed, for the admin; the person can ask again."""
    return password_reset.password_reset_send(mail_ids=mail_ids, base_url=reports.site_url())


@shared_task(acks_late=True)
def password_reset_sweep() -> dict[str, int]:
    """Every few minutes: queue the reset mails the broker missed, and mark failed those that never went out."""
    return password_reset.password_reset_sweep()
