"""ElfBall's weekly report: its sections in order, and how it names its numbers (campaigns.rulesets.base,
"presentation: weekly report"; the sentences are in words.py). No gil, no casualties, no MVPs; its own section
"elfball" lists the week's Goal Points and abilities learned."""

from __future__ import annotations

from types import MappingProxyType

from campaigns.rulesets import stats

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


# --- the players' stats (campaigns/rulesets/stats.py), read from the per-match rows ---------------------
#: `goals`: the goals scored with the player on the field (the result's `goals[].on_field`; a result entered
#: with Goal Points only records none, and counts 0).
PLAYER_STATS = (
    stats.StatSpec("goals", "Goals on the field", "Goals", detail_key="goals"),
    stats.StatSpec("goal_points", "Goal Points", "GP", field="goal_points"),
    stats.MATCHES,
)
HEADLINE_STAT, CASUALTY_STAT = "goals", None
TEAM_LEADERBOARDS = (("team_value", "Team value (points)"), ("win_rate", "Win rate (%)"))
