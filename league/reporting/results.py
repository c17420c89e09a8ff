"""The weekly report's results, table, fixtures and headline.

The table a week ago is recomputed from the sides confirmed before the week with the standings' own
tie-breaking (`matches.selectors.standings_from`); the headline's game numbers are the ruleset's words
(`words.report_headline`).
"""

from __future__ import annotations

from collections import defaultdict

from campaigns.rulesets.words import plural
from matches.models import Match
from matches.selectors import league_standings, standings_from

from .common import iso, label, match_url, ordinal
from .week import BEFORE, LATER, Week

OUTCOME_WORDS = {"win": "Won", "draw": "Drawn", "loss": "Lost", "": "—"}


def _tie_breakers(league) -> list[str]:
    return list(league.house_rules.get("tie_breakers", ["points", "touchdown_difference", "name"]))


def results(w: Week) -> list[dict]:
    by_match: dict[int, list[dict]] = defaultdict(list)
    for side in w.week_sides:
        by_match[side["match_id"]].append(side)
    out = []
    for match_id in w.week_match_ids:
        sides = sorted(by_match[match_id], key=lambda s: s["order"])
        first = sides[0]
        teams = [
            {
                "team": s["team_id"],
                "name": w.team_name(s["team_id"]),
                "score": s["score"],
                "placing": s["placing"],
                "eliminations": s["eliminations"],
                "outcome": s["outcome"],
                "outcome_words": ordinal(s["placing"]) if s["placing"] else OUTCOME_WORDS.get(s["outcome"], "—"),
                "league_points": s["league_points"],
                "conceded": bool(s["conceded"]),
            }
            for s in sides
        ]
        out.append(
            {
                **_match_header(match_id, first),
                "confirmed_at": iso(first["confirmed_at"]),
                "teams": teams,
                "summary": _scoreline(teams, first["event"]),
                "words": _result_words(teams, first["event"]),
            }
        )
    return out


def _match_header(match_id: int, first: dict) -> dict:
    """What a result and a fixture both say of their match (from its first side's row), in the report's order."""
    return {
        "id": match_id,
        "url": match_url(match_id),
        "kind": first["kind"],
        "kind_label": label(Match.Kind, first["kind"]),
        "event": first["event"] or "",
        "event_label": label(Match.Event, first["event"]),
        "stadium": first["stadium"] or "",
    }


def _scoreline(teams: list[dict], event: str) -> str:
    if any(t["placing"] for t in teams):
        placed = sorted(teams, key=lambda t: t["placing"] or 99)
        return ", ".join(
            f"{ordinal(t['placing'])} {t['name']} ({plural(t['eliminations'], 'elimination')})" for t in placed
        )
    if len(teams) == 2:
        a, b = teams
        return f"{a['name']} {a['score'] or 0}–{b['score'] or 0} {b['name']}"
    return ", ".join(f"{t['name']} {t['score'] or 0}" for t in teams)


def _result_words(teams: list[dict], event: str) -> str:
    """The result in a sentence: "A beat B 2–1", "A and B drew 1–1", "A won the Terminix"."""
    if any(t["placing"] for t in teams):
        winner = next((t for t in teams if t["placing"] == 1), teams[0])
        return f"{winner['name']} won the {label(Match.Event, event) or 'match'}."
    conceded = [t for t in teams if t["conceded"]]
    note = f" ({' and '.join(t['name'] for t in conceded)} conceded)" if conceded else ""
    if len(teams) == 2:
        a, b = teams
        if a["outcome"] == "loss" or b["outcome"] == "win":
            a, b = b, a
        if a["outcome"] == "win":
            return f"{a['name']} beat {b['name']} {a['score'] or 0}–{b['score'] or 0}{note}."
        return f"{a['name']} and {b['name']} drew {a['score'] or 0}–{b['score'] or 0}{note}."
    return _scoreline(teams, event) + note + "."


def table(w: Week) -> list[dict]:
    breakers = _tie_breakers(w.league)
    if w.later_matches:
        # The report is written after later results: the table as it stood at the end of the week.
        now = standings_from(
            teams=[(t.pk, t.name) for t in w.teams if t.created_at < w.end],
            sides=[s for s in w.sides if s["period"] != LATER],
            tie_breakers=breakers,
        )
    else:
        now = league_standings(league=w.league)
    before = standings_from(
        teams=[(t.pk, t.name) for t in w.teams if t.created_at < w.start],
        sides=[s for s in w.sides if s["period"] == BEFORE],
        tie_breakers=breakers,
    )
    previous = {row["team"]: row["position"] for row in before}
    out = []
    for row in now:
        was = previous.get(row["team"])
        movement: int | str = "new" if was is None else was - row["position"]
        out.append(
            {
                **{k: row[k] for k in ("position", "team", "name", "played", "won", "drawn", "lost", "points")},
                "scored": row["scored"],
                "conceded": row["conceded"],
                "difference": row["difference"],
                "casualties_inflicted": row["casualties_inflicted"],
                "previous_position": was,
                "movement": movement,
                "moved": abs(movement) if isinstance(movement, int) else 0,
            }
        )
    return out


def fixtures(w: Week) -> list[dict]:
    by_match: dict[int, list[dict]] = defaultdict(list)
    for side in w.fixture_sides:
        by_match[side["match_id"]].append(side)
    out = []
    for match_id, sides in by_match.items():
        first = sides[0]
        teams = [{"team": s["team_id"], "name": w.team_name(s["team_id"])} for s in sides]
        out.append(
            {
                **_match_header(match_id, first),
                "scheduled_at": iso(first["created_at"]),
                "teams": teams,
                "summary": " v ".join(t["name"] for t in teams),
            }
        )
    return out


def headline(w: Week, results: list[dict], memoriam: list[dict]) -> str:
    """The match count, the game's own numbers and the losses: "2 matches, 6 touchdowns, 4 casualties, 1 death"."""
    if not results:
        return "No matches played this week"
    parts = [plural(len(results), "match", "matches")]
    parts += w.words.report_headline(sides=w.week_sides, rows=w.rows)
    deaths = sum(1 for m in memoriam if m["cause"] == "dead")
    careers = len(memoriam) - deaths
    if deaths:
        parts.append(plural(deaths, "death"))
    if careers:
        parts.append(plural(careers, "career ended", "careers ended"))
    return ", ".join(parts)
