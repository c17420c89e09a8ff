"""ElfBall's weekly report: its sections in order, and how it names its numbers (campaigns.rulesets.base,
"presentation: weekly report"; the sentences are in words.py). No gil, no casualties, no MVPs; its own section
"elfball" lists the week's Goal Points and abilities learned."""

from __future__ import annotations

from types import MappingProxyType

SECTIONS = (
    "results",
    "table",
    "top_scorers",
    "improvements",
    "in_memoriam",
    "serious_injuries",
    "tv_movers",
    "elfball",
    "fixtures",
    "chart",
)
TERMS = MappingProxyType({"score": "Tests", "score_short": "Tests", "value_unit": "points"})
SCORERS = ("player", "goal_points", "Goal Points")
CASUALTIES = None
