"""Blitz Bowl's weekly report: its sections in order, and how it names its numbers (campaigns.rulesets.base,
"presentation: weekly report"; the sentences are in words.py)."""

from __future__ import annotations

from types import MappingProxyType

from campaigns.rulesets import stats

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


# --- the players' stats (campaigns/rulesets/stats.py), read from the per-match rows ---------------------
PLAYER_STATS = (
    stats.StatSpec("touchdowns", "Touchdowns", "TD", field="touchdowns"),
    stats.StatSpec("casualties", "Casualties", "Cas", field="casualties"),
    stats.StatSpec("completions", "Completions", "Cmp", field="completions"),
    stats.StatSpec("interceptions", "Interceptions", "Int", field="interceptions"),
    stats.StatSpec("mvp", "MVP awards", "MVP", how="count_true", field="mvp"),
    stats.StatSpec("spp", "Star Player Points", "SPP", field="spp"),
    stats.MATCHES,
)
#: The records page's headline stat and its casualties' (None: the game counts none).
HEADLINE_STAT, CASUALTY_STAT = "touchdowns", "casualties"
TEAM_LEADERBOARDS = (
    ("team_value", "Team value"),
    ("treasury", "Treasury"),
    ("fan_factor", "Fan Factor"),
    ("win_rate", "Win rate (%)"),
)
