"""Bone Cruncher on the match pages: which result form, report sections and step widgets the pages show, and the
body areas and Critical Wound Chart the result form offers — the rules' own (`wounds.AREAS`, the league's
`critical_wound_chart`), never a copy (rules/bonecruncher.md "Wounds"). Plain data: the web layer keeps the form
classes, keyed by these kinds."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from . import wounds
from .pregame import terrain_words
from .words import humanise

__all__ = ["terrain_words"]

RESULT_FORM = "wounds_by_area"
REPORT_SECTIONS = ("lines_event", "squads", "wounds")

DECISION_WIDGETS = MappingProxyType({"heal": "heal", "promote": "promote"})

PREMATCH_HINTS = MappingProxyType(
    {
        "aggressor": "On a tie, type the re-roll's dice after the first two (e.g. 3, 4, 5, 2); dice still missing "
        "are rolled by the server."
    }
)

#: The six body areas of an advanced health template, as the body diagram lays them out.
BODY_AREAS = wounds.AREAS
SIDES = ("left", "right")


def critical_chart(hr: Mapping) -> dict[int, tuple[str, str]]:
    """The league's Critical Wound Chart: roll → (name, area)."""
    results = hr.get("critical_wound_chart", {}).get("results", {})
    return {int(roll): (entry.get("name", ""), entry.get("area", "")) for roll, entry in results.items()}


def critical_words(items: Any, hr: Mapping) -> str:
    """ "Incapacitated leg (left), Head wound" — critical wounds of a result row in words."""
    chart, out = critical_chart(hr), []
    for item in items or []:
        roll = item.get("roll") if isinstance(item, Mapping) else item
        side = item.get("side") if isinstance(item, Mapping) else None
        name = chart.get(roll, (f"Critical {roll}", ""))[0]
        out.append(f"{name} ({side})" if side else name)
    return ", ".join(out)


def areas_words(areas: Mapping) -> str:
    """ "Head 1, Left leg 2" — wounds per body area, in the diagram's order."""
    return ", ".join(f"{humanise(a)} {areas[a]}" for a in BODY_AREAS if (areas or {}).get(a))


def result_choices(hr: Mapping) -> dict[str, list[tuple[Any, str]]]:
    """The chart's results a row may record (and the area each strikes), the sides of a limb, the body areas."""
    chart = critical_chart(hr)
    return {
        "chart": {roll: area for roll, (_, area) in chart.items()},
        "critical": [("", "—")] + [(roll, f"{roll}: {name}") for roll, (name, _) in sorted(chart.items())],
        "side": [("", "— side —")] + [(s, s.capitalize()) for s in SIDES],
        "area": [(a, humanise(a)) for a in BODY_AREAS],
    }
