"""A notification (one per recipient and event, the in-app list), its deliveries (the outbox: one row per
channel that was chosen, mailed or pushed at most once), each user's choices, and his browsers' push
subscriptions."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .kinds import CHANNELS, DIGEST_OFF, DIGESTS, KIND_CHOICES


class Notification(models.Model):
    """Something happened that concerns `user`, or something waits for him. Written in the event's own
    transaction by `notifications.writer.notify` (never to the user who acted); read in the app, where it stays
    until he marks it read."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=32, choices=KIND_CHOICES)
    league = models.ForeignKey("league.League", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    team = models.ForeignKey("teams.Team", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    #: What happened, in words, as the recipient reads it (one line).
    text = models.CharField(max_length=300)
    #: Where to act on it: a path on this site (the mail and the push make it absolute).
    url = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = [
            # The list newest first and the unread count: both read by user, the count by unread only.
            models.Index(fields=["user", "-created_at", "-id"], name="notification_user_newest"),
            models.Index(fields=["user"], condition=models.Q(read_at__isnull=True), name="notification_user_unread"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to user {self.user_id}: {self.text}"


class Delivery(models.Model):
    """The outbox: one row per notification and channel the recipient chose, written with the notification and
    sent by a Celery task after commit. pending → sending (claimed by one worker with a conditional update) →
    sent, or failed (refused, or a worker died after claiming it: it may have gone out, so it is never resent by
    itself). `held`: an e-mail kept for the recipient's daily digest, which sends it with the day's others."""

    class Channel(models.TextChoices):
        EMAIL = CHANNELS[0], _("e-mail")
        PUSH = CHANNELS[1], _("push")

    class State(models.TextChoices):
        PENDING = "pending", _("pending")
        HELD = "held", _("held for the digest")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["notification", "channel"], name="delivery_once_per_channel"),
        ]
        indexes = [models.Index(fields=["state", "created_at"], name="delivery_state_created")]

    def __str__(self) -> str:
        return f"{self.channel} of notification {self.notification_id}: {self.state}"


class NotificationSettings(models.Model):
    """A user's choices: per kind, e-mail and push on or off (`kinds`, the shape of
    `notifications.kinds.default_channels`, missing kinds at their default), and whether e-mails come singly or
    as one daily digest. No row: every default."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    kinds = models.JSONField(default=dict, blank=True)
    digest = models.CharField(max_length=8, choices=[(d, d) for d in DIGESTS], default=DIGEST_OFF)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"notification settings of user {self.user_id}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (`PushSubscription.toJSON()`): where to push and the keys to encrypt
    for. A push service's 404 or 410 deletes it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"push subscription {self.pk} of user {self.user_id}"
