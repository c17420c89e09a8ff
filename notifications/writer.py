"""The one writer of notifications: `notify` is called by a service inside the transaction of the event it
reports, writes one notification per recipient (never to the actor), and the outbox rows for the channels each
recipient chose; the deliveries are queued after commit (`dugout.tasks.notifications_deliver`), so a refused or
rolled-back event tells nobody anything.

Three queries whatever the number of recipients (their settings and push subscriptions, then two inserts), and
none when nobody is to be told.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from celery import current_app
from django.contrib.auth import get_user_model
from django.db import transaction

from .kinds import DIGEST_DAILY, EMAIL, KINDS, PUSH, default_channels
from .models import Delivery, Notification, NotificationSettings, PushSubscription

log = logging.getLogger(__name__)

#: The Celery task that sends a batch of deliveries (by name: this layer does not import the project's tasks).
DELIVER_TASK = "dugout.tasks.notifications_deliver"


def channels_of(settings_row: NotificationSettings | None, kind: str) -> dict[str, bool]:
    """Whether `kind` is mailed and pushed for the user whose settings row this is (None: the defaults)."""
    chosen = dict(default_channels()[kind])
    if settings_row is not None:
        chosen.update({c: bool(v) for c, v in (settings_row.kinds.get(kind) or {}).items() if c in chosen})
    return chosen


def _recipient_ids(recipients: Iterable, actor) -> list[int]:
    """Distinct user ids (users or ids accepted), in a stable order, without the actor and without nobody."""
    actor_id = getattr(actor, "pk", actor)
    ids = {getattr(r, "pk", r) for r in recipients}
    return sorted(i for i in ids if i is not None and i != actor_id)


def notify(
    kind: str,
    *,
    recipients: Iterable,
    actor,
    text: str,
    url: str,
    league=None,
    match=None,
    team=None,
) -> list[Notification]:
    """Tell each of `recipients` (users or user ids) about an event of `kind`; `actor` (a user, an id, or None
    for the league clock) is left out. Must run inside the event's transaction. Returns the notifications."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    ids = _recipient_ids(recipients, actor)
    if not ids:
        return []
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("notify() belongs inside the event's transaction")
    users = get_user_model().objects.filter(pk__in=ids).select_related("notification_settings")
    users = {u.pk: u for u in users}
    pushable = set(PushSubscription.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    notes = Notification.objects.bulk_create(
        Notification(user_id=uid, kind=kind, league=league, match=match, team=team, text=text[:300], url=url[:300])
        for uid in ids
        if uid in users
    )
    rows = []
    for note in notes:
        user = users[note.user_id]
        prefs = getattr(user, "notification_settings", None)
        chosen = channels_of(prefs, kind)
        if chosen[EMAIL] and user.email:
            held = prefs is not None and prefs.digest == DIGEST_DAILY
            rows.append(Delivery(notification=note, channel=EMAIL, state=Delivery.State.HELD if held else None))
        if chosen[PUSH] and note.user_id in pushable:
            rows.append(Delivery(notification=note, channel=PUSH))
    for row in rows:
        row.state = row.state or Delivery.State.PENDING
    written = Delivery.objects.bulk_create(rows)
    due = [d.pk for d in written if d.state == Delivery.State.PENDING]
    if due:
        transaction.on_commit(lambda: queue_deliveries(due))
    return notes


def queue_deliveries(delivery_ids: list[int]) -> bool:
    """Queue the sending task for these outbox rows; with the broker down they stay pending for the sweep."""
    try:
        current_app.send_task(DELIVER_TASK, args=[delivery_ids], retry=False)
    except Exception:  # any broker failure: the rows are kept, the sweep queues them
        log.warning("notification deliveries %s not queued", delivery_ids, exc_info=True)
        return False
    return True
