"""Checks that recompute cached totals from the per-match rows and compare (the old managers drifted here)."""

from __future__ import annotations

from django.db.models import Sum

from teams.models import Player

from .models import PlayerMatch


def player_totals_audit() -> list[str]:
    """Every player's cached SPP against the sum of his per-match rows; returns the discrepancies."""
    sums = dict(PlayerMatch.objects.values("player_id").annotate(total=Sum("spp")).values_list("player_id", "total"))
    problems = []
    for player_id, spp in Player.objects.values_list("pk", "spp").iterator():
        expected = sums.get(player_id, 0) or 0
        if spp != expected:
            problems.append(f"player {player_id}: SPP {spp} but his match rows add up to {expected}")
    return problems
