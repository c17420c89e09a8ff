"""Blitz Bowl stadiums after the match (../shared/rules/blitzbowl.md, "Post-match sequence" 4. Hire and fire):
keeping a residency after a home loss, and selling an owned stadium."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.rulesets.base import fmt_gil

from .checks import (
    HouseRules,
    check_die,
    check_non_negative,
    table_row,
)
from .checks import (
    thousands as _n,
)


@dataclass(frozen=True)
class ResidencyKeep:
    kept: bool
    cost: int
    explanation: str


@dataclass(frozen=True)
class Sale:
    amount: int
    explanation: str
    result: str = ""  # the sale table's row: "swindled", "sold_at_loss", "break_even"


# --- 4. Hire and fire ------------------------------------------------------------------------------------


def keep_residency(*, d8: int, spend_points: int, fan_factor: int, hr: HouseRules) -> ResidencyKeep:
    """R/I ("4. Hire and fire", Keeping a residency): after a loss at a home stadium the team does not own, roll
    d8: a natural 8 loses the residency (spending cannot change it, nothing is spent); otherwise the coach may
    spend 3,000 gil per −1, and a final result higher than FF loses it.
    """
    rule = hr["stadium"]["loss"]
    check_die(d8, rule["dice"], "d8")
    check_non_negative(spend_points=spend_points, fan_factor=fan_factor)
    if d8 == rule["natural_loss"]:
        return ResidencyKeep(
            kept=False,
            cost=0,
            explanation=f"Stadium roll: a natural {d8} loses the residency; gil cannot change it, so none is spent.",
        )
    final = d8 - spend_points
    cost = spend_points * rule["spend_per_point"]
    lost = rule["lose_if_above_fan_factor"] and final > fan_factor
    spent = f" − {spend_points} (bought for {spend_points} × {_n(rule['spend_per_point'])} = {fmt_gil(cost)})"
    roll = f"Stadium roll: d8 {d8}{spent if spend_points else ''} = {final}"
    if lost:
        text = f"{roll}, higher than Fan Factor {fan_factor}: the residency is lost."
    else:
        text = f"{roll}, not higher than Fan Factor {fan_factor}: the residency is kept."
    return ResidencyKeep(kept=not lost, cost=cost, explanation=text)


def _sale_row(d6: int, hr: HouseRules) -> Mapping[str, Any]:
    rule = hr["stadium"]["sale"]
    check_die(d6, rule["dice"], "d6")
    return table_row(rule["outcomes"], d6, "stadium sale table")


def stadium_sale_needs_amount_roll(*, d6: int, hr: HouseRules) -> bool:
    """R ("4. Hire and fire", Selling an owned stadium): 1 and 2–5 need a 2d6 for the amount; 6 does not."""
    return _sale_row(d6, hr)["per_pip"] != 0


_SALE_WORDS = {"swindled": "Swindled", "sold_at_loss": "Sold at a loss", "break_even": "Break even"}


def stadium_sale(*, d6: int, two_d6: int | None, hr: HouseRules) -> Sale:
    """R ("4. Hire and fire", Selling an owned stadium): d6 1 → 2d6 × 1,000 (Swindled); 2–5 → 10,000 + 2d6 ×
    1,000 (Sold at a loss); 6 → 25,000 (Break even). The team stays resident but no longer owns it.
    """
    row = _sale_row(d6, hr)
    label = _SALE_WORDS.get(row["result"], row["result"])
    if row["per_pip"]:
        if two_d6 is None:
            raise ValueError(f"a stadium sale roll of {d6} needs the 2d6 amount roll")
        check_die(two_d6, hr["stadium"]["sale"]["amount_dice"], "two_d6")
        amount = row["base"] + two_d6 * row["per_pip"]
        base = f"{_n(row['base'])} + " if row["base"] else ""
        sum_text = f"{base}{two_d6} × {_n(row['per_pip'])} = {fmt_gil(amount)}"
    else:
        amount = row["base"]
        sum_text = fmt_gil(amount)
    return Sale(
        amount=amount, explanation=f"Stadium sale roll {d6}: {label}, receive {sum_text}.", result=row["result"]
    )
