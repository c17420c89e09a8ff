"""A Trainer's healing between Bone Cruncher matches (../shared/rules/bonecruncher.md "Wounds": wound boxes and
incapacitations; the league's `trainer_healing` house rules, `severed_arm_heals` included)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from campaigns.errors import RuleViolation

from .state import (
    AREAS,
    HEAL_ORDER,
    WoundState,
    advanced_wounds,
    area_marks,
    area_order,
    is_dead,
    need_template,
)

# --- healing ---------------------------------------------------------------------------------------------------


def healable_conditions(conditions: Iterable[Mapping[str, str]], hr: Mapping) -> list[dict]:
    """H: a Trainer may remove an incapacitation other than a severed arm (the chart's `healable`) — and a severed
    arm too when the league's house rule `trainer_healing.severed_arm_heals` says so."""
    chart = {e["key"]: e for e in hr["critical_wound_chart"]["results"].values()}
    severed_heals = hr["trainer_healing"].get("severed_arm_heals", False)
    out = []
    for c in conditions:
        entry = chart.get(c.get("key", ""))
        if c.get("key") == "severed_arm":
            healable = severed_heals  # the house rule decides, whatever the chart says
        else:
            healable = entry is not None and entry.get("healable", False)
        if healable:
            out.append(dict(c))
    return out


def heal(
    state: WoundState,
    *,
    boxes: int = 0,
    areas: Mapping[str, int] | None = None,
    remove: Mapping[str, Any] | None = None,
    hr: Mapping,
    template: Mapping | None = None,
) -> WoundState:
    """H: one Trainer between matches heals up to 3 wound boxes (hr["trainer_healing"]["boxes_per_trainer"]) on
    one player — never armour — or removes one incapacitation other than a severed arm (`remove`:
    {"key", "side"}; the side may be left out when only one limb has it). Dead players stay dead.

    Boxes beyond those marked are simply not needed. Advanced: `areas` names the boxes per area (each at most the
    area's marks); without it, I: boxes heal from the head, the torso, then the limbs in template order
    (hr["heal_order"]). A RuleViolation (no field: the caller names it) refuses what the rules forbid.
    """
    rules = hr["trainer_healing"]
    advanced = advanced_wounds(hr)
    if advanced:
        template = need_template(template)
    if is_dead(state, template=template, hr=hr):
        raise RuleViolation("Dead players stay dead: a Trainer cannot heal them.")
    if remove is not None:
        if boxes or areas:
            raise RuleViolation("A Trainer heals wound boxes or removes an incapacitation, not both.")
        return _remove_condition(state, remove, hr)
    maximum = int(rules["boxes_per_trainer"])
    if areas:
        if not advanced:
            raise RuleViolation("Wound areas are only kept with advanced wounds.")
        unknown = sorted(set(areas) - set(AREAS))
        if unknown:
            raise RuleViolation(f"{', '.join(unknown)} is not a body area.")
        total = sum(int(v) for v in areas.values())
        if boxes and boxes != total:
            raise RuleViolation(f"boxes ({boxes}) must equal the boxes named per area ({total}).")
        boxes = total
    if not isinstance(boxes, int) or isinstance(boxes, bool) or boxes < 0:
        raise RuleViolation("boxes must be a whole number.")
    if boxes > maximum:
        raise RuleViolation(f"A Trainer heals at most {maximum} wound boxes.")
    if not advanced:
        return replace(state, wounds=max(0, state.wounds - boxes))
    marks = area_marks(state, template, hr)
    if areas:
        for area, n in areas.items():
            if int(n) > marks[area]:
                raise RuleViolation(f"The {area.replace('_', ' ')} has only {marks[area]} box(es) marked.")
            marks[area] -= int(n)
    else:
        left = boxes
        for area in area_order(hr, "heal_order", HEAL_ORDER):
            take = min(left, marks[area])
            marks[area] -= take
            left -= take
    return replace(state, wounds=sum(marks.values()), wound_areas={a: marks[a] for a in AREAS if marks[a]})


def _remove_condition(state: WoundState, remove: Mapping[str, Any], hr: Mapping) -> WoundState:
    key, side = remove.get("key"), remove.get("side")
    if key == "severed_arm" and not hr["trainer_healing"].get("severed_arm_heals", False):
        raise RuleViolation("A severed arm never heals.")
    matching = [c for c in state.conditions if c.get("key") == key and (side is None or c.get("side") == side)]
    if not matching:
        raise RuleViolation(f"The player has no {key}{f' ({side})' if side else ''} to heal.")
    if len(matching) > 1:
        raise RuleViolation(f"Both sides have an {key}: say which side.")
    if not healable_conditions(matching, hr):
        raise RuleViolation(f"A Trainer cannot heal an {key}.")
    gone = matching[0]
    return replace(state, conditions=tuple(c for c in state.conditions if c is not gone))
