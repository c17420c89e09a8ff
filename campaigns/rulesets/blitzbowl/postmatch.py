"""Blitz Bowl post-match rules as pure functions (../shared/rules/blitzbowl.md, "Post-match sequence",
"Conceding", and FAME from "Pre-match sequence").

No Django, no randomness, no I/O: dice values arrive as arguments (the engine rolls or takes them from the
coaches and records them), and every number or table is read from `hr`, the league's house rules (shaped like
data/house_rules.json). Functions that decide something return a small frozen dataclass carrying the values
and an `explanation` a coach can read: the rule and its arithmetic.

Invalid inputs (a die outside its faces, an unknown outcome) raise ValueError: they are programming errors,
since the engine validates dice before calling these functions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.rulesets.base import fmt_gil

OUTCOMES = ("win", "draw", "loss")
_OUTCOME_WORDS = {"win": "won", "draw": "drawn", "loss": "lost"}
_DICE = re.compile(r"^(\d*)d(\d+)$")

#: The league's effective house rules (data/house_rules.json merged with the commissioner's overrides).
HouseRules = Mapping[str, Any]


# --- results ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImprovementRoll:
    total: int
    is_double: bool
    options: tuple[str, ...]
    explanation: str


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


@dataclass(frozen=True)
class SponsorshipRoll:
    total: int
    result: str  # "ongoing", "one_time" or "none"
    explanation: str


@dataclass(frozen=True)
class Payment:
    amount: int
    player_misses_next_match: bool
    explanation: str


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


@dataclass(frozen=True)
class Loss:
    amount: int
    explanation: str


# --- helpers ---------------------------------------------------------------------------------------------


def parse_dice(expression: str) -> tuple[int, int]:
    """ "3d6" → (3, 6); "d20" → (1, 20)."""
    match = _DICE.match(expression.strip().lower())
    if not match:
        raise ValueError(f"not a dice expression: {expression!r}")
    count, faces = int(match.group(1) or 1), int(match.group(2))
    if count < 1 or faces < 1:
        raise ValueError(f"not a dice expression: {expression!r}")
    return count, faces


def _check_die(value: Any, expression: str, name: str) -> int:
    """A single die (or the sum of the dice) of `expression` must lie within its faces."""
    count, faces = parse_dice(expression)
    if type(value) is not int or not count <= value <= count * faces:
        raise ValueError(f"{name} must be a {expression} result ({count}–{count * faces}), got {value!r}")
    return value


def _check_outcome(outcome: str) -> str:
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, got {outcome!r}")
    return outcome


def _check_kind(kind: str, hr: HouseRules) -> str:
    if kind not in hr["match_kinds"]:
        raise ValueError(f"kind must be one of {', '.join(hr['match_kinds'])}, got {kind!r}")
    return kind


def _check_non_negative(**values: int) -> None:
    for name, value in values.items():
        if type(value) is not int or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")


def _n(value: int) -> str:
    return f"{value:,}"


def _signed(value: int) -> str:
    return f"+{value:,}" if value >= 0 else f"−{-value:,}"


def _row(rows: Sequence[Mapping[str, Any]], value: int, what: str) -> Mapping[str, Any]:
    for row in rows:
        if row["min"] <= value <= row["max"]:
            return row
    raise ValueError(f"{what}: no table row for {value}")


# --- 1. Improvements -------------------------------------------------------------------------------------


def spp_earned(
    *, completions: int, touchdowns: int, casualties: int, interceptions: int, mvp: bool, hr: HouseRules
) -> int:
    """H ("1. Improvements"): SPP — completion 1, touchdown 3, casualty 2, interception 2, MVP 5."""
    _check_non_negative(
        completions=completions, touchdowns=touchdowns, casualties=casualties, interceptions=interceptions
    )
    spp = hr["spp"]
    return (
        completions * spp["completion"]
        + touchdowns * spp["touchdown"]
        + casualties * spp["casualty"]
        + interceptions * spp["interception"]
        + (spp["mvp"] if mvp else 0)
    )


def levels_gained(*, spp_before: int, spp_after: int, hr: HouseRules) -> int:
    """H ("1. Improvements"): levels at 6, 16, 31, 51, 76, 176 SPP; each one reached gives an improvement roll.

    Counts the thresholds t with spp_before < t ≤ spp_after.
    """
    _check_non_negative(spp_before=spp_before, spp_after=spp_after)
    if spp_after < spp_before:
        raise ValueError(f"spp_after ({spp_after}) is below spp_before ({spp_before})")
    return sum(1 for t in hr["level_thresholds"] if spp_before < t <= spp_after)


_IMPROVEMENT_WORDS = {
    "normal_skill": "a normal skill",
    "double_skill": "a skill from double access",
    "ma": "+MA",
    "av": "+AV",
    "ag": "+AG",
    "st": "+ST",
}


def improvement_options(*, dice: tuple[int, int], hr: HouseRules) -> ImprovementRoll:
    """H ("1. Improvements"): 2d6 `improvement` — a double allows a skill from double access; 10 → +MA or +AV;
    11 → +AG; 12 → +ST; otherwise a normal skill. The coach may always take a normal skill instead.
    """
    table = hr["improvement_table"]
    count, _faces = parse_dice(table["dice"])
    if len(dice) != count:
        raise ValueError(f"an improvement roll is {table['dice']}, got {len(dice)} dice")
    for die in dice:
        _check_die(die, f"1d{_faces}", "improvement die")
    total = sum(dice)
    is_double = len(set(dice)) == 1
    options: list[str] = []
    if table["normal_skill_always_allowed"]:
        options.append("normal_skill")
    if is_double:
        options.append(table["double"])
    for result in _row(table["rows"], total, "improvement table")["result"].split("_or_"):
        if result not in options:
            options.append(result)
    shown = " + ".join(str(d) for d in dice)
    double = " (a double)" if is_double else ""
    words = [_IMPROVEMENT_WORDS.get(o, o) for o in options]
    choices = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
    return ImprovementRoll(
        total=total,
        is_double=is_double,
        options=tuple(options),
        explanation=f"Improvement roll {shown} = {total}{double}: the coach may take {choices}.",
    )


def improvement_value(*, choice: str, hr: HouseRules) -> int:
    """H ("1. Improvements"): value added to the player — normal skill +2,000; double skill +3,000;
    +MA or +AV +3,000; +AG +4,000; +ST +5,000.
    """
    values = hr["improvement_values"]
    if choice not in values:
        raise ValueError(f"choice must be one of {', '.join(values)}, got {choice!r}")
    return values[choice]


def skill_choices(*, categories: Sequence[str], known: Sequence[str], hr: HouseRules) -> list[str]:
    """H ("1. Improvements"): the skills of the given access categories (house rules `skills`) that the player
    does not already have, sorted. Known skills match regardless of letter case.
    """
    skills = hr["skills"]
    unknown = [c for c in categories if c not in skills]
    if unknown:
        raise ValueError(f"unknown skill categories: {', '.join(unknown)}")
    have = {name.casefold() for name in known}
    return sorted({name for c in categories for name in skills[c] if name.casefold() not in have})


# --- 2. Update team stats --------------------------------------------------------------------------------


def league_points(*, outcome: str, kind: str, hr: HouseRules) -> int:
    """R ("League", "2. Update team stats"): competition matches give win 3, draw 1, loss 0 league points
    (H: configurable); H: friendlies give none unless `friendlies_give_points`.
    """
    _check_outcome(outcome)
    _check_kind(kind, hr)
    if kind == "friendly" and not hr["friendlies_give_points"]:
        return 0
    return hr["league_points"][outcome]


# --- 3. Fortune and FAME ---------------------------------------------------------------------------------


def winnings(*, d6: int, fame: int, outcome: str, at_owned_stadium: bool, d3: int | None, hr: HouseRules) -> Winnings:
    """R ("3. Fortune and FAME", Winnings): d6 × 1,000 + FAME × 1,000 + 1,000 if won + 1,000 if drawn.

    At a stadium the team owns: won → + (d3 + FAME) × 1,000; lost → − (d3 − FAME) × 1,000, I: applied only when
    positive, and winnings never below 0. The winner's re-roll is the engine's: `d6` is the die kept.
    A conceding team gets no winnings; the engine passes "loss" for its roll and pays them to the winner.
    """
    rule = hr["winnings"]
    _check_die(d6, rule["dice"], "d6")
    _check_non_negative(fame=fame)
    _check_outcome(outcome)
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
        _check_die(d3, owned["dice"], "d3")
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
    _check_die(d6, rule["dice"], "d6")
    _check_outcome(outcome)
    _check_non_negative(fan_factor=fan_factor)
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
    terms = "".join(f" {_signed(value)} {label}" for label, value in applied)
    return Residency(
        total=total,
        result=result,
        explanation=f"Residency: d6 {d6}{terms} = {total}: {_RESIDENCY_RESULTS[result]}.",
    )


def fan_factor_dice(*, outcome: str, hr: HouseRules) -> str:
    """R ("3. Fortune and FAME", Fan Factor): 3d6 after a win, 2d6 after a draw or a loss."""
    return hr["fan_factor_change"][_check_outcome(outcome)]["dice"]


def fan_factor_change(
    *, dice: tuple[int, ...], outcome: str, fan_factor: int, conceded: bool, hr: HouseRules
) -> FanFactorChange:
    """R ("3. Fortune and FAME", Fan Factor; "Conceding"): won: 3d6 > FF → +1. Drawn: 2d6 > FF → +1,
    2d6 < FF → −1. Lost: 2d6 < FF → −1. A conceding team loses 1 FF automatically and does not roll (`dice`
    are ignored and may be empty). H: FF never below 0.
    """
    rule = hr["fan_factor_change"]
    _check_outcome(outcome)
    _check_non_negative(fan_factor=fan_factor)
    floor = min(fan_factor, rule["minimum"])
    if conceded:
        wanted = -hr["conceding"]["fan_factor_loss"]
        text = f"Conceded: Fan Factor {_signed(wanted)} automatically, without rolling"
    else:
        spec = rule[outcome]
        count, faces = parse_dice(spec["dice"])
        if len(dice) != count:
            raise ValueError(f"a {outcome} rolls {spec['dice']} for Fan Factor, got {len(dice)} dice")
        for die in dice:
            _check_die(die, f"1d{faces}", "Fan Factor die")
        score = sum(dice)
        roll = f"{_OUTCOME_WORDS[outcome].capitalize()}: {spec['dice']} rolled {' + '.join(map(str, dice))} = {score}"
        if score > fan_factor and spec["up_if_higher"]:
            wanted = rule["step"]
            text = f"{roll}, higher than Fan Factor {fan_factor}: Fan Factor {_signed(wanted)}"
        elif score < fan_factor and spec["down_if_lower"]:
            wanted = -rule["step"]
            text = f"{roll}, lower than Fan Factor {fan_factor}: Fan Factor {_signed(wanted)}"
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


def sponsorship(
    *,
    d20: int,
    fan_factor: int,
    owns_stadium: bool,
    outcome: str,
    touchdown_margin: int,
    opponent_casualties: int,
    kind: str,
    hr: HouseRules,
) -> SponsorshipRoll:
    """R ("3. Fortune and FAME", Sponsorship): d20 + FF, +2 owns a stadium, +2 won, +1 scored at least 2 more
    touchdowns than the opponent, +2 opponent suffered ≥ 3 casualties, +1 more if ≥ 5, +3 play-off match,
    +2 more if the final (a final is a play-off match). ≥ 25 Ongoing; else ≥ 20 One-time; else none.
    """
    rule = hr["sponsorship"]
    _check_die(d20, rule["dice"], "d20")
    _check_non_negative(fan_factor=fan_factor, opponent_casualties=opponent_casualties)
    _check_outcome(outcome)
    _check_kind(kind, hr)
    if type(touchdown_margin) is not int:
        raise ValueError(f"touchdown_margin must be an integer, got {touchdown_margin!r}")
    mods = rule["modifiers"]
    applied: list[tuple[str, int]] = []
    if rule["add_fan_factor"]:
        applied.append(("Fan Factor", fan_factor))
    if owns_stadium:
        applied.append(("owns a stadium", mods["owns_stadium"]))
    if outcome == "win":
        applied.append(("won", mods["won"]))
    if touchdown_margin >= rule["touchdown_margin_min"]:
        applied.append((f"scored {rule['touchdown_margin_min']}+ more touchdowns", mods["touchdown_margin"]))
    if opponent_casualties >= rule["opponent_casualties_min"]:
        applied.append(
            (f"opponent suffered {rule['opponent_casualties_min']}+ casualties", mods["opponent_casualties"])
        )
    if opponent_casualties >= rule["opponent_casualties_more_min"]:
        applied.append(
            (f"opponent suffered {rule['opponent_casualties_more_min']}+ casualties", mods["opponent_casualties_more"])
        )
    if kind in ("playoff", "final"):
        applied.append(("play-off match", mods["playoff"]))
    if kind == "final":
        applied.append(("the final", mods["final"]))
    total = d20 + sum(value for _, value in applied)
    if total >= rule["ongoing_threshold"]:
        result, words = "ongoing", f"Ongoing Sponsorship ({rule['ongoing_threshold']} or more)"
    elif total >= rule["one_time_threshold"]:
        result, words = "one_time", f"One-time Sponsorship ({rule['one_time_threshold']} or more)"
    else:
        result, words = "none", f"no sponsor (below {rule['one_time_threshold']})"
    terms = "".join(f" {_signed(value)} {label}" for label, value in applied)
    return SponsorshipRoll(total=total, result=result, explanation=f"Sponsorship: d20 {d20}{terms} = {total}: {words}.")


def _sponsorship_payment(*, spec: Mapping[str, Any], amount_die: int, risk_die: int, what: str) -> Payment:
    _check_die(amount_die, spec["amount_dice"], "amount die")
    _check_die(risk_die, spec["risk_dice"], "risk die")
    amount = amount_die * spec["amount_multiplier"]
    misses = risk_die == spec["risk_misses_on"]
    risk = (
        "a random player misses the next match"
        if misses
        else f"no player misses the next match (only a {spec['risk_misses_on']} does that)"
    )
    return Payment(
        amount=amount,
        player_misses_next_match=misses,
        explanation=(
            f"{what}: {amount_die} × {_n(spec['amount_multiplier'])} = {fmt_gil(amount)}; risk roll {risk_die}: {risk}."
        ),
    )


def one_time_sponsorship(*, d6_amount: int, d6_risk: int, hr: HouseRules) -> Payment:
    """R ("3. Fortune and FAME", One-time Sponsorship): receive d6 × 6,000 gil; on a second d6 of 1 a random
    player (not a Star Player) misses the next match.
    """
    return _sponsorship_payment(
        spec=hr["sponsorship"]["one_time"], amount_die=d6_amount, risk_die=d6_risk, what="One-time Sponsorship"
    )


def ongoing_sponsorship(*, d3_amount: int, d6_risk: int, hr: HouseRules) -> Payment:
    """R/I ("3. Fortune and FAME", Ongoing Sponsorships): each pays d3 × 1,000 gil, then its own d6: on 1 a random
    player misses the next match (I: paid from the match after it was gained).
    """
    return _sponsorship_payment(
        spec=hr["sponsorship"]["ongoing"], amount_die=d3_amount, risk_die=d6_risk, what="Ongoing Sponsorship"
    )


def random_player(*, roll: int, eligible: Sequence[int]) -> int:
    """R/H ("Dice and rolls", `random_player`): 1dN picks eligible[roll − 1]; the engine orders `eligible` by
    shirt number and leaves out those who cannot be picked (e.g. Star Players).
    """
    if not eligible:
        raise ValueError("no eligible player to pick")
    if type(roll) is not int or not 1 <= roll <= len(eligible):
        raise ValueError(f"roll must be 1–{len(eligible)}, got {roll!r}")
    return eligible[roll - 1]


def fame(*, fans: int, opponent_fans: int, hr: HouseRules) -> int:
    """H ("Pre-match sequence", 3. Fans and FAME): 0 if your fans ≤ the opponent's, 1 if more, 2 if at least
    double.
    """
    _check_non_negative(fans=fans, opponent_fans=opponent_fans)
    rule = hr["fame"]
    if fans <= opponent_fans:
        return rule["equal_or_fewer"]
    if fans >= opponent_fans * rule["double_ratio"]:
        return rule["at_least_double"]
    return rule["more"]


# --- 4. Hire and fire ------------------------------------------------------------------------------------


def keep_residency(*, d8: int, spend_points: int, fan_factor: int, hr: HouseRules) -> ResidencyKeep:
    """R/I ("4. Hire and fire", Keeping a residency): after a loss at a home stadium the team does not own, roll
    d8: a natural 8 loses the residency (spending cannot change it, nothing is spent); otherwise the coach may
    spend 3,000 gil per −1, and a final result higher than FF loses it.
    """
    rule = hr["stadium"]["loss"]
    _check_die(d8, rule["dice"], "d8")
    _check_non_negative(spend_points=spend_points, fan_factor=fan_factor)
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
    _check_die(d6, rule["dice"], "d6")
    return _row(rule["outcomes"], d6, "stadium sale table")


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
        _check_die(two_d6, hr["stadium"]["sale"]["amount_dice"], "two_d6")
        amount = row["base"] + two_d6 * row["per_pip"]
        base = f"{_n(row['base'])} + " if row["base"] else ""
        sum_text = f"{base}{two_d6} × {_n(row['per_pip'])} = {fmt_gil(amount)}"
    else:
        amount = row["base"]
        sum_text = fmt_gil(amount)
    return Sale(
        amount=amount, explanation=f"Stadium sale roll {d6}: {label}, receive {sum_text}.", result=row["result"]
    )


# --- 5. Prepare for next match ---------------------------------------------------------------------------


def _mistake_bracket(treasury: int, hr: HouseRules) -> Mapping[str, Any] | None:
    rule = hr["expensive_mistakes"]
    _check_non_negative(treasury=treasury)
    if treasury < rule["minimum_treasury"]:
        return None
    brackets = [b for b in rule["brackets"] if b["min"] <= treasury]
    return max(brackets, key=lambda b: b["min"]) if brackets else None


def expensive_mistake_needs_roll(*, treasury: int, hr: HouseRules) -> bool:
    """R/H ("5. Prepare for next match"): a treasury of 10,000 gil or more rolls for expensive mistakes."""
    return _mistake_bracket(treasury, hr) is not None


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
    _check_die(d6, rule["dice"], "d6")
    return bracket["results"][d6 - 1]


def expensive_mistake_loss(
    *, kind: str, treasury: int, d3: int | None = None, two_d6: int | None = None, hr: HouseRules
) -> Loss:
    """H ("5. Prepare for next match", Expensive mistakes): minor: lose d3 × 1,000 (never more than the
    treasury); major: lose half the treasury, the loss rounded down to the nearest 500; catastrophe: keep only
    2d6 × 1,000 if that is less than the treasury; averted or none: nothing.
    """
    rule = hr["expensive_mistakes"]
    _check_non_negative(treasury=treasury)
    if kind in ("none", "averted"):
        words = "no expensive mistake" if kind == "none" else "expensive mistake averted"
        return Loss(amount=0, explanation=f"{words.capitalize()}: nothing is lost.")
    if kind == "minor":
        spec = rule["minor"]
        if d3 is None:
            raise ValueError("a minor expensive mistake needs the d3 amount roll")
        _check_die(d3, spec["dice"], "d3")
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
        _check_die(two_d6, spec["keep_dice"], "two_d6")
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
    _check_non_negative(can_field=can_field)
    return max(0, hr["min_fielded"] - can_field)


# --- Conceding -------------------------------------------------------------------------------------------


def concede_leave_needs_roll(*, spp: int, hr: HouseRules) -> bool:
    """R ("Conceding"): every player of the conceding team with 51 SPP or more rolls `concede_leave`."""
    _check_non_negative(spp=spp)
    return spp >= hr["conceding"]["leave_spp_threshold"]


def concede_leaves(*, d6: int, spp: int, hr: HouseRules) -> bool:
    """R ("Conceding"): a conceding team's player with 51 SPP or more leaves the team on a d6 of 1–3."""
    rule = hr["conceding"]
    _check_die(d6, rule["leave_dice"], "d6")
    return concede_leave_needs_roll(spp=spp, hr=hr) and d6 <= rule["leave_on_max"]
