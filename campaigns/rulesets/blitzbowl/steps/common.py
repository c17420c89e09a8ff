"""What the Blitz Bowl post-match steps share (../shared/rules/blitzbowl.md, "Post-match sequence", "Conceding"):
who bears a concession's penalties, and the checks of a coach's list and gil answers."""

from __future__ import annotations

from typing import Any

from campaigns.errors import RuleViolation
from campaigns.rulesets.base import fmt_gil


def penalised(side) -> bool:
    """R: conceding carries its penalties unless the coach could field only 2 or fewer players."""
    return side.conceded and not side.conceded_early


def ids_among(name: str, allowed: list[int]):
    def check(value: Any) -> list[int]:
        if not isinstance(value, list) or any(v not in allowed for v in value):
            raise RuleViolation(f"choices.{name} must be a list of ids among {allowed}.", field=f"choices.{name}")
        return sorted(set(value))

    return check


def gil_multiple(name: str, unit: int, max_units: int):
    def check(value: Any) -> int:
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or value < 0
            or value % unit
            or value > max_units * unit
        ):
            raise RuleViolation(
                f"choices.{name} must be a multiple of {fmt_gil(unit)} up to {fmt_gil(max_units * unit)}.",
                field=f"choices.{name}",
            )
        return value

    return check
