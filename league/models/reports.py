"""The weekly report of a league and its mail outbox (one delivery row per recipient)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from league.models.league import League


class LeagueReport(models.Model):
    """The weekly league report (the commissioner's newsletter): one per league and ISO week."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="reports")
    #: The ISO week, e.g. "2026-W49".
    week = models.CharField(max_length=8)
    #: The number of the league's season the report is of: the open season when it was written; its
    #: sections count that season's matches only (docs/decisions/, "A report in the week a season turned").
    season = models.PositiveSmallIntegerField(default=1)
    week_start = models.DateTimeField()
    week_end = models.DateTimeField()
    #: The report's sections as data (the export and the feed read it) and rendered for the page and e-mail.
    data = models.JSONField(default=dict)
    html = models.TextField()
    text = models.TextField(blank=True)
    #: The chart as PNG for the e-mail (mail clients drop inline SVG): an inline part the HTML shows by `cid:`.
    chart_png = models.BinaryField(blank=True, default=b"", editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-week_start", "-id"]
        constraints = [models.UniqueConstraint(fields=["league", "week"], name="report_once_per_league_week")]

    def __str__(self) -> str:
        return f"{self.league} — week {self.week}"


class ReportDelivery(models.Model):
    """The outbox: one row per member and week, written in the report's transaction and mailed after it commits.

    pending → sending (claimed by one worker with a conditional update) → sent. A row left in `sending` (its
    worker died between claiming it and recording the send) may or may not have been mailed: it is never resent
    automatically (a member is mailed at most once); `report_mail` logs it as stuck. A regenerated report is not
    mailed again: the week's rows keep their state."""

    class State(models.TextChoices):
        PENDING = "pending", "pending"
        SENDING = "sending", "sending"
        SENT = "sent", "sent"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="report_deliveries")
    week = models.CharField(max_length=8)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="report_deliveries")
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    #: When a worker claimed the row (moved it to `sending`).
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "week", "user"], name="report_mailed_once_per_member")]
        indexes = [models.Index(fields=["league", "week", "state"], name="report_outbox_by_state")]

    def __str__(self) -> str:
        return f"{self.league} week {self.week} to {self.user} ({self.state})"
