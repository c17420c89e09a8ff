"""Shared checks and number words of the Blitz Bowl post-match rules (../shared/rules/blitzbowl.md,
"Dice and rolls").

A die outside its faces, an unknown outcome or match kind, or a negative count raises ValueError: the engine
validates what coaches enter before these functions see it, so such a value is a programming error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

OUTCOMES = ("win", "draw", "loss")
OUTCOME_WORDS = {"win": "won", "draw": "drawn", "loss": "lost"}
_DICE = re.compile(r"^(\d*)d(\d+)$")

#: The league's effective house rules (data/house_rules.json merged with the commissioner's overrides).
HouseRules = Mapping[str, Any]


def parse_dice(expression: str) -> tuple[int, int]:
    """ "3d6" → (3, 6); "d20" → (1, 20)."""
    match = _DICE.match(expression.strip().lower())
    if not match:
        raise ValueError(f"not a dice expression: {expression!r}")
    count, faces = int(match.group(1) or 1), int(match.group(2))
    if count < 1 or faces < 1:
        raise ValueError(f"not a dice expression: {expression!r}")
    return count, faces


def check_die(value: Any, expression: str, name: str) -> int:
    """A single die (or the sum of the dice) of `expression` must lie within its faces."""
    count, faces = parse_dice(expression)
    if type(value) is not int or not count <= value <= count * faces:
        raise ValueError(f"{name} must be a {expression} result ({count}–{count * faces}), got {value!r}")
    return value


def check_outcome(outcome: str) -> str:
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, got {outcome!r}")
    return outcome


def check_kind(kind: str, hr: HouseRules) -> str:
    if kind not in hr["match_kinds"]:
        raise ValueError(f"kind must be one of {', '.join(hr['match_kinds'])}, got {kind!r}")
    return kind


def check_non_negative(**values: int) -> None:
    for name, value in values.items():
        if type(value) is not int or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")


def thousands(value: int) -> str:
    return f"{value:,}"


def signed(value: int) -> str:
    return f"+{value:,}" if value >= 0 else f"−{-value:,}"


def table_row(rows: Sequence[Mapping[str, Any]], value: int, what: str) -> Mapping[str, Any]:
    for row in rows:
        if row["min"] <= value <= row["max"]:
            return row
    raise ValueError(f"{what}: no table row for {value}")
