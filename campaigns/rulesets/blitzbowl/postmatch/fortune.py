"""Blitz Bowl winnings, residency, Fan Factor and FAME (../shared/rules/blitzbowl.md, "Post-match sequence"
3. Fortune and FAME; FAME from "Pre-match sequence")."""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.rulesets.base import fmt_gil

from .checks import (
    OUTCOME_WORDS,
    HouseRules,
    check_die,
    check_non_negative,
    check_outcome,
    parse_dice,
    signed,
)
from .checks import (
    thousands as _n,
)


@dataclass(frozen=True)
class Winnings:
    amount: int
    explanation: str


@dataclass(frozen=True)
class Residency:
    total: int
    result: str  # "rejected", "costly" or "unconditional"
    explanation: str


@dataclass(frozen=True)
class FanFactorChange:
    delta: int
    explanation: str


# --- 3. Fortune and FAME ---------------------------------------------------------------------------------


def winnings(*, d6: int, fame: int, outcome: str, at_owned_stadium: bool, d3: int | None, hr: HouseRules) -> Winnings:
    """R ("3. Fortune and FAME", Winnings): d6 × 1,000 + FAME × 1,000 + 1,000 if won + 1,000 if drawn.

    At a stadium the team owns: won → + (d3 + FAME) × 1,000; lost → − (d3 − FAME) × 1,000, I: applied only when
    positive, and winnings never below 0. The winner's re-roll is the engine's: `d6` is the die kept.
    A conceding team gets no winnings; the engine passes "loss" for its roll and pays them to the winner.
    """
    rule = hr["winnings"]
    check_die(d6, rule["dice"], "d6")
    check_non_negative(fame=fame)
    check_outcome(outcome)
    bonus = rule[f"{outcome}_bonus"]
    amount = d6 * rule["multiplier"] + fame * rule["fame_multiplier"] + bonus
    parts = [f"{d6} × {_n(rule['multiplier'])}", f"FAME {fame} × {_n(rule['fame_multiplier'])}"]
    if bonus:
        parts.append(f"{outcome} {_n(bonus)}")
    lines = [f"Winnings: {' + '.join(parts)} = {fmt_gil(amount)}"]
    owned = rule["owned_stadium"]
    if at_owned_stadium and outcome in ("win", "loss"):
        if d3 is None:
            raise ValueError("d3 is needed for winnings at an owned stadium after a win or a loss")
        check_die(d3, owned["dice"], "d3")
        if outcome == "win":
            fame_part = fame if owned["win_adds_fame"] else 0
            extra = (d3 + fame_part) * owned["multiplier"]
            amount += extra
            lines.append(f"won at owned stadium: +({d3} + {fame_part}) × {_n(owned['multiplier'])} = +{fmt_gil(extra)}")
        else:
            fame_part = fame if owned["loss_subtracts_fame"] else 0
            points = d3 - fame_part
            if points > 0:
                cut = points * owned["multiplier"]
                amount -= cut
                lines.append(
                    f"lost at owned stadium: −({d3} − {fame_part}) × {_n(owned['multiplier'])} = −{fmt_gil(cut)}"
                )
            else:
                lines.append(f"lost at owned stadium: ({d3} − {fame_part}) is not positive, so nothing is deducted")
    if amount < rule["minimum"]:
        lines.append(f"winnings never go below {fmt_gil(rule['minimum'])}")
        amount = rule["minimum"]
    if len(lines) > 1:
        lines.append(f"total {fmt_gil(amount)}")
    return Winnings(amount=amount, explanation="; ".join(lines) + ".")


_RESIDENCY_RESULTS = {
    "rejected": "Rejected! No deal",
    "costly": "It'll cost you… pay all of this match's winnings to accept, or reject the offer",
    "unconditional": "Unconditional offer: the deal is made and the stadium becomes the team's home",
}


def residency(*, d6: int, outcome: str, has_ongoing_sponsorship: bool, fan_factor: int, hr: HouseRules) -> Residency:
    """R ("3. Fortune and FAME", Residency): d6 + 1 if won, −1 if lost, +2 with an Ongoing Sponsorship, +2 if
    FF ≥ 8 (I: +4 instead, not +6, if FF ≥ 13). ≤ 5 rejected; 6–8 "It'll cost you"; ≥ 9 unconditional.
    """
    rule = hr["residency"]
    check_die(d6, rule["dice"], "d6")
    check_outcome(outcome)
    check_non_negative(fan_factor=fan_factor)
    mods = rule["modifiers"]
    applied: list[tuple[str, int]] = []
    if outcome == "win":
        applied.append(("won", mods["won"]))
    elif outcome == "loss":
        applied.append(("lost", mods["lost"]))
    if has_ongoing_sponsorship:
        applied.append(("Ongoing Sponsorship", mods["ongoing_sponsorship"]))
    reached = sorted(
        (b for b in rule["fan_factor_bonuses"] if fan_factor >= b["min_fan_factor"]),
        key=lambda b: b["min_fan_factor"],
    )
    if reached and not rule["fan_factor_bonuses_cumulative"]:
        reached = reached[-1:]
    applied += [(f"Fan Factor {b['min_fan_factor']} or more", b["bonus"]) for b in reached]
    total = d6 + sum(value for _, value in applied)
    if total < rule["costs_winnings_min"]:
        result = "rejected"
    elif total < rule["unconditional_min"]:
        result = "costly"
    else:
        result = "unconditional"
    terms = "".join(f" {signed(value)} {label}" for label, value in applied)
    return Residency(
        total=total,
        result=result,
        explanation=f"Residency: d6 {d6}{terms} = {total}: {_RESIDENCY_RESULTS[result]}.",
    )


def fan_factor_dice(*, outcome: str, hr: HouseRules) -> str:
    """R ("3. Fortune and FAME", Fan Factor): 3d6 after a win, 2d6 after a draw or a loss."""
    return hr["fan_factor_change"][check_outcome(outcome)]["dice"]


def fan_factor_change(
    *, dice: tuple[int, ...], outcome: str, fan_factor: int, conceded: bool, hr: HouseRules
) -> FanFactorChange:
    """R ("3. Fortune and FAME", Fan Factor; "Conceding"): won: 3d6 > FF → +1. Drawn: 2d6 > FF → +1,
    2d6 < FF → −1. Lost: 2d6 < FF → −1. A conceding team loses 1 FF automatically and does not roll (`dice`
    are ignored and may be empty). H: FF never below 0.
    """
    rule = hr["fan_factor_change"]
    check_outcome(outcome)
    check_non_negative(fan_factor=fan_factor)
    floor = min(fan_factor, rule["minimum"])
    if conceded:
        wanted = -hr["conceding"]["fan_factor_loss"]
        text = f"Conceded: Fan Factor {signed(wanted)} automatically, without rolling"
    else:
        spec = rule[outcome]
        count, faces = parse_dice(spec["dice"])
        if len(dice) != count:
            raise ValueError(f"a {outcome} rolls {spec['dice']} for Fan Factor, got {len(dice)} dice")
        for die in dice:
            check_die(die, f"1d{faces}", "Fan Factor die")
        score = sum(dice)
        roll = f"{OUTCOME_WORDS[outcome].capitalize()}: {spec['dice']} rolled {' + '.join(map(str, dice))} = {score}"
        if score > fan_factor and spec["up_if_higher"]:
            wanted = rule["step"]
            text = f"{roll}, higher than Fan Factor {fan_factor}: Fan Factor {signed(wanted)}"
        elif score < fan_factor and spec["down_if_lower"]:
            wanted = -rule["step"]
            text = f"{roll}, lower than Fan Factor {fan_factor}: Fan Factor {signed(wanted)}"
        else:
            wanted = 0
            text = f"{roll} against Fan Factor {fan_factor}: no change"
    delta = wanted if wanted >= 0 else max(wanted, floor - fan_factor)
    if delta != wanted:
        text += f", but Fan Factor never goes below {rule['minimum']}"
    if delta:
        text += f" ({fan_factor} → {fan_factor + delta})"
    elif wanted:
        text += f" (stays at {fan_factor})"
    return FanFactorChange(delta=delta, explanation=text + ".")


def fame(*, fans: int, opponent_fans: int, hr: HouseRules) -> int:
    """H ("Pre-match sequence", 3. Fans and FAME): 0 if your fans ≤ the opponent's, 1 if more, 2 if at least
    double.
    """
    check_non_negative(fans=fans, opponent_fans=opponent_fans)
    rule = hr["fame"]
    if fans <= opponent_fans:
        return rule["equal_or_fewer"]
    if fans >= opponent_fans * rule["double_ratio"]:
        return rule["at_least_double"]
    return rule["more"]
