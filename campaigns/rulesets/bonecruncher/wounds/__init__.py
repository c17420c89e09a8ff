"""Bone Cruncher wounds, armour, healing, Elite status and equipment as pure functions
(../shared/rules/bonecruncher.md "Wounds", "Veterans", "Squad" — Bloody Blades), one module per concern:

- `state` — the wound record (`WoundState`), body areas, armour boxes, the wound limit;
- `hits` — one match's hits and the Critical Wound Chart's lasting conditions;
- `healing` — a Trainer's healing between matches;
- `veterans` — Elite status, movement, Bloody Blades equipment.

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).

No Django, no dice, no I/O: every number and table comes from `hr`, the league's effective house rules
(data/house_rules.json merged with the commissioner's overrides). A player's wound record is a `WoundState`;
the functions return a new one and never mutate their arguments.

Basic wounds (hr["advanced_wounds"] false): ten wound boxes, armour boxes for the Captain, the Goalie and
Elite players. Advanced wounds: the race's health template — squares per body area and protection boxes.
Every public name stays importable from here.
"""

from .healing import heal, healable_conditions
from .hits import apply_hits, critical_entry, critical_wounds, default_side
from .state import (
    ALIVE,
    AREAS,
    HEAL_ORDER,
    OVERFLOW_ORDER,
    SIDES,
    WoundResult,
    WoundState,
    advanced_wounds,
    armour_capacity,
    is_dead,
    race_template,
    wound_limit,
)
from .veterans import carried_weapon, check_equipment, elite_slots, movement, qualifies_for_elite

__all__ = [
    "ALIVE",
    "AREAS",
    "HEAL_ORDER",
    "OVERFLOW_ORDER",
    "SIDES",
    "WoundResult",
    "WoundState",
    "advanced_wounds",
    "apply_hits",
    "armour_capacity",
    "carried_weapon",
    "check_equipment",
    "critical_entry",
    "critical_wounds",
    "default_side",
    "elite_slots",
    "heal",
    "healable_conditions",
    "is_dead",
    "movement",
    "qualifies_for_elite",
    "race_template",
    "wound_limit",
]
