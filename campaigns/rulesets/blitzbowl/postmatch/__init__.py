"""Blitz Bowl post-match rules as pure functions (../shared/rules/blitzbowl.md, "Post-match sequence",
"Conceding", and FAME from "Pre-match sequence"), one module per step of the sequence:

- `improvements` — 1. Improvements: SPP, levels, the improvement roll, values;
- `team_stats` — 2. Update team stats (league points) and Conceding (who may leave);
- `fortune` — 3. Fortune and FAME: winnings, residency, Fan Factor, FAME;
- `sponsorships` — 3. Fortune and FAME: sponsorships and the random player they keep out;
- `stadiums` — 4. Hire and fire: keeping a residency, selling a stadium;
- `mistakes` — 5. Prepare for next match: expensive mistakes, journeymen;
- `checks` — the dice, outcome and number checks they share.

No Django, no randomness, no I/O: dice values arrive as arguments (the engine rolls or takes them from the
coaches and records them), and every number or table is read from `hr`, the league's house rules (shaped like
data/house_rules.json). Functions that decide something return a small frozen dataclass carrying the values
and an `explanation` a coach can read: the rule and its arithmetic.

Invalid inputs (a die outside its faces, an unknown outcome) raise ValueError: they are programming errors,
since the engine validates dice before calling these functions. Every public name stays importable from here.
"""

from .checks import OUTCOMES, HouseRules, parse_dice
from .fortune import (
    FanFactorChange,
    Residency,
    Winnings,
    fame,
    fan_factor_change,
    fan_factor_dice,
    residency,
    winnings,
)
from .improvements import (
    ImprovementRoll,
    improvement_options,
    improvement_value,
    levels_gained,
    skill_choices,
    spp_earned,
)
from .mistakes import (
    Loss,
    expensive_mistake,
    expensive_mistake_kinds,
    expensive_mistake_loss,
    expensive_mistake_needs_roll,
    journeymen_needed,
)
from .sponsorships import (
    Payment,
    SponsorshipRoll,
    casualties_suffered,
    one_time_sponsorship,
    ongoing_sponsorship,
    random_player,
    sponsorship,
)
from .stadiums import ResidencyKeep, Sale, keep_residency, stadium_sale, stadium_sale_needs_amount_roll
from .team_stats import concede_leave_needs_roll, concede_leaves, league_points

__all__ = [
    "OUTCOMES",
    "FanFactorChange",
    "HouseRules",
    "ImprovementRoll",
    "Loss",
    "Payment",
    "Residency",
    "ResidencyKeep",
    "Sale",
    "SponsorshipRoll",
    "Winnings",
    "casualties_suffered",
    "concede_leave_needs_roll",
    "concede_leaves",
    "expensive_mistake",
    "expensive_mistake_kinds",
    "expensive_mistake_loss",
    "expensive_mistake_needs_roll",
    "fame",
    "fan_factor_change",
    "fan_factor_dice",
    "improvement_options",
    "improvement_value",
    "journeymen_needed",
    "keep_residency",
    "league_points",
    "levels_gained",
    "one_time_sponsorship",
    "ongoing_sponsorship",
    "parse_dice",
    "random_player",
    "residency",
    "skill_choices",
    "sponsorship",
    "spp_earned",
    "stadium_sale",
    "stadium_sale_needs_amount_roll",
    "winnings",
]
