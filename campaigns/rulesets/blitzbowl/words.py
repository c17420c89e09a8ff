"""Blitz Bowl in words: the sentences a page or a log prints for this game, in one place."""

from __future__ import annotations

from campaigns.rulesets.words import *  # noqa: F403  (the shared words)
from campaigns.rulesets.words import humanise, plural  # noqa: F401

# --- the weekly report (league/reporting) ------------------------------------------------------------------------


#: H (rules/blitzbowl.md "Injuries recorded on a result"): the injuries the weekly report calls serious, as it
#: words them. A death has its own section (in memoriam); a badly hurt player is fit for the next match.
SERIOUS_INJURIES = {
    "miss_next_match": "misses the next match",
    "niggling": "niggling injury",
    "stat_loss": "lasting injury",
}


def report_headline(*, sides: list[dict], rows: list[dict]) -> list[str]:
    """The week's touchdowns, and its casualties when there were any."""
    parts = [plural(sum(s["score"] or 0 for s in sides), "touchdown")]
    casualties = sum(s["casualties_inflicted"] or 0 for s in sides)
    if casualties:
        parts.append(plural(casualties, "casualty", "casualties"))
    return parts


def serious_injury(row: dict, *, hr: dict | None = None) -> tuple[str, list[str]]:
    """A missed match, a niggling injury or a lasting one ("lasting injury: −1 AG")."""
    injury = str(row.get("injury") or "")
    if injury not in SERIOUS_INJURIES:
        return injury, []
    words = SERIOUS_INJURIES[injury]
    if injury == "stat_loss" and row.get("injury_detail"):
        words += f": −1 {row['injury_detail'].upper()}"
    return injury, [words]
