"""Emitting an event: one outbox row per enabled hook of the league that asked for it, written in the caller's
transaction, and the delivery task queued when that transaction commits (never before: a rolled-back event is
never announced; never in the request's way: the worker posts).
One query when no hook of the league wants it (or each has it), two when some does.

`data` may be a callable, called only when some hook wants the event (its own reads cost nothing otherwise)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.db import transaction
from django.db.models import Exists, OuterRef

from league.models.webhooks import Webhook, WebhookDelivery

log = logging.getLogger(__name__)
TASK = "dugout.webhook_tasks.webhook_deliver"


def event_emit(*, league_id: int, event: str, key: str, data: dict | Callable[[], dict]) -> int:
    """Queue `event` (once per hook and `key`) for the league's hooks that listen to it; how many rows it wrote."""
    event_key = f"{event}:{key}"[:120]
    done = WebhookDelivery.objects.filter(hook=OuterRef("pk"), event_key=event_key)
    rows = Webhook.objects.filter(league_id=league_id, enabled=True).annotate(done=Exists(done))
    hooks = [pk for pk, events, had in rows.values_list("pk", "events", "done") if event in events and not had]
    if not hooks:
        return 0  # no hook wants it, or each has it already: nothing is delivered twice
    facts: dict[str, Any] = data() if callable(data) else data
    WebhookDelivery.objects.bulk_create(
        [WebhookDelivery(hook_id=pk, event=event, event_key=event_key, data=facts) for pk in hooks],
        ignore_conflicts=True,  # the same event at once in another transaction: its row wins, this one is dropped
    )
    queued = [(pk, event_key) for pk in hooks]
    transaction.on_commit(lambda: deliveries_queue(queued))
    return len(queued)


def deliveries_queue(deliveries: list[tuple[int, str]]) -> None:
    """Queue each delivery's task (by hook and event key); with the broker down the rows stay pending (the
    hourly sweep queues them later) and the request goes on."""
    for hook_id, event_key in deliveries:
        try:
            current_app.send_task(TASK, args=[hook_id, event_key], retry=False)
        except Exception:  # any broker failure: the event is kept, not lost
            log.warning("webhook delivery of %s to hook %s not queued", event_key, hook_id, exc_info=True)
