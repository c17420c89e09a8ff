"""A league's generated schedules (matches/schedules/ makes them) and their rounds."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Schedule(models.Model):
    """A generated schedule of a league's season (matches/schedules.py makes it): a round
    robin, a knockout bracket or a Swiss, one of each format per season. `teams` are the teams still in it in
    seeding order (a knockout's seeds, best first); `withdrawn` the ones that left it."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        KNOCKOUT = "knockout", "Knockout"
        SWISS = "swiss", "Swiss"

    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="schedules")
    season = models.PositiveSmallIntegerField()
    format = models.CharField(max_length=12, choices=Format.choices)
    legs = models.PositiveSmallIntegerField(default=1)
    days_per_round = models.PositiveSmallIntegerField(default=7)
    start = models.DateField()
    teams = models.JSONField(default=list)
    withdrawn = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "season", "format"]
        constraints = [
            models.UniqueConstraint(fields=["league", "season", "format"], name="schedule_one_format_per_season"),
            models.CheckConstraint(
                condition=Q(format__in=["round_robin", "knockout", "swiss"]), name="schedule_format_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_format_display()} of season {self.season}"


class ScheduleRound(models.Model):
    """One round of a schedule: its dates (`deadline` is its last day), the teams resting (`byes`) and, for a
    knockout, its kind and its slots in bracket order ([home, away] for a match, a team id for a bye)."""

    schedule = models.ForeignKey(Schedule, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    starts = models.DateField()
    deadline = models.DateField()
    byes = models.JSONField(default=list, blank=True)
    kind = models.CharField(max_length=10, blank=True, default="")
    slots = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["schedule", "number"]
        constraints = [models.UniqueConstraint(fields=["schedule", "number"], name="scheduleround_unique_number")]

    def __str__(self) -> str:
        return f"Round {self.number}"
