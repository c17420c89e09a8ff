"""A match's times and deadlines: the coaches' proposed times (matches/times.py) and the league
clock's reminders (matches/clock.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class TimeProposal(models.Model):
    """A coach's proposed date and time for a match: the opponent accepts it (it
    becomes `Match.scheduled_for`) or proposes another, which supersedes it. One open proposal per match."""

    class State(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        SUPERSEDED = "superseded", "Superseded by another proposal"

    match = models.ForeignKey("Match", on_delete=models.CASCADE, related_name="time_proposals")
    #: The side that proposes it: only a coach of another side accepts.
    team = models.ForeignKey("teams.Team", on_delete=models.CASCADE, related_name="+")
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match"], condition=Q(state="open"), name="timeproposal_one_open"),
            models.CheckConstraint(
                condition=Q(state__in=["open", "accepted", "superseded"]), name="timeproposal_state_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} for {self.match} ({self.state})"


class MatchReminder(models.Model):
    """The league clock's guard (matches/clock.py): one row per coach, match, kind of reminder and deadline,
    written when the reminder falls due and given once — pending → sent, claimed by one worker with a
    conditional update in the transaction that writes the coach's `deadline_soon` notification (which the
    notifications' outbox mails or pushes as he chose). A moved deadline is a new deadline: its reminders are
    due again. A row whose deadline passed before it was given is `expired`, never sent. (`sending`: a row the
    clock was mailing itself, before reminders became notifications.)"""

    class Kind(models.TextChoices):
        TWO_DAYS = "two_days", "Two days before the deadline"
        DAY = "day", "On the day of the deadline"

    class State(models.TextChoices):
        PENDING = "pending", "pending"
        SENDING = "sending", "sending"
        SENT = "sent", "sent"
        EXPIRED = "expired", "expired"

    match = models.ForeignKey("Match", on_delete=models.CASCADE, related_name="reminders")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    deadline = models.DateTimeField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "kind", "deadline", "user"], name="matchreminder_once_per_coach"),
        ]
        indexes = [models.Index(fields=["state", "match"], name="matchreminder_by_state")]

    def __str__(self) -> str:
        return f"{self.kind} reminder of {self.match} to {self.user} ({self.state})"
