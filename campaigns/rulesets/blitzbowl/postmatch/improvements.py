"""Blitz Bowl improvements (../shared/rules/blitzbowl.md, "Post-match sequence" 1. Improvements): SPP, levels, the
improvement roll and what each choice adds to the player's value."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .checks import (
    HouseRules,
    check_die,
    check_non_negative,
    parse_dice,
    table_row,
)


@dataclass(frozen=True)
class ImprovementRoll:
    total: int
    is_double: bool
    options: tuple[str, ...]
    explanation: str


# --- 1. Improvements -------------------------------------------------------------------------------------


def spp_earned(
    *, completions: int, touchdowns: int, casualties: int, interceptions: int, mvp: bool, hr: HouseRules
) -> int:
    """H ("1. Improvements"): SPP — completion 1, touchdown 3, casualty 2, interception 2, MVP 5."""
    check_non_negative(
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
    check_non_negative(spp_before=spp_before, spp_after=spp_after)
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
        check_die(die, f"1d{_faces}", "improvement die")
    total = sum(dice)
    is_double = len(set(dice)) == 1
    options: list[str] = []
    if table["normal_skill_always_allowed"]:
        options.append("normal_skill")
    if is_double:
        options.append(table["double"])
    for result in table_row(table["rows"], total, "improvement table")["result"].split("_or_"):
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
