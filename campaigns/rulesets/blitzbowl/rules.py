"""Blitz Bowl league rules as pure functions (../shared/rules/blitzbowl.md, "Teams, treasury and value").

No ORM, no randomness: every function takes plain values and returns a value or raises RuleViolation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from campaigns.errors import Conflict, RuleViolation
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


def residency_cancel_cost(*, hr: Mapping) -> int:
    """R ("3. Fortune and FAME", Residency): a home stadium can be cancelled at any time for 5,000 gil
    (H `residency.cancel_cost`)."""
    return hr["residency"]["cancel_cost"]


def check_residency_cancel(*, resident: bool, owns_stadium: bool, treasury: int, hr: Mapping) -> int:
    """R: a home stadium can be cancelled at any time for 5,000 gil (H `residency.cancel_cost`); returns the cost.

    I: "at any time" — between matches and during a post-match sequence alike. I: only a residency: a stadium the
    team owns is sold first (the hire-and-fire step; the team then stays resident and may cancel). R/I: the
    treasury pays the whole cost and never goes below 0 (refused, naming the treasury). A cost of 0 (a house
    rule) cancels for nothing. Conflict when there is nothing to cancel."""
    if not resident:
        raise Conflict("The team has no home stadium to cancel.")
    if owns_stadium:
        raise Conflict(
            "The team owns its home stadium: sell it in the post-match hire-and-fire step first; it then stays "
            "resident and its residency can be cancelled."
        )
    cost = residency_cancel_cost(hr=hr)
    check_affordable(cost=cost, treasury=treasury, what="Cancelling the home stadium")
    return cost
