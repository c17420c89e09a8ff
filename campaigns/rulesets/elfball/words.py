"""ElfBall in words: the sentences a page or a log prints for this game, in one place."""

from __future__ import annotations

from campaigns.rulesets.words import *  # noqa: F403  (the shared words)
from campaigns.rulesets.words import humanise, plural  # noqa: F401

# --- the weekly report (league/reporting) ------------------------------------------------------------------------


def _attribute(key: str) -> str:
    return key.replace("_", " ").title()


def report_headline(*, sides: list[dict], rows: list[dict]) -> list[str]:
    """The week's Tests won, and its Goal Points when any were scored."""
    parts = [plural(sum(s["score"] or 0 for s in sides), "Test") + " won"]
    goal_points = sum(r["goal_points"] or 0 for r in rows)
    if goal_points:
        parts.append(plural(goal_points, "Goal Point"))
    return parts


def serious_injury(row: dict, *, hr: dict | None = None) -> tuple[str, list[str]]:
    """rules/elfball.md "Injuries" and "Magic Potion table": each attribute lost to a Grit Challenge's lasting
    injury or to a potion's seizure ("lasting injury: Grit −1", "seizure (Magic Potion): Dodge −1")."""
    injury = str(row.get("injury") or "")
    lasting = (row.get("detail") or {}).get("lasting")
    if lasting:
        words = [
            f"{'lasting injury' if item.get('cause') == 'grit' else 'seizure (Magic Potion)'}: "
            f"{_attribute(item.get('attribute', ''))} −1"
            for item in lasting
        ]
        return injury or "lasting_injury", words
    if injury == "lasting_injury":
        attribute = f": {_attribute(row['injury_detail'])} −1" if row.get("injury_detail") else ""
        return injury, [f"lasting injury{attribute}"]
    return injury, []
