"""A league's divisions: a league may split its teams into divisions, each with its own
table; a team is in one division or none (`Team.division`). Kept apart from league/models.py so that module
stays under 400 lines; league/models.py imports it at its end, so `league.models.Division` is the one name."""

from __future__ import annotations

from django.db import models

from league.models.league import League

#: The longest division name (a label on a table's heading and a dashboard's select).
NAME_LENGTH = 60


class Division(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=NAME_LENGTH)
    #: Where its table stands among the league's (lowest first), then by name.
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        app_label = "league"
        ordering = ["order", "name", "id"]
        constraints = [models.UniqueConstraint(fields=["league", "name"], name="division_name_unique_per_league")]

    def __str__(self) -> str:
        return f"{self.name} ({self.league})"
