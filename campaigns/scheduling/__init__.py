"""Schedule generators (issue 13, "Schedules"): pure functions from team ids, dates and earlier play to
immutable schedules — no Django, no database. The services turn them into matches.

- round_robin: the circle method, one or two legs, byes, dates, the consecutive rule (round_robin.py)
- consecutive_violations: the consecutive-meetings validator (consecutive.py)
- withdraw, add_late_team: changing a published round robin (changes.py)
"""

from .changes import add_late_team, withdraw
from .consecutive import Violation, consecutive_violations, team_sequences
from .round_robin import round_robin
from .types import Pairing, Round, Schedule

__all__ = [
    "Pairing",
    "Round",
    "Schedule",
    "Violation",
    "add_late_team",
    "consecutive_violations",
    "round_robin",
    "team_sequences",
    "withdraw",
]
