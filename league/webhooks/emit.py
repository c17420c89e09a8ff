"""Emitting an event: one outbox row per enabled hook of the league that asked for it, written in the caller's
transaction, and the delivery task queued when that transaction commits (never before: a rolled-back event is
never announced; never in the request's way: the worker posts). One query when the league has no hook for it.

`data` may be a callable, called only when some hook wants the event (its own reads cost nothing otherwise)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.db import transaction

from .models import Webhook, WebhookDelivery

log = logging.getLogger(__name__)
TASK = "league.webhooks.tasks.webhook_deliver"


def event_emit(*, league_id: int, event: str, key: str, data: dict | Callable[[], dict]) -> int:
    """Queue `event` (once per hook and `key`) for the league's hooks that listen to it; how many rows it wrote."""
    hooks = [
        pk
        for pk, events in Webhook.objects.filter(league_id=league_id, enabled=True).values_list("pk", "events")
        if event in events
    ]
    if not hooks:
        return 0
    facts: dict[str, Any] = data() if callable(data) else data
    event_key = f"{event}:{key}"[:120]
    WebhookDelivery.objects.bulk_create(
        [WebhookDelivery(hook_id=pk, event=event, event_key=event_key, data=facts) for pk in hooks],
        ignore_conflicts=True,  # the same event again: its rows exist, nothing is delivered twice
    )
    ids = list(
        WebhookDelivery.objects.filter(
            hook_id__in=hooks, event_key=event_key, status=WebhookDelivery.Status.PENDING, attempts=0
        ).values_list("pk", flat=True)
    )
    transaction.on_commit(lambda: deliveries_queue(ids))
    return len(ids)


def deliveries_queue(ids: list[int]) -> None:
    """Queue each delivery's task; with the broker down the rows stay pending (the sweep queues them later)."""
    for pk in ids:
        try:
            current_app.send_task(TASK, args=[pk], retry=False)
        except Exception:  # any broker failure: the event is kept, not lost, and the request goes on
            log.warning("webhook delivery %s not queued (broker unavailable)", pk, exc_info=True)
