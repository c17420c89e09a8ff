"""ElfBall Advanced Rules team building as pure functions (../shared/rules/elfball.md, "Team building")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from campaigns.errors import RuleViolation


def team_points(*, player_values: Iterable[int], support: Mapping[str, int], support_points: Mapping[str, int]) -> int:
    """R: team value = 15 per player + 5 per ability held (both inside each player's value) + support bought."""
    return sum(player_values) + sum(
        count * support_points[item] for item, count in support.items() if item in support_points
    )


def check_budget(*, current: int, adding: int, budget: int, what: str) -> None:
    """R: the team's point value may never exceed 150 (H: the league's `points_budget`)."""
    if current + adding > budget:
        raise RuleViolation(
            f"{what} costs {adding} points: the team is worth {current} of its {budget}-point budget. "
            "Cut something or someone first.",
            field="points_budget",
        )


def check_minimum_players(*, players: int, minimum: int, in_creation: bool) -> None:
    """R: a team may never be cut below 6 players (once built: creation is free)."""
    if not in_creation and players - 1 < minimum:
        raise RuleViolation(f"An ElfBall team may never be cut below {minimum} players.", field="player")


def check_support_limit(*, current: int, adding: int, maximum: int, what: str) -> None:
    """R: team support items have their maximum (Magic Potion 3, Beer Garden Beauty 2, Cheerleader 4, Wizard 1)."""
    if current + adding > maximum:
        raise RuleViolation(f"A team may have at most {maximum} {what}; it has {current}.", field="quantity")
