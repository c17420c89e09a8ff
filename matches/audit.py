"""Checks that recompute cached totals from the per-match rows and compare (the old managers drifted here)."""

from __future__ import annotations

from django.db.models import Sum

from teams.models import Player

from .models import PlayerMatch

#: Player totals that are the sums of his match rows (Blitz Bowl SPP, ElfBall Goal Points), with their labels.
AUDITED = {"spp": "SPP", "goal_points": "Goal Points"}


def player_totals_audit() -> list[str]:
    """Every player's cached totals against the sums of his per-match rows; returns the discrepancies."""
    sums = {
        row["player_id"]: row
        for row in PlayerMatch.objects.values("player_id").annotate(**{f"sum_{k}": Sum(k) for k in AUDITED})
    }
    problems = []
    for player in Player.objects.values("pk", *AUDITED).iterator():
        row = sums.get(player["pk"], {})
        for field, label in AUDITED.items():
            expected = row.get(f"sum_{field}") or 0
            if player[field] != expected:
                problems.append(
                    f"player {player['pk']}: {label} {player[field]} but his match rows add up to {expected}"
                )
    return problems
