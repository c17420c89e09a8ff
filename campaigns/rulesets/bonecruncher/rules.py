"""Bone Cruncher squad rules as pure functions (../shared/rules/bonecruncher.md, "Squad")."""

from __future__ import annotations

from campaigns.errors import RuleViolation


def check_squad_room(*, squad: int, limit: int) -> None:
    """R: squads of 12 players for most events (H: the league's `squad_limit`)."""
    if squad >= limit:
        raise RuleViolation(f"A Bone Cruncher squad has at most {limit} players.", field="position")


def check_role(*, role: str, current_role: str, holder: str | None) -> None:
    """R: one Great Captain per team; one Goalie, any player but the Captain."""
    if role == "goalie" and current_role == "captain":
        raise RuleViolation("The Great Captain cannot be the Goalie: make another player Captain first.", field="role")
    if role in ("captain", "goalie") and holder is not None:
        title = "Great Captain" if role == "captain" else "Goalie"
        raise RuleViolation(f"The team already has a {title} ({holder}).", field="role")


def check_staff_limit(*, current: int, adding: int, maximum: int, what: str) -> None:
    """H: up to 2 of each kind of support staff (Cheerleaders, Coaches, Trainers)."""
    if current + adding > maximum:
        raise RuleViolation(f"A team may have at most {maximum} {what}; it has {current}.", field="quantity")
