"""The weekly report's results, table, fixtures and headline.

The table a week ago is recomputed from the sides confirmed before the week with the standings' own
tie-breaking (`matches.selectors.standings_from`); the headline's game numbers are the ruleset's words
(`words.report_headline`).
"""

from __future__ import annotations

from collections import defaultdict

from campaigns.rulesets.words import plural
from dugout.reports.common import iso, label, match_url, ordinal
from dugout.reports.week import BEFORE, END, Week
from matches.models import Match
from matches.selectors import league_standings, rank_standings, standings_from

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
    """The table at the week's end, each team's move since the table a week ago. Both are the league's table now
    (cached per table version: `league_standings`) without the sides confirmed since: the week's, and any
    later ones (a report regenerated after later results shows the table as it stood at the week's end). A
    closed season's table now is the one frozen when it closed (a report of a season counts its own)."""
    breakers = _tie_breakers(w.league)
    now = league_standings(league=w.league) if w.season == w.league.season else w.closed_table()
    if w.later_matches:
        counts = _without(now, w.later_sides)
        now = _ranked(w, END, counts, breakers)
    else:
        counts = {row["team"]: row for row in now}
    before = _ranked(w, BEFORE, _without_counts(counts, now, w.week_sides), breakers)
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


class _Asked(dict):
    """A head-to-head mapping that answers 0 and notes each team of each pair asked."""

    def __init__(self):
        super().__init__()
        self.teams: set[int] = set()

    def __missing__(self, pair: tuple[int, int]) -> int:
        self.teams.update(pair)
        return 0


#: A table row's counted columns (`matches.selectors.standings_from`'s).
_COUNTED = ("played", "won", "drawn", "lost", "points", "scored", "conceded", "casualties_inflicted")


def _without(table: list[dict], sides: list[dict]) -> dict[int, dict]:
    """Each team's counted columns in `table` without what `sides` (whole matches) added to them."""
    return _without_counts({row["team"]: row for row in table}, table, sides)


def _without_counts(counts: dict[int, dict], table: list[dict], sides: list[dict]) -> dict[int, dict]:
    teams = [(row["team"], row["name"]) for row in table]
    added = {row["team"]: row for row in standings_from(teams=teams, sides=sides, tie_breakers=[])}
    zero = dict.fromkeys(_COUNTED, 0)
    return {
        team: {k: counts.get(team, zero)[k] - added.get(team, zero)[k] for k in _COUNTED}
        for team in counts.keys() | added.keys()
    }


def _ranked(w: Week, period: int, counts: dict[int, dict], breakers: list[str]) -> list[dict]:
    """The table of `period` (BEFORE the week, or at its END) from each team's counted columns, for the teams
    that existed then, ranked as `standings_from` ranks it. Head-to-head is read only for the teams level on
    every breaker before it: a first ranking notes the pairs it asks for (which groups it asks about depends
    only on the breakers before), one query reads those pairs' points, the second ranking uses them."""
    until = w.start if period == BEFORE else w.end
    zero = dict.fromkeys(_COUNTED, 0)
    rows = []
    for team in w.teams:
        if team.created_at < until:
            row = {"team": team.pk, "name": team.name, **{k: counts.get(team.pk, zero)[k] for k in _COUNTED}}
            row["difference"] = row["scored"] - row["conceded"]
            rows.append(row)
    asked = _Asked()
    ordered = rank_standings(rows, breakers, asked)
    if asked.teams:
        ordered = rank_standings(rows, breakers, w.head_to_head(period, asked.teams))
    for position, row in enumerate(ordered, start=1):
        row["position"] = position
    return ordered


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
