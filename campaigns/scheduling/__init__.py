"""Schedule generators: pure functions from team ids, dates and earlier play to
immutable schedules — no Django, no database. The services turn them into matches.

- round_robin: the circle method, one or two legs, byes, dates, the consecutive rule (round_robin.py);
  teams_needed, pair_run: how many teams it needs
- consecutive_violations: the consecutive-meetings validator (consecutive.py)
- withdraw, add_late_team: changing a published round robin (changes.py)
- knockout, next_round, seeds_from_standings: brackets (knockout.py)
- swiss_round: Swiss pairing (swiss.py)
- division_round_robins, seeds_from_divisions: divisions (divisions.py)
"""

from .changes import add_late_team, withdraw
from .consecutive import Violation, consecutive_violations, team_sequences
from .divisions import division_round_robins, seeds_from_divisions
from .knockout import FINAL, PLAYOFF, KnockoutRound, knockout, next_round, seeds_from_standings
from .round_robin import pair_run, round_robin, teams_needed
from .swiss import SwissRound, swiss_round
from .types import Pairing, Round, Schedule

__all__ = [
    "FINAL",
    "PLAYOFF",
    "KnockoutRound",
    "Pairing",
    "Round",
    "Schedule",
    "SwissRound",
    "Violation",
    "add_late_team",
    "consecutive_violations",
    "division_round_robins",
    "knockout",
    "next_round",
    "pair_run",
    "round_robin",
    "seeds_from_divisions",
    "seeds_from_standings",
    "swiss_round",
    "team_sequences",
    "teams_needed",
    "withdraw",
]
