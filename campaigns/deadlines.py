"""What a league's house rules make of its deadlines (pure: the league clock, matches/clock.py, asks these).

- `auto_confirm_hours` (null: never): a submitted result nobody confirmed, rejected or disputed for that many
  hours is confirmed by the league clock.
- `on_deadline`: "queue" (the match waits in the commissioner's queue, as it always has) or "double_forfeit"
  (a match with no result `deadline_grace_hours` after its deadline is final as a loss for both teams).

The shapes of these keys are checked by `campaigns.house_rules.SHAPES`; every ruleset ships them.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

QUEUE, DOUBLE_FORFEIT = "queue", "double_forfeit"


def auto_confirm_at(hr: Mapping, submitted_at: datetime | None) -> datetime | None:
    """When a result submitted at `submitted_at` is confirmed by the clock, or None (never, or not submitted)."""
    hours = hr.get("auto_confirm_hours")
    if hours is None or submitted_at is None:
        return None
    return submitted_at + timedelta(hours=hours)


def double_forfeit_at(hr: Mapping, deadline: datetime | None) -> datetime | None:
    """When a match still without a result at its `deadline` is forfeited by both teams, or None (the league
    leaves overdue matches to its commissioner's queue, or the match has no deadline)."""
    if deadline is None or hr.get("on_deadline", QUEUE) != DOUBLE_FORFEIT:
        return None
    return deadline + timedelta(hours=hr.get("deadline_grace_hours", 0))


def auto_confirm_due(hr: Mapping, submitted_at: datetime | None, now: datetime) -> bool:
    moment = auto_confirm_at(hr, submitted_at)
    return moment is not None and moment <= now


def double_forfeit_due(hr: Mapping, deadline: datetime | None, now: datetime) -> bool:
    """Due strictly after the deadline (and its grace), as a match is overdue strictly after its deadline."""
    moment = double_forfeit_at(hr, deadline)
    return moment is not None and moment < now
