"""The ElfBall team sheet: abilities, Goal Points, abilities to learn and lasting injuries (rules/elfball.md
"Goal Points", "Abilities", "Injuries"); values in points."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaigns.rulesets.sheet import ATTRIBUTES, NAME, NUMBER, POSITION, STATUS, VALUE, Column, hint

from . import words

__all__ = ["COLUMNS", "STAFF", "hint", "values"]

COLUMNS = (
    NUMBER,
    NAME,
    POSITION,
    ATTRIBUTES,
    Column("Abilities", "skills", css="abilities"),
    Column("GP", "goal_points", css="num goal-points", abbr="Goal Points", data="goal_points"),
    Column("To learn", "to_learn", css="entitlements", kind="learn", data="entitlements"),
    Column("Lasting injuries", "lasting", css="lasting"),
    VALUE,
    STATUS,
)

STAFF = {"magic_potion": "Magic Potions in stock", "beer_garden_beauty": "Beer garden beauty"}


def values(
    player: Any, *, shown: Mapping[str, Any], summary: Mapping[str, Any], injuries: Iterable[Mapping], hr: Mapping
) -> dict[str, Any]:
    n = int(summary.get("entitlements", 0) or 0)
    lasting = [
        f"−1 {words.humanise(i['detail'])}" if i["detail"] else "Lasting injury"
        for i in injuries
        if i["injury"] == "lasting_injury"
    ]
    return {
        "goal_points": player.goal_points,
        "entitlements": n,
        "to_learn": f"{n} abilit{'y' if n == 1 else 'ies'} to learn" if n else "—",
        "learnable": [(a, words.humanise(a)) for a in summary.get("learnable", [])],
        "lasting": ", ".join(lasting) or "—",
    }
