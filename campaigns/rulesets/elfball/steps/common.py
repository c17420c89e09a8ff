"""What the ElfBall post-match steps share (../shared/rules/elfball.md "Team building": a team's value in points): the
roster in shirt order, counted words, and the coach's player ids."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaigns.engine import PlayerView, TeamView

from .. import postmatch as pm
from .. import rules


def in_order(players: Iterable[PlayerView]) -> list[PlayerView]:
    return sorted(players, key=lambda p: (p.number is None, p.number or 0, p.id))


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def title(key: str) -> str:
    return key.replace("_", " ").title()


def team_points(team: TeamView, hr: Mapping) -> int:
    """R: team value = each player's value on the roster (15 a rookie + 5 per ability) + the support bought."""
    return rules.team_points(
        player_values=(p.value for p in team.players if p.status in pm.ON_ROSTER),
        support=team.staff,
        support_points={item: spec["points"] for item, spec in hr["support"].items()},
    )


def player_key(key: Any) -> int | None:
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key
    if isinstance(key, str) and key.strip().lstrip("-").isdigit():
        return int(key)
    return None
