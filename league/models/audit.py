"""The league's audit: what the commissioner changed, when, and the values before and after."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from league.models.league import League


class AuditEntry(models.Model):
    """One commissioner action: who did what to which target, when, with the state before and
    after and the reason given. Written by the service that acts, in its transaction; never changed."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    #: e.g. "house_rules", "membership", "correction", "rejection", "forfeit", "schedule", "season", "adjustment".
    action = models.CharField(max_length=30)
    #: What was acted on, in words the dashboard shows (e.g. "match 12", "team 3", "season 2").
    target = models.CharField(max_length=100, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["league", "-at", "-id"], name="audit_league_newest")]

    def __str__(self) -> str:
        return f"{self.league_id}: {self.action} {self.target}"
