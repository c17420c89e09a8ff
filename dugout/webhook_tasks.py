"""The delivery task (a thin wrapper around `deliver.attempt`): retried with exponential backoff while the
receiver fails, at most `WEBHOOK_MAX_ATTEMPTS` posts; the hourly sweep queues deliveries the broker missed."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.db.models import Q
from django.utils import timezone

from dugout.reports.services import site_url
from league.models.webhooks import WebhookDelivery
from league.webhooks import deliver
from league.webhooks.emit import deliveries_queue


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    max_retries=None,  # bounded by the row's attempts instead (the setting)
    autoretry_for=(OperationalError, InterfaceError),  # the database away: try again later (the row is kept)
    retry_backoff=True,
    retry_backoff_max=600,
)
def webhook_deliver(self, hook_id: int, event_key: str) -> str:
    outcome = deliver.attempt_event(hook_id, event_key, base=site_url())
    if outcome == deliver.RETRY:
        countdown = min(settings.WEBHOOK_BACKOFF * 2**self.request.retries, settings.WEBHOOK_BACKOFF_MAX)
        raise self.retry(countdown=countdown)
    return outcome


@shared_task(acks_late=True)
def webhook_sweep() -> int:
    """Queue the deliveries left pending: never tried (their event committed while the broker was down), or
    whose retry never came (its message lost) well after the longest backoff."""
    now = timezone.now()
    lost = now - timedelta(seconds=settings.WEBHOOK_BACKOFF_MAX + 600)
    ids = list(
        WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING)
        .filter(Q(attempts=0, created_at__lt=now - timedelta(minutes=5)) | Q(updated_at__lt=lost))
        .values_list("hook_id", "event_key")[:1000]
    )
    deliveries_queue(ids)
    return len(ids)
