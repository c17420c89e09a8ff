"""Blitz Bowl expensive mistakes and journeymen (../shared/rules/blitzbowl.md, "Post-match sequence"
5. Prepare for next match)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.rulesets.base import fmt_gil

from .checks import (
    HouseRules,
    check_die,
    check_non_negative,
)
from .checks import (
    thousands as _n,
)


@dataclass(frozen=True)
class Loss:
    amount: int
    explanation: str


# --- 5. Prepare for next match ---------------------------------------------------------------------------


def _mistake_bracket(treasury: int, hr: HouseRules) -> Mapping[str, Any] | None:
    rule = hr["expensive_mistakes"]
    check_non_negative(treasury=treasury)
    if treasury < rule["minimum_treasury"]:
        return None
    brackets = [b for b in rule["brackets"] if b["min"] <= treasury]
    return max(brackets, key=lambda b: b["min"]) if brackets else None


def expensive_mistake_needs_roll(*, treasury: int, hr: HouseRules) -> bool:
    """R/H ("5. Prepare for next match"): a treasury of 10,000 gil or more rolls for expensive mistakes."""
    return _mistake_bracket(treasury, hr) is not None


def expensive_mistake_kinds(*, treasury: int, hr: HouseRules) -> frozenset[str]:
    """R/H ("5. Prepare for next match", Expensive mistakes): the results the d6 can give on the treasury's
    bracket (empty below 10,000 gil: no roll). A "minor" needs the d3 amount roll, a "catastrophe" the 2d6."""
    bracket = _mistake_bracket(treasury, hr)
    return frozenset(bracket["results"]) if bracket else frozenset()


def expensive_mistake(*, treasury: int, d6: int | None, hr: HouseRules) -> str:
    """R trigger, H table ("5. Prepare for next match", Expensive mistakes): "none" below 10,000 gil (no roll);
    otherwise the d6 on the treasury's bracket (the highest `min` ≤ treasury): "averted", "minor", "major" or
    "catastrophe".
    """
    bracket = _mistake_bracket(treasury, hr)
    if bracket is None:
        return "none"
    rule = hr["expensive_mistakes"]
    if d6 is None:
        raise ValueError(f"a treasury of {fmt_gil(treasury)} must roll for expensive mistakes")
    check_die(d6, rule["dice"], "d6")
    return bracket["results"][d6 - 1]


def expensive_mistake_loss(
    *, kind: str, treasury: int, d3: int | None = None, two_d6: int | None = None, hr: HouseRules
) -> Loss:
    """H ("5. Prepare for next match", Expensive mistakes): minor: lose d3 × 1,000 (never more than the
    treasury); major: lose half the treasury, the loss rounded down to the nearest 500; catastrophe: keep only
    2d6 × 1,000 if that is less than the treasury; averted or none: nothing.
    """
    rule = hr["expensive_mistakes"]
    check_non_negative(treasury=treasury)
    if kind in ("none", "averted"):
        words = "no expensive mistake" if kind == "none" else "expensive mistake averted"
        return Loss(amount=0, explanation=f"{words.capitalize()}: nothing is lost.")
    if kind == "minor":
        spec = rule["minor"]
        if d3 is None:
            raise ValueError("a minor expensive mistake needs the d3 amount roll")
        check_die(d3, spec["dice"], "d3")
        rolled = d3 * spec["multiplier"]
        amount = min(rolled, treasury)
        text = f"Minor expensive mistake: lose {d3} × {_n(spec['multiplier'])} = {fmt_gil(rolled)}"
        if amount < rolled:
            text += f", but only the {fmt_gil(treasury)} in the treasury"
        return Loss(amount=amount, explanation=text + ".")
    if kind == "major":
        spec = rule["major"]
        num, den, step = spec["lose_fraction_numerator"], spec["lose_fraction_denominator"], spec["round_down_to"]
        share = treasury * num // den
        amount = share // step * step if step else share
        return Loss(
            amount=amount,
            explanation=(
                f"Major expensive mistake: lose {num}/{den} of {fmt_gil(treasury)} = {fmt_gil(share)}, "
                f"rounded down to the nearest {_n(step)}: lose {fmt_gil(amount)}."
            ),
        )
    if kind == "catastrophe":
        spec = rule["catastrophe"]
        if two_d6 is None:
            raise ValueError("a catastrophic expensive mistake needs the 2d6 roll")
        check_die(two_d6, spec["keep_dice"], "two_d6")
        kept = two_d6 * spec["multiplier"]
        if kept < treasury:
            amount = treasury - kept
            text = (
                f"Catastrophe: keep only {two_d6} × {_n(spec['multiplier'])} = {fmt_gil(kept)} of "
                f"{fmt_gil(treasury)}: lose {fmt_gil(amount)}."
            )
        else:
            amount = 0
            text = (
                f"Catastrophe: keep {two_d6} × {_n(spec['multiplier'])} = {fmt_gil(kept)}, not less than the "
                f"{fmt_gil(treasury)} in the treasury: nothing is lost."
            )
        return Loss(amount=amount, explanation=text)
    raise ValueError(f"kind must be none, averted, minor, major or catastrophe, got {kind!r}")


def journeymen_needed(*, can_field: int, hr: HouseRules) -> int:
    """R ("5. Prepare for next match", Journeymen): a team that can field 10 or fewer players adds free
    Journeymen until it can field 11.
    """
    check_non_negative(can_field=can_field)
    return max(0, hr["min_fielded"] - can_field)
