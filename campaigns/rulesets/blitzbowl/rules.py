"""Blitz Bowl league rules as pure functions (../shared/rules/blitzbowl.md, "Teams, treasury and value").

No ORM, no randomness: every function takes plain values and returns a value or raises RuleViolation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from campaigns.errors import RuleViolation
from campaigns.rulesets.base import fmt_gil


def reroll_price(*, base_cost: int, in_creation: bool, multiplier: int) -> int:
    """R: re-rolls bought after team creation cost double the roster price. H: base price in creation."""
    return base_cost if in_creation else base_cost * multiplier


def team_value(
    *,
    player_values: Iterable[int],
    staff: Mapping[str, int],
    staff_prices: Mapping[str, int],
    rerolls: int,
    reroll_cost: int,
    fan_factor: int,
    fan_factor_value: int,
) -> int:
    """R: TV = players who can play the next match + coaching staff + re-rolls (base cost) + FF value.

    Treasury and players missing the next match never count (callers pass only players who can play).
    H: Fan Factor is worth FF × 1,000 gil.
    """
    staff_value = sum(count * staff_prices[item] for item, count in staff.items() if item in staff_prices)
    return sum(player_values) + staff_value + rerolls * reroll_cost + fan_factor * fan_factor_value


def check_roster_room(*, on_roster: int, max_roster: int) -> None:
    """R: at most 16 players on the roster (H: league's `max_roster`)."""
    if on_roster >= max_roster:
        raise RuleViolation(f"A team may have at most {max_roster} players on its roster.", field="position")


def check_affordable(*, cost: int, treasury: int, what: str) -> None:
    """R/I: the treasury may never go below 0."""
    if cost > treasury:
        raise RuleViolation(
            f"Not enough gil: {what} costs {fmt_gil(cost)} and the treasury holds {fmt_gil(treasury)}.",
            field="treasury",
        )


def check_count_limit(*, current: int, adding: int, maximum: int, what: str) -> None:
    if current + adding > maximum:
        raise RuleViolation(
            f"A team may have at most {maximum} {what}; it has {current} and cannot add {adding}.",
            field="quantity",
        )
