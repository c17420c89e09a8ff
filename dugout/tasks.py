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
from league.webhooks.guard import url_check
from matches.clock import clock_tick
from notifications import delivery as notification_delivery

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
    """Every ten minutes: the league clock (matches/clock.py) confirms, forfeits and announces what the house
    rules ask, then writes the match reminders due now and tells the coaches of the pending ones, each once (safe
    to run twice or on two workers at once: each act locks its match and reads its condition again, a reminder is
    a unique row claimed by one run)."""
    done = clock_tick(_moment(now))
    log.info(
        "league clock: %(confirmed)s confirmed, %(forfeited)s forfeited, %(announced)s announced; "
        "%(due)s reminder(s) due, %(sent)s sent",
        done,
    )
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


#: How many outbox rows one delivery task sends: a bigger batch (a round published to a whole league) is split
#: into tasks of this size, so each ends well within the time limit even when push services are slow.
NOTIFICATION_BATCH = 20


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
)
def notifications_deliver(self, delivery_ids: list[int]) -> dict[str, int]:
    """Mail and push these notification outbox rows, each at most once (notifications/delivery.py); queued by
    the writer after the event commits. Not retried: a refusal is marked failed with its reason, for the admin;
    a redelivered task (its worker lost) sends only the rows still pending. A big batch is split into tasks on
    the queue this one came from, which any free worker takes."""
    if len(delivery_ids) > NOTIFICATION_BATCH:
        queue = (self.request.delivery_info or {}).get("routing_key")
        for start in range(0, len(delivery_ids), NOTIFICATION_BATCH):
            self.apply_async(args=[delivery_ids[start : start + NOTIFICATION_BATCH]], queue=queue)
        return {"split": len(delivery_ids)}
    return notification_delivery.deliveries_send(
        delivery_ids=delivery_ids, base_url=reports.site_url(), endpoint_check=url_check
    )


@shared_task(acks_late=True)
def notifications_sweep() -> dict[str, int]:
    """Every few minutes: queue the deliveries the broker missed, and mark failed those that never went out."""
    return notification_delivery.deliveries_sweep()


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
)
def notifications_digest(now: str | None = None) -> dict[str, int]:
    """Daily (07:00 UTC): one mail per digest reader with his held notification e-mails, each row in one digest
    at most (claimed before mailing)."""
    return notification_delivery.digest_send(base_url=reports.site_url(), now=_moment(now))
