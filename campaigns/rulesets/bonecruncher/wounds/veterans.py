"""Bone Cruncher veterans, movement and equipment (../shared/rules/bonecruncher.md "Veterans": Elite status; "Wounds":
an incapacitated leg's movement; "Squad" — Bloody Blades weapons and shields)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaigns.errors import RuleViolation

from .state import (
    ALIVE,
)

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


def carried_weapon(equipment: Mapping[str, Any] | None, hr: Mapping) -> str:
    """R Bloody Blades (league option hr["bloody_blades"]): the weapon a player carries ("none", "blade",
    "polearm"), which `movement` needs for "Halfling and Undead Team Players with polearms move at one less
    allowable maneuver point per turn". Without the option players carry no weapon, whatever their record
    still holds from a season that played it."""
    if not hr.get("bloody_blades", False):
        return "none"
    return (equipment or {}).get("weapon") or "none"


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
