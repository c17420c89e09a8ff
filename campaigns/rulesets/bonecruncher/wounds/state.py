"""A Bone Cruncher player's wound record and what it can hold (../shared/rules/bonecruncher.md "Wounds", "Squad"): the
body areas, armour (protection) boxes, the wound limit, and how marks lie per area.

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

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


def advanced_wounds(hr: Mapping) -> bool:
    return bool(hr.get("advanced_wounds", False))


def need_template(template: Mapping | None) -> Mapping:
    if not template or any(area not in template for area in AREAS):
        raise ValueError("advanced wounds need the race's health template (head, torso, arms, legs)")
    return template


def armour_capacity(*, role: str, elite: bool, template: Mapping | None, hr: Mapping) -> int:
    """Armour (protection) boxes: they take the first hits and never heal.

    R basic: the Goalie and Elite players +1, the Captain +2 (hr["armour_boxes"]).
    R advanced: the race's protection boxes, Goalies +3, Elite +2 (hr["advanced_armour_bonus"]); I: the Captain
    has no advanced bonus (the templates give none).
    """
    if advanced_wounds(hr):
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
    if not advanced_wounds(hr):
        return int(hr["basic_wound_boxes"])
    template = need_template(template)
    return min(int(template["total"]), sum(int(template[a]) for a in AREAS))


def is_dead(state: WoundState, *, template: Mapping | None, hr: Mapping) -> bool:
    """R: a player whose wounds reach the limit is dead."""
    return state.wounds >= wound_limit(template=template, hr=hr)


def area_order(hr: Mapping, key: str, default: Sequence[str]) -> list[str]:
    """An area order from the house rules; unknown names dropped, missing areas appended in the default order."""
    chosen = [a for a in hr.get(key, default) if a in AREAS]
    seen = list(dict.fromkeys(chosen))
    return seen + [a for a in default if a not in seen]


def area_marks(state: WoundState, template: Mapping, hr: Mapping) -> dict[str, int]:
    """The per-area marks of an advanced record. I: a count with no areas (a league that switched to advanced
    wounds) is laid out in the overflow order."""
    if state.wound_areas or not state.wounds:
        return {a: int(state.wound_areas.get(a, 0)) for a in AREAS}
    marks = dict.fromkeys(AREAS, 0)
    left = state.wounds
    for area in area_order(hr, "wound_overflow_order", OVERFLOW_ORDER):
        take = min(left, int(template[area]))
        marks[area] += take
        left -= take
    return marks
