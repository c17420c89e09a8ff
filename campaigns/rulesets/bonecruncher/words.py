"""Bone Cruncher in words: the sentences a page or a log prints for this game, in one place.

A lasting condition has one wording everywhere (team sheet, post-match form, log, weekly report)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from campaigns.rulesets.words import *  # noqa: F403  (the shared words)
from campaigns.rulesets.words import humanise, plural

#: rules/bonecruncher.md "Wounds": what each lasting condition does until healed.
_CONDITION = {
    "incapacitated_leg": "incapacitated {side} leg (movement −2 until healed)",
    "incapacitated_arm": "incapacitated {side} arm (no distance fire, −2 in melee until healed)",
    "severed_arm": "severed {side} arm",
}


def severed_arm_heals(hr: Mapping | None) -> bool:
    """H: a severed arm never heals unless the league's house rule `trainer_healing.severed_arm_heals` says so."""
    return bool(hr and hr.get("trainer_healing", {}).get("severed_arm_heals", False))


def condition(c: Mapping[str, str] | str, *, hr: Mapping | None = None) -> str:
    """{"key": "incapacitated_leg", "side": "left"} → "incapacitated left leg (movement −2 until healed)"."""
    if not isinstance(c, Mapping):
        return humanise(c)
    key, side = str(c.get("key", "")), str(c.get("side", ""))
    template = _CONDITION.get(key)
    text = template.format(side=side).replace("  ", " ") if template else humanise(key) + (f" ({side})" if side else "")
    if key == "severed_arm" and not severed_arm_heals(hr):
        text += " (never heals)"
    return text


def conditions(cs: Iterable[Mapping[str, str]], *, hr: Mapping | None = None) -> list[str]:
    """Lasting conditions in words, in the order recorded."""
    return [condition(c, hr=hr) for c in cs]


# --- the weekly report (league/reporting) ------------------------------------------------------------------------


def report_headline(*, sides: list[dict], rows: list[dict]) -> list[str]:
    """The week's points scored (Scorchball) and eliminations (Terminix), when there were any."""
    parts = []
    points = sum(s["score"] or 0 for s in sides)
    eliminations = sum(s["eliminations"] or 0 for s in sides)
    if points:
        parts.append(plural(points, "point") + " scored")
    if eliminations:
        parts.append(plural(eliminations, "elimination"))
    return parts


def critical_wound(item: Mapping | int, *, hr: Mapping | None = None) -> str:
    """rules/bonecruncher.md "Wounds": a critical wound entered on a result ({"roll": 6, "side": "left"}) in
    words. One that lasts between matches is its lasting condition, in the one wording (`condition`); a passing
    one reads as the chart names it ("Stunned arm (left)")."""
    chart = ((hr or {}).get("critical_wound_chart") or {}).get("results", {})
    given = item if isinstance(item, Mapping) else {"roll": item}
    entry = chart.get(str(given.get("roll")), {})
    key = str(entry.get("key") or given.get("key", given.get("roll")))
    side = str(given.get("side") or "")
    if entry.get("persists_between_matches") or key in _CONDITION:
        return condition({"key": key, "side": side}, hr=hr)
    name = entry.get("name") or key.replace("_", " ").title()
    return f"{name} ({side})" if side else name


def critical_wounds(items: Iterable[Mapping | int], *, hr: Mapping | None = None) -> list[str]:
    """A player row's critical wounds in words, in the order entered."""
    return [critical_wound(item, hr=hr) for item in items]


def serious_injury(row: Mapping, *, hr: Mapping | None = None) -> tuple[str, list[str]]:
    """The week's critical wounds of a player who survived the match."""
    return "critical_wound", critical_wounds((row.get("detail") or {}).get("critical") or (), hr=hr)


def trainer_hint(hr: Mapping | None) -> str:
    """H (rules/bonecruncher.md "Wounds"): what a Trainer may do between matches, under the league's house rules."""
    boxes = int((hr or {}).get("trainer_healing", {}).get("boxes_per_trainer", 3))
    severed = "or a severed arm" if severed_arm_heals(hr) else "a severed arm never heals"
    return (
        f"A Trainer heals up to {boxes} wound boxes (never armour) on one player, or removes one incapacitated arm "
        f"or leg ({severed}). Leave a Trainer on “nobody” to rest him."
    )
