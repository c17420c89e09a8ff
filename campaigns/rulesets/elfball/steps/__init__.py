"""The ElfBall post-match sequence (api-v1 "Post-match sequence": goal_points, abilities, injuries, team_stats;
../shared/rules/elfball.md).

Each step reads the team and the match as plain values, asks the coach when the rules leave him a choice, calls
the pure rules in `postmatch.py` and returns effects and log lines through the context. When the steps run, the
match's Goal Points are already in each player's total (the engine adds the `goal_points` counter when the
result becomes final); injuries and potions are not: the `injuries` step applies them.
R = rulebook, I = the service's interpretation, H = house default.

One module per group: `progress` (1. Goal Points, 2. Abilities), `injury_potions` (3. Injuries and potions), `stats`
(4. Team stats), `common` (what they share). ElfBall steps declare no rolls.
"""

from __future__ import annotations

from campaigns.engine import Step

from .common import team_points
from .injury_potions import injuries
from .progress import abilities, goal_points
from .stats import team_stats

STEPS = (
    Step("goal_points", "Goal Points", goal_points),
    Step("abilities", "Abilities", abilities),
    Step("injuries", "Injuries and potions", injuries),
    Step("team_stats", "Update team stats", team_stats),
)

__all__ = ["STEPS", "abilities", "goal_points", "injuries", "team_points", "team_stats"]
