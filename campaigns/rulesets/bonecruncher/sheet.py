"""The Bone Cruncher team sheet (rules/bonecruncher.md "Squad", "Wounds", "Veterans"): the squad's places
(Great Captain, Goalie), races, Elite, wound and armour boxes, lasting conditions, matches survived, movement
and, with Bloody Blades, equipment.

No Attributes, Skills or Value column: a Bone Cruncher player's one attribute is his movement (the Move column,
after his conditions; the base in its tooltip), he has no skills, and the game has no player values."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaigns.rulesets.sheet import NAME, NUMBER, STATUS, Column

from . import words

__all__ = ["COLUMNS", "STAFF", "hint", "values"]

COLUMNS = (
    NUMBER,
    NAME,
    Column("Position", "position", css="position"),
    Column("Race", "race", title="race_title"),
    Column("Elite", "elite_text", css="elite", note="elite_note"),
    Column("Wounds", "wounds_text", css="num wounds", note="areas", data="wounds"),
    Column("Armour", "armour_text", css="num armour", data="armour_used"),
    Column("Conditions", "conditions", css="conditions"),
    Column("Survived", "matches_survived", css="num survived", abbr="Matches survived"),
    Column("Move", "movement", css="num movement", title="movement_title"),
    Column("Equipment", "equipment", css="equipment", house_rule="bloody_blades"),
    STATUS,
)

#: R "Support staff": Cheerleaders, Coaches, Trainers — "Coaches" said so, beside the team's own coach.
STAFF = {"cheerleader": "Cheerleaders", "coach": "Support coaches", "trainer": "Trainers"}

#: R: one Great Captain, one Goalie; the other players have no place of their own.
ROLES = {"captain": "Great Captain", "goalie": "Goalie"}

BASIC = (
    "Basic wounds: 10 wound boxes, the 10th kills; armour boxes (Captain +2, Goalie and Elite +1) take the first "
    "hits and never heal."
)
ADVANCED = "Advanced wounds: each race's health template, per body area; protection boxes take the first hits."


def hint(hr: Mapping[str, Any]) -> str:
    return ADVANCED if hr.get("advanced_wounds") else BASIC


def _of(total: Any) -> str:
    return "—" if total is None else str(total)


def _equipment(equipment: Mapping[str, Any]) -> str:
    weapon = equipment.get("weapon") or "none"
    parts = [] if weapon == "none" else [words.humanise(weapon)]
    if equipment.get("shield"):
        parts.append("Shield")
    return " + ".join(parts) or "—"


def values(
    player: Any, *, shown: Mapping[str, Any], summary: Mapping[str, Any], injuries: Iterable[Mapping], hr: Mapping
) -> dict[str, Any]:
    """A position on every row: the player's place (Great Captain, Goalie) or his position ("Player", a
    Halfling team's "Elite Elf"); every box count beside its total."""
    place = ROLES.get(player.role, "")
    position = str(shown.get("position", ""))
    if place and position and position != "Player":
        place = f"{place} ({position})"
    template = player.health_template or {}
    wound_limit = summary.get("wound_limit") or template.get("total")
    elite = summary.get("elite", player.elite)
    qualifies = not elite and bool(summary.get("qualifies_for_elite"))
    areas = player.wound_areas if hr.get("advanced_wounds") else {}
    base_move = player.attributes.get("move")
    conditions = summary.get("conditions")
    if conditions is None:
        conditions = words.conditions(player.conditions, hr=hr)
    return {
        "position": place or position,
        "race_title": f"health template: {template.get('total')} wounds (rulebook total)" if template else "",
        "elite_text": "Elite" if elite else ("" if qualifies else "—"),
        "elite_note": "qualifies" if qualifies else "",
        "wounds": player.wounds,
        "wounds_text": f"{player.wounds} / {_of(wound_limit)}",
        "areas": ", ".join(f"{words.humanise(a)} {n}" for a, n in (areas or {}).items() if n),
        "armour_used": player.armour_used,
        "armour_text": f"{player.armour_used} / {_of(summary.get('armour_boxes'))}",
        "conditions": "; ".join(c[:1].upper() + c[1:] for c in conditions) or "—",
        "matches_survived": player.matches_survived,
        "movement": _of(summary.get("movement", base_move)),
        "movement_title": f"base {base_move}" if base_move is not None else "",
        "equipment": _equipment(player.equipment or {}),
    }
