"""Row locks the match services take on the teams of a match before they read and change them."""

from __future__ import annotations

from collections.abc import Iterable

from teams.models import Team


def lock_teams(team_ids: Iterable[int]) -> None:
    """Row locks on the teams, always in id order so two transactions never wait on each other in a circle."""
    list(Team.objects.select_for_update().filter(pk__in=sorted(team_ids)).order_by("pk").values_list("pk", flat=True))
