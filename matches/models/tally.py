"""Each player's running totals of a season, kept by `matches.tally` (which says how it stays exact)."""

from __future__ import annotations

from django.db import models


class PlayerSeason(models.Model):
    """One player's totals over his league's final matches of one season (kept by `tally_add`). Plain integers,
    not positive ones: taking away rows that were never added (made outside the services) must not fail a
    correction."""

    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("teams.Player", on_delete=models.CASCADE, related_name="season_tallies")
    season = models.PositiveSmallIntegerField()
    matches = models.IntegerField(default=0)
    touchdowns = models.IntegerField(default=0)
    casualties = models.IntegerField(default=0)
    goal_points = models.IntegerField(default=0)

    class Meta:
        app_label = "matches"
        constraints = [models.UniqueConstraint(fields=["player", "season"], name="playerseason_once_per_season")]
        # The report's read: a league's season, a row a player.
        indexes = [models.Index(fields=["league", "season"], name="playerseason_league_season")]

    def __str__(self) -> str:
        return f"{self.player_id} in season {self.season}"
