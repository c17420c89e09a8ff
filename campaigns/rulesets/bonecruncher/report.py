"""Bone Cruncher's weekly report: its sections in order, and how it names its numbers (campaigns.rulesets.base,
"presentation: weekly report"; the sentences are in words.py). Teams score, not players; no team value, so no
movers and no chart; its own section "bonecruncher" lists the week's wounds, deaths and new Elites."""

from __future__ import annotations

from types import MappingProxyType

from campaigns.rulesets import stats

SECTIONS = (
    "results",
    "table",
    "top_scorers",
    "top_casualties",
    "improvements",
    "in_memoriam",
    "serious_injuries",
    "bonecruncher",
    "fixtures",
)
TERMS = MappingProxyType({"score": "points", "score_short": "Pts", "value_unit": ""})
SCORERS = ("team", "score", "points")
CASUALTIES = ("team", "eliminations", "eliminations")


# --- the players' stats (campaigns/rulesets/stats.py), read from the per-match rows ---------------------
#: Teams score in Bone Cruncher, not players: no headline stat of a player's, no casualties of his.
PLAYER_STATS = (
    stats.StatSpec("wounds_taken", "Wounds taken", "Wnd", field="wounds"),
    stats.StatSpec("matches_survived", "Matches survived", "Surv", how="survived"),
    stats.MATCHES,
)
HEADLINE_STAT, CASUALTY_STAT = None, None
