"""Blitz Bowl's weekly report: its sections in order, and how it names its numbers (campaigns.rulesets.base,
"presentation: weekly report"; the sentences are in words.py)."""

from __future__ import annotations

from types import MappingProxyType

SECTIONS = (
    "results",
    "table",
    "top_scorers",
    "top_casualties",
    "mvps",
    "improvements",
    "in_memoriam",
    "serious_injuries",
    "treasury_movers",
    "tv_movers",
    "fan_factor_changes",
    "sponsorships",
    "stadium_deals",
    "expensive_mistakes",
    "fixtures",
    "chart",
)
TERMS = MappingProxyType({"score": "touchdowns", "score_short": "TD", "value_unit": "gil"})
SCORERS = ("player", "touchdowns", "touchdowns")
CASUALTIES = ("player", "casualties", "casualties")
