"""Reads of a user's notifications and choices, for the API and the pages: what they list, the unread count
(the header's badge: one count on the partial index of unread rows) and the settings in their full shape."""

from __future__ import annotations

from django.db.models import QuerySet

from .kinds import DIGEST_OFF, KINDS
from .models import Notification, NotificationSettings, PushSubscription
from .writer import channels_of


def notifications_of(owner, *, unread: bool = False) -> QuerySet[Notification]:
    """`owner`'s notifications, newest first; `unread` leaves out the ones he has read."""
    rows = Notification.objects.filter(user=owner).order_by("-created_at", "-id")
    return rows.filter(read_at__isnull=True) if unread else rows


def unread_count(owner) -> int:
    """How many of `owner`'s notifications he has not read (one indexed count)."""
    return Notification.objects.filter(user=owner, read_at__isnull=True).count()


def settings_out(row: NotificationSettings | None) -> dict:
    """The settings' full shape (every kind, both channels; a kind never chosen at its default) from a user's
    row, or the defaults when he has none."""
    return {
        "kinds": {kind: channels_of(row, kind) for kind in KINDS},
        "digest": row.digest if row is not None else DIGEST_OFF,
    }


def notification_settings_of(owner) -> dict:
    """`owner`'s choices in the settings' full shape (one query)."""
    return settings_out(NotificationSettings.objects.filter(user=owner).first())


def push_subscriptions_of(owner) -> QuerySet[PushSubscription]:
    """The browsers `owner` receives pushes on, newest first."""
    return PushSubscription.objects.filter(user=owner).order_by("-created_at", "-id")
