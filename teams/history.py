"""A team's match history on its sheet: its final matches (date, opponent, score, outcome), its W-D-L and
current streak, and the series its ruleset charts (`Ruleset.team_series`) from each match side's pre-match
snapshot. All from the MatchTeam rows, so a correction changes them.

The rows are facts of the matches app, a layer above teams (dugout/layers.py): as for a player's injuries,
MatchesConfig.ready() lends the annotation here (`team_history_source`), and the sheet's one team query carries
them as a JSON array — no query of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

PAGE = 50
_source: dict[str, Callable[[], dict]] = {}


def team_history_source(*, annotations: Callable[[], dict]) -> None:
    """Set once at start-up by the matches app: `annotations()` → {"history_rows": a JSON-array subquery}."""
    _source["annotations"] = annotations


def history_annotations() -> dict:
    return _source["annotations"]() if _source else {}


def history_rows(team) -> list[dict]:
    """The team's final matches, oldest first (the order they became final)."""
    rows = getattr(team, "history_rows", None) or []
    return sorted(rows, key=lambda r: (r.get("confirmed_at") or "", r["match"]))


def record(rows: Sequence[dict]) -> dict:
    """W-D-L and the current streak ("W3": the last three won; "" before any result)."""
    counts = {"win": 0, "draw": 0, "loss": 0}
    for row in rows:
        if row.get("outcome") in counts:
            counts[row["outcome"]] += 1
    streak, run = "", 0
    decided = [r["outcome"] for r in rows if r.get("outcome") in counts]
    if decided:
        last = decided[-1]
        for outcome in reversed(decided):
            if outcome != last:
                break
            run += 1
        streak = f"{last[0].upper()}{run}"
    return {"won": counts["win"], "drawn": counts["draw"], "lost": counts["loss"], "streak": streak}


def page_of(rows: Sequence[dict], page: object) -> dict:
    """Newest first, `PAGE` a page (a bad or out-of-range page number is the nearest page)."""
    newest = list(reversed(rows))
    pages = max(1, -(-len(newest) // PAGE))
    try:
        number = min(max(1, int(str(page))), pages)
    except ValueError:
        number = 1
    return {
        "rows": newest[(number - 1) * PAGE : number * PAGE],
        "number": number,
        "pages": pages,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < pages else None,
    }


def series(rows: Sequence[dict], keys: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
    """{snapshot key: [(match number, value before it), …]} for each key with any whole-number value."""
    out = {}
    for key in keys:
        points = [
            (str(n), row[key])
            for n, row in enumerate(rows, start=1)
            if isinstance(row.get(key), int) and not isinstance(row.get(key), bool)
        ]
        if points:
            out[key] = points
    return out
