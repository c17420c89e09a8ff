"""The Blitz Bowl post-match sequence (../shared/rules/blitzbowl.md "Post-match sequence", "Conceding"), as steps.

Each step reads the team and the match, asks the dice and the coach, calls the pure rules in `postmatch/`, and
returns effects and log lines through the context. Nothing here touches the database. One module per group:
`development` (1. Improvements, 2. Update team stats), `earnings` (3. Fortune and FAME), `stadium`
(4. Hire and fire), `preparation` (5. Prepare for next match), `common` (what they share).

Each step declares the rolls it may use and, through `usable`, which of them it can use for a given team and
match, so a page asks only for those (no stadium dice without a stadium, no winnings re-roll for a loser),
and, through `reads`, the parts of the team and match views it reads: the engine loads only those (no roster
positions, sponsorships or match rows for a step that never looks at them).
"""

from __future__ import annotations

from campaigns.engine import Step

from .development import improvements, improvements_usable, team_stats, team_stats_usable
from .earnings import fortune, fortune_usable
from .preparation import prepare, prepare_usable
from .stadium import hire_fire, hire_fire_usable

STEPS = (
    Step(
        "improvements",
        "Improvements",
        improvements,
        rolls=("improvement",),
        usable=improvements_usable,
        reads=frozenset({"players", "player_rows"}),
    ),
    Step(
        "team_stats",
        "Update team stats",
        team_stats,
        rolls=("concede_leave",),
        usable=team_stats_usable,
        reads=frozenset({"players"}),
    ),
    Step(
        "fortune",
        "Fortune and FAME",
        fortune,
        rolls=(
            "winnings",
            "winnings_reroll",
            "stadium_bonus",
            "residency",
            "fan_factor",
            "ongoing_amount",
            "ongoing_risk",
            "sponsorship",
            "one_time_amount",
            "one_time_risk",
            "random_player",
        ),
        usable=fortune_usable,
        reads=frozenset({"players", "sponsorships"}),
    ),
    Step(
        "hire_fire",
        "Hire and fire",
        hire_fire,
        rolls=("stadium_loss", "stadium_sale"),
        usable=hire_fire_usable,
        options=(
            ("sell_stadium", "flag", "Sell the stadium the team owns (it stays resident)", "owns_stadium"),
            ("buy_stadium", "flag", "Buy the home stadium (the Stadium Fund pays first)", "resident_tenant"),
            ("stadium_fund_payments", "count", "Payments into the Stadium Fund", "resident"),
        ),
        reads=frozenset({"players", "positions"}),
    ),
    Step(
        "prepare",
        "Prepare for next match",
        prepare,
        rolls=("expensive_mistakes", "expensive_mistakes_amount"),
        usable=prepare_usable,
        # (The positions: a journeyman's, and every player's for the Team Value recorded at the end.)
        reads=frozenset({"players", "positions"}),
    ),
)

__all__ = ["STEPS", "fortune", "hire_fire", "improvements", "prepare", "team_stats"]
