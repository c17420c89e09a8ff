"""Bone Cruncher wounds, armour, healing, Elite status and equipment as pure functions
(../shared/rules/bonecruncher.md "Wounds", "Veterans", "Squad" — Bloody Blades).

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).

No Django, no dice, no I/O: every number and table comes from `hr`, the league's effective house rules
(data/house_rules.json merged with the commissioner's overrides). A player's wound record is a `WoundState`;
the functions return a new one and never mutate their arguments.

Basic wounds (hr["advanced_wounds"] false): ten wound boxes, armour boxes for the Captain, the Goalie and
Elite players. Advanced wounds: the race's health template — squares per body area and protection boxes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from campaigns.errors import RuleViolation

from . import words

#: The six body areas of a health template, in the template's (rulebook's) order.
AREAS = ("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg")
SIDES = ("left", "right")
#: I: a hit on a full area goes to the first area with room in this order (house rule `wound_overflow_order`).
OVERFLOW_ORDER = ("torso", "left_leg", "right_leg", "left_arm", "right_arm", "head")
#: I: a Trainer's boxes without named areas heal the head, the torso, then the limbs (house rule `heal_order`).
HEAL_ORDER = AREAS
#: Statuses of a player alive and on the roster (a dead player is on the memorial, not the squad).
ALIVE = frozenset({"active", "miss_next_match", "journeyman"})


@dataclass(frozen=True)
class WoundState:
    """A player's wound record between matches (the player fields of api-v1)."""

    #: Wound boxes marked, armour excluded (advanced: the sum of `wound_areas`).
    wounds: int = 0
    armour_used: int = 0
    #: Advanced: boxes marked per body area.
    wound_areas: Mapping[str, int] = field(default_factory=dict)
    #: Lasting conditions: {"key": "incapacitated_leg" | "incapacitated_arm" | "severed_arm", "side": ...}.
    conditions: tuple[Mapping[str, str], ...] = ()

    @classmethod
    def of(cls, player: Any) -> WoundState:
        """The record of an engine.PlayerView (or anything with the same attributes)."""
        return cls(
            wounds=int(player.wounds or 0),
            armour_used=int(player.armour_used or 0),
            wound_areas={a: int(v) for a, v in dict(player.wound_areas or {}).items() if a in AREAS},
            conditions=tuple(dict(c) for c in (player.conditions or ())),
        )

    def fields(self) -> dict:
        """The PlayerUpdate fields (engine.PLAYER_FIELDS) that set this record, as plain JSON values."""
        return {
            "wounds": self.wounds,
            "armour_used": self.armour_used,
            "wound_areas": {a: self.wound_areas[a] for a in AREAS if self.wound_areas.get(a)},
            "conditions": [dict(c) for c in self.conditions],
        }


@dataclass(frozen=True)
class WoundResult:
    state: WoundState
    #: The player died from these hits (he was alive before them).
    died: bool
    #: The player is dead after them (died now, or was already).
    dead: bool
    armour_hits: int
    #: Wound boxes marked by these hits.
    wound_hits: int
    #: Hits that found no box (the player was already dead).
    lost_hits: int
    log: tuple[str, ...]


# --- capacities ------------------------------------------------------------------------------------------------


def race_template(race: str, hr: Mapping) -> dict:
    """The race's health template with both sides spelled out, from hr["advanced_health_templates"]
    (a fallback when the player's roster data carries none)."""
    raw = hr["advanced_health_templates"].get(race)
    if raw is None:
        return {}
    return {
        "total": raw["total"],
        "head": raw["head"],
        "torso": raw["torso"],
        "left_arm": raw["each_arm"],
        "right_arm": raw["each_arm"],
        "left_leg": raw["each_leg"],
        "right_leg": raw["each_leg"],
        "protection": raw["protection"],
    }


def _advanced(hr: Mapping) -> bool:
    return bool(hr.get("advanced_wounds", False))


def _need_template(template: Mapping | None) -> Mapping:
    if not template or any(area not in template for area in AREAS):
        raise ValueError("advanced wounds need the race's health template (head, torso, arms, legs)")
    return template


def armour_capacity(*, role: str, elite: bool, template: Mapping | None, hr: Mapping) -> int:
    """Armour (protection) boxes: they take the first hits and never heal.

    R basic: the Goalie and Elite players +1, the Captain +2 (hr["armour_boxes"]).
    R advanced: the race's protection boxes, Goalies +3, Elite +2 (hr["advanced_armour_bonus"]); I: the Captain
    has no advanced bonus (the templates give none).
    """
    if _advanced(hr):
        bonus = hr["advanced_armour_bonus"]
        return (
            int((template or {}).get("protection", 0))
            + (bonus["goalie"] if role == "goalie" else 0)
            + (bonus["elite"] if elite else 0)
        )
    boxes = hr["armour_boxes"]
    return (boxes.get(role, 0) if role in ("captain", "goalie") else 0) + (boxes["elite"] if elite else 0)


def wound_limit(*, template: Mapping | None, hr: Mapping) -> int:
    """The wound boxes that kill when all are marked.

    R basic: 10 (hr["basic_wound_boxes"]). R advanced: the template's total; I: never more than the sum of the
    six areas (the Amazons' rulebook total 33 is one more than their 32 squares), so every template can be filled.
    """
    if not _advanced(hr):
        return int(hr["basic_wound_boxes"])
    template = _need_template(template)
    return min(int(template["total"]), sum(int(template[a]) for a in AREAS))


def is_dead(state: WoundState, *, template: Mapping | None, hr: Mapping) -> bool:
    """R: a player whose wounds reach the limit is dead."""
    return state.wounds >= wound_limit(template=template, hr=hr)


def _order(hr: Mapping, key: str, default: Sequence[str]) -> list[str]:
    """An area order from the house rules; unknown names dropped, missing areas appended in the default order."""
    chosen = [a for a in hr.get(key, default) if a in AREAS]
    seen = list(dict.fromkeys(chosen))
    return seen + [a for a in default if a not in seen]


def _marks(state: WoundState, template: Mapping, hr: Mapping) -> dict[str, int]:
    """The per-area marks of an advanced record. I: a count with no areas (a league that switched to advanced
    wounds) is laid out in the overflow order."""
    if state.wound_areas or not state.wounds:
        return {a: int(state.wound_areas.get(a, 0)) for a in AREAS}
    marks = dict.fromkeys(AREAS, 0)
    left = state.wounds
    for area in _order(hr, "wound_overflow_order", OVERFLOW_ORDER):
        take = min(left, int(template[area]))
        marks[area] += take
        left -= take
    return marks


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
    advanced = _advanced(hr)
    if advanced:
        template = _need_template(template)
    capacity = armour_capacity(role=role, elite=elite, template=template, hr=hr)
    limit = wound_limit(template=template, hr=hr)
    overflow = _order(hr, "wound_overflow_order", OVERFLOW_ORDER)
    marks = _marks(state, template, hr) if advanced else {}
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
    advanced = _advanced(hr)
    if advanced:
        template = _need_template(template)
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
    marks = _marks(state, template, hr)
    if areas:
        for area, n in areas.items():
            if int(n) > marks[area]:
                raise RuleViolation(f"The {area.replace('_', ' ')} has only {marks[area]} box(es) marked.")
            marks[area] -= int(n)
    else:
        left = boxes
        for area in _order(hr, "heal_order", HEAL_ORDER):
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


# --- veterans --------------------------------------------------------------------------------------------------


def qualifies_for_elite(*, matches_survived: int, elite: bool, hr: Mapping) -> bool:
    """R: a veteran who has survived numerous games reaches Elite status (H: 5 matches survived; the coach
    promotes)."""
    return not elite and matches_survived >= int(hr["elite"]["matches_to_qualify"])


def elite_slots(players: Iterable[Any], hr: Mapping) -> int:
    """Elite promotions open now. R: no more than one Elite player besides the Captain may be on the field; I: the
    service caps a squad's living Elite players besides the Captain at hr["elite"]["max_on_field_besides_captain"]
    (a Captain who is Elite does not count, and may always be promoted)."""
    taken = sum(1 for p in players if p.elite and p.role != "captain" and p.status in ALIVE)
    return max(0, int(hr["elite"]["max_on_field_besides_captain"]) - taken)


# --- movement and equipment -------------------------------------------------------------------------------------


def movement(
    *, base: int, conditions: Iterable[Mapping[str, str]] = (), weapon: str = "none", race: str = "", hr: Mapping
) -> int:
    """R: movement less 2 per incapacitated leg (hr["movement"]["incapacitated_leg_modifier"]) and, with Bloody
    Blades, less the polearm penalty for Halfling and Undead players (hr["bloody_blades_weapons"]); never below 0."""
    legs = sum(1 for c in conditions if c.get("key") == "incapacitated_leg")
    value = base + legs * int(hr["movement"]["incapacitated_leg_modifier"])
    spec = hr["bloody_blades_weapons"].get(weapon or "none", {})
    if race in spec.get("movement_penalty_races", ()):
        value -= int(spec.get("movement_penalty", 0))
    return max(0, value)


def check_equipment(*, weapon: str = "none", shield: bool = False, hr: Mapping) -> None:
    """R Bloody Blades (league option hr["bloody_blades"]): nothing, a Blade or a Polearm; a Shield with nothing
    or a Blade, never with a Polearm. Without the option players carry no weapon and no shield (I: refused naming
    `weapon`)."""
    weapons = hr["bloody_blades_weapons"]
    if not isinstance(shield, bool):
        raise RuleViolation("shield must be true or false.", field="shield")
    if not hr.get("bloody_blades", False):
        if weapon != "none" or shield:
            raise RuleViolation(
                "This league does not play Bloody Blades: players carry no weapon and no shield.", field="weapon"
            )
        return
    if weapon not in weapons:
        raise RuleViolation(f"weapon must be one of {', '.join(weapons)}.", field="weapon")
    if shield and not weapons[weapon].get("shield_allowed", True):
        raise RuleViolation(f"A player with a {weapons[weapon]['name']} cannot carry a Shield.", field="shield")
