"""One match's hits on a Bone Cruncher player (../shared/rules/bonecruncher.md "Wounds": armour first, wound boxes per
area, the Critical Wound Chart and the lasting conditions it leaves)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .. import words
from .state import (
    AREAS,
    OVERFLOW_ORDER,
    SIDES,
    WoundResult,
    WoundState,
    advanced_wounds,
    area_marks,
    area_order,
    armour_capacity,
    need_template,
    wound_limit,
)

# --- critical wounds -------------------------------------------------------------------------------------------


def critical_entry(roll: int, hr: Mapping) -> Mapping:
    """The Critical Wound Chart row for a d6 roll (R: 1 stunned arm … 6 severed arm)."""
    entry = hr["critical_wound_chart"]["results"].get(str(roll))
    if entry is None:
        raise ValueError(f"{roll} is not a result of the Critical Wound Chart")
    return entry


def _limb_conditions(hr: Mapping, limb: str) -> set[str]:
    return {
        e["key"]
        for e in hr["critical_wound_chart"]["results"].values()
        if e["area"] == limb and e["persists_between_matches"]
    }


def default_side(conditions: Iterable[Mapping[str, str]], *, limb: str, hr: Mapping) -> str:
    """I: a critical to an arm or leg whose side was not recorded strikes the first side whose limb is not
    already affected by a lasting condition, else the left."""
    affected = {c.get("side") for c in conditions if c.get("key") in _limb_conditions(hr, limb)}
    return next((side for side in SIDES if side not in affected), "left")


def _add_condition(conditions: list[dict], key: str, side: str) -> bool:
    """I: 2 → incapacitated leg, 3 → incapacitated arm, 6 → severed arm (replacing an incapacitated arm of that
    side); the same condition on the same limb is not kept twice, and a severed arm cannot be incapacitated."""
    if any(c["key"] == key and c.get("side") == side for c in conditions):
        return False
    if key == "incapacitated_arm" and any(c["key"] == "severed_arm" and c.get("side") == side for c in conditions):
        return False
    if key == "severed_arm":
        conditions[:] = [c for c in conditions if not (c["key"] == "incapacitated_arm" and c.get("side") == side)]
    conditions.append({"key": key, "side": side})
    return True


# --- hits ------------------------------------------------------------------------------------------------------


def apply_hits(
    state: WoundState,
    *,
    wounds: int = 0,
    areas: Mapping[str, int] | None = None,
    critical: Sequence[Mapping[str, Any] | int] = (),
    template: Mapping | None = None,
    role: str = "",
    elite: bool = False,
    hr: Mapping,
) -> WoundResult:
    """One match's hits on a player, in order: the plain wounds (basic: `wounds`; advanced: per area from `areas`,
    in the template's area order — I: a bare count with no areas strikes the torso), then each critical wound's
    chart wounds in its area (arm or leg of its side, torso, head).

    R: each hit first marks a remaining armour box (armour never heals), then a wound box; advanced: a box of its
    area — I: a hit on a full area overflows to the first area with room in the order torso, left leg, right leg,
    left arm, right arm, head (hr["wound_overflow_order"]). Marked boxes never exceed the limit; R: reaching it is
    death, and later hits find nothing to mark. Lasting conditions (I): critical 2 → incapacitated leg, 3 →
    incapacitated arm, 6 → severed arm (replacing an incapacitated arm of that side); 1, 4, 5 leave nothing between
    matches (the chart's persists_between_matches). Conditions apply in basic and advanced leagues alike.
    """
    advanced = advanced_wounds(hr)
    if advanced:
        template = need_template(template)
    capacity = armour_capacity(role=role, elite=elite, template=template, hr=hr)
    limit = wound_limit(template=template, hr=hr)
    overflow = area_order(hr, "wound_overflow_order", OVERFLOW_ORDER)
    marks = area_marks(state, template, hr) if advanced else {}
    count = sum(marks.values()) if advanced else state.wounds
    conditions = [dict(c) for c in state.conditions]
    armour_used = state.armour_used
    was_dead = count >= limit
    tally = {"armour": 0, "wounds": 0, "lost": 0, "overflow": 0}
    log: list[str] = []

    def hit(area: str | None) -> None:
        nonlocal armour_used, count
        if count >= limit:
            tally["lost"] += 1
            return
        if armour_used < capacity:
            armour_used += 1
            tally["armour"] += 1
            return
        if advanced:
            target = area if area and marks[area] < int(template[area]) else None
            if target is None:
                target = next((a for a in overflow if marks[a] < int(template[a])), None)
                if target is None:  # unreachable: the limit is never above the squares
                    tally["lost"] += 1
                    return
                tally["overflow"] += 1
            marks[target] += 1
        count += 1
        tally["wounds"] += 1

    if advanced:
        given = {a: int(v) for a, v in (areas or {}).items() if v}
        unknown = set(given) - set(AREAS)
        if unknown:
            raise ValueError(f"unknown body areas {sorted(unknown)}")
        if not given and wounds:
            given = {"torso": int(wounds)}
        for area in AREAS:
            for _ in range(given.get(area, 0)):
                hit(area)
    else:
        for _ in range(int(wounds)):
            hit(None)

    for item in critical:
        roll = item if isinstance(item, int) else int(item["roll"])
        side = None if isinstance(item, int) else item.get("side")
        entry = critical_entry(roll, hr)
        limb = entry["area"]
        if limb in ("arm", "leg"):
            side = side or default_side(conditions, limb=limb, hr=hr)
            area = f"{side}_{limb}"
            where = f", {side} {limb}"
        else:
            area, where = limb, ""
        before = (tally["armour"], tally["wounds"])
        for _ in range(int(entry["wounds"])):
            hit(area)
        lasting = ""
        if entry["persists_between_matches"] and _add_condition(conditions, entry["key"], side):
            lasting = f"; lasting: {words.condition({'key': entry['key'], 'side': side}, hr=hr)}"
        log.append(
            f"Critical wound {roll}: {entry['name']}{where} — {entry['wounds']} wound(s) "
            f"({tally['armour'] - before[0]} on armour, {tally['wounds'] - before[1]} marked){lasting}."
        )

    new_state = WoundState(
        wounds=count,
        armour_used=armour_used,
        wound_areas={a: marks[a] for a in AREAS if marks[a]} if advanced else dict(state.wound_areas),
        conditions=tuple(conditions),
    )
    dead = count >= limit
    summary = []
    if tally["armour"]:
        summary.append(
            f"armour took {tally['armour']} hit(s) ({armour_used}/{capacity} armour boxes used; armour never heals)"
        )
    if tally["wounds"]:
        where = ""
        if advanced:
            where = " — " + ", ".join(f"{a.replace('_', ' ')} {marks[a]}/{template[a]}" for a in AREAS if marks[a])
            if tally["overflow"]:
                where += f"; {tally['overflow']} overflowed from full areas"
        summary.append(f"{tally['wounds']} wound box(es) marked, {count}/{limit}{where}")
    if summary:
        line = "; ".join(summary)
        log.insert(0, line[0].upper() + line[1:] + ".")
    if dead and not was_dead:
        log.append(f"Dead: {count}/{limit} wound boxes marked.")
    if tally["lost"] and was_dead:
        log.append("Already dead: the hits mark nothing.")
    return WoundResult(
        state=new_state,
        died=dead and not was_dead,
        dead=dead,
        armour_hits=tally["armour"],
        wound_hits=tally["wounds"],
        lost_hits=tally["lost"],
        log=tuple(log),
    )


def critical_wounds(critical: Iterable[Mapping[str, Any] | int], hr: Mapping) -> int:
    """R: the wounds the chart gives the critical results (stunned arm 2, incapacitated leg 2, incapacitated
    arm 2, torso 3, head 2, severed arm 4)."""
    return sum(
        int(critical_entry(item if isinstance(item, int) else int(item["roll"]), hr)["wounds"]) for item in critical
    )
