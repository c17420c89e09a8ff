"""A coach's request for more time: a later deadline for a match, which the commissioner approves (the match's
deadline moves to `until`) or refuses (matches/extensions.py). One pending request per match."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Extension(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")

    match = models.ForeignKey("Match", on_delete=models.CASCADE, related_name="extensions")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    #: The deadline asked for: later than the match's deadline when asked.
    until = models.DateTimeField()
    reason = models.TextField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["match", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match"], condition=Q(state="pending"), name="extension_one_pending"),
            models.CheckConstraint(
                condition=Q(state__in=["pending", "approved", "refused"]), name="extension_state_known"
            ),
        ]

    def __str__(self) -> str:
        return f"extension of match {self.match_id} to {self.until:%Y-%m-%d %H:%M} ({self.state})"
