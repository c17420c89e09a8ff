"""The delivery task (a thin wrapper around `deliver.attempt`): retried with exponential backoff while the
receiver fails, at most `WEBHOOK_MAX_ATTEMPTS` posts; the hourly sweep queues deliveries the broker missed."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from league.reports import site_url

from . import deliver
from .emit import deliveries_queue
from .models import WebhookDelivery


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    max_retries=None,  # bounded by the row's attempts instead (the setting)
)
def webhook_deliver(self, hook_id: int, event_key: str) -> str:
    outcome = deliver.attempt_event(hook_id, event_key, base=site_url())
    if outcome == deliver.RETRY:
        countdown = min(settings.WEBHOOK_BACKOFF * 2**self.request.retries, settings.WEBHOOK_BACKOFF_MAX)
        raise self.retry(countdown=countdown)
    return outcome


@shared_task(acks_late=True)
def webhook_sweep() -> int:
    """Queue the deliveries left pending and never tried (their event committed while the broker was down)."""
    stale = timezone.now() - timedelta(minutes=5)
    ids = list(
        WebhookDelivery.objects.filter(
            status=WebhookDelivery.Status.PENDING, attempts=0, created_at__lt=stale
        ).values_list("hook_id", "event_key")[:1000]
    )
    deliveries_queue(ids)
    return len(ids)
