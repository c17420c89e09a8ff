"""The webhook models: a league's hooks and their delivery outbox (league/webhooks/ sends them)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from league.models.league import League

#: The events a hook may ask for (docs/api-v1.md, "Feeds, exports and webhooks").
EVENTS = ("result_confirmed", "report_published", "player_died")
URL_LENGTH = 500


class Webhook(models.Model):
    class Kind(models.TextChoices):
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"
        JSON = "json", "Signed JSON"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=URL_LENGTH)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    events = models.JSONField(default=list)
    #: The HMAC key of the `json` kind's `X-Dugout-Signature` (shown to the commissioner once, when made).
    secret = models.CharField(max_length=64)
    enabled = models.BooleanField(default=True)
    #: 404/410 answers in a row; at `WEBHOOK_GONE_LIMIT` the hook is disabled (a success resets it).
    gone_streak = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "league"
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["league", "enabled"], name="webhook_league_enabled")]
        constraints = [models.CheckConstraint(condition=Q(kind__in=["discord", "slack", "json"]), name="webhook_kind")]

    def __str__(self) -> str:
        return f"{self.kind} hook of {self.league_id}"


class WebhookDelivery(models.Model):
    """One event for one hook: the outbox row, claimed by one worker per attempt."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"  # claimed by a worker, its post under way (answered as "pending")
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed"

    hook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=30)
    #: What makes the event one event (e.g. "match:12:2026-12-02T03:00:00"): one delivery per hook and key.
    event_key = models.CharField(max_length=120)
    #: The event's facts (plain JSON, written when it happened); the body is built from them per kind.
    data = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    response_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "league"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["hook", "event_key"], name="webhook_delivery_once_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.event} → hook {self.hook_id} ({self.status})"
