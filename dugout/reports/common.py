"""Small helpers every section of the weekly report shares (formatting of dates, ranks, links, choices)."""

from __future__ import annotations

from datetime import datetime

#: How many rows a leaderboard shows.
TOP = 5


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def in_week(moment: datetime | None, start: datetime, end: datetime) -> bool:
    return moment is not None and start <= moment < end


def match_url(match_id: int) -> str:
    return f"/matches/{match_id}/"


def label(choices, value: str) -> str:
    """A choice's label ("" for none; an unknown value as it is)."""
    return str(dict(choices.choices).get(value, value)) if value else ""


def title(key: str) -> str:
    return key.replace("_", " ").title()
