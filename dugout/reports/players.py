"""The weekly report's player sections: leaderboards (by player or by team, as the ruleset's
`report_scorers` / `report_casualties` say), MVPs, and improvements — the post-match journals' "player" entries
(each keeps the player as he stood before a change) compared with the player's next known state."""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from dugout.reports.common import TOP, match_url, title
from dugout.reports.week import PlayerRow, Week


def _leaders(totals: Mapping[int, int], ref, limit: int = TOP) -> list[dict]:
    # Only the keys that can place are named (a season board has a total for each of the league's ~5,000
    # players): those at least as high as the `limit`-th highest total, its ties included, which the sort orders.
    scored = [(key, value) for key, value in totals.items() if value]
    if len(scored) > limit:
        cut = heapq.nlargest(limit, (value for _, value in scored))[-1]
        scored = [(key, value) for key, value in scored if value >= cut]
    entries = [{**ref(key), "value": int(value)} for key, value in scored]
    entries.sort(key=lambda e: (-e["value"], e["name"].lower(), e.get("player") or 0))
    return entries[:limit]


def board(w: Week, spec: tuple[str, str, str]) -> dict:
    """A leaderboard of the week and the season: by player (a PlayerMatch field) or by team (a side field)."""
    by, field, unit = spec
    if by == "player":
        week: dict[int, int] = defaultdict(int)
        for row in w.rows:
            week[row["player_id"]] += row[field] or 0
        season = {pid: r[field] or 0 for pid, r in w.season_rows.items()}

        def ref(pid: int) -> dict:
            return w.player_ref(pid)

    else:
        week = defaultdict(int)
        for side in w.week_sides:
            week[side["team_id"]] += side[field] or 0
        season = w.team_sums(field)

        def ref(team_id: int) -> dict:
            name = w.team_name(team_id)
            return {"player": None, "name": name, "number": None, "team": team_id, "team_name": name}

    return {"by": by, "unit": unit, "week": _leaders(week, ref), "season": _leaders(season, ref)}


def mvps(w: Week) -> list[dict]:
    return [
        {**w.player_ref(r["player_id"], r["team_id"]), "match": r["match_id"], "url": match_url(r["match_id"])}
        | {"spp": r["spp"]}
        for r in w.rows
        if r["mvp"]
    ]


# --- improvements: the journals' "player" entries against each player's next known state -----------------------


def _player_timeline(w: Week) -> dict[int, list[tuple[int, str, dict]]]:
    """Each player's known states from the week on, in order: (match, "confirm" | "journal", state).

    A match's own journal keeps how its players stood just before the result became final; each "player" entry
    of a post-match journal keeps how the player stood before that change."""
    by_match: dict[int, list[dict]] = defaultdict(list)
    for aftermath in w.aftermaths:
        by_match[aftermath["match_id"]].append(aftermath)
    timeline: dict[int, list[tuple[int, str, dict]]] = defaultdict(list)
    for match in w.journal_matches:
        for pid, state in ((match["journal"] or {}).get("players") or {}).items():
            if isinstance(state, dict) and str(pid).isdigit():
                timeline[int(pid)].append((match["id"], "confirm", state))
        for aftermath in by_match.get(match["id"], ()):
            for entry in aftermath["journal"] or ():
                if isinstance(entry, dict) and entry.get("type") == "player" and isinstance(entry.get("before"), dict):
                    timeline[int(entry["id"])].append((match["id"], "journal", entry["before"]))
    return timeline


def _after(timeline: list[tuple[int, str, dict]], index: int, field: str, player: PlayerRow) -> Any:
    for _, _, state in timeline[index + 1 :]:
        if field in state:
            return state[field]
    return getattr(player, field)


def improvements(w: Week) -> list[dict]:
    week_matches = set(w.week_match_ids)
    order = {m: i for i, m in enumerate(w.week_match_ids)}
    out = []
    for pid, timeline in _player_timeline(w).items():
        player = w.players.get(pid)
        if player is None:
            continue
        for index, (match_id, source, before) in enumerate(timeline):
            if source != "journal" or match_id not in week_matches:
                continue
            ref = {**w.player_ref(pid), "match": match_id, "url": match_url(match_id)}
            gains: list[tuple[str, str]] = []
            if "skills" in before:
                after = _after(timeline, index, "skills", player) or []
                gains += [("skill", s) for s in after if s not in before["skills"]]
            if "attributes" in before:
                after = _after(timeline, index, "attributes", player) or {}
                for key, value in after.items():
                    old = before["attributes"].get(key)
                    if isinstance(value, int) and isinstance(old, int) and value > old:
                        gains.append(("attribute", f"+{value - old} {key.upper() if len(key) <= 2 else title(key)}"))
            if "abilities" in before:
                after = _after(timeline, index, "abilities", player) or []
                gains += [("ability", title(a)) for a in after if a not in before["abilities"]]
            if "elite" in before and not before["elite"] and _after(timeline, index, "elite", player):
                gains.append(("elite", "Elite"))
            for kind, what in gains:
                words = {
                    "skill": f"{ref['name']} learned {what}",
                    "attribute": f"{ref['name']} gained {what}",
                    "ability": f"{ref['name']} learned {what}",
                    "elite": f"{ref['name']} was promoted to Elite",
                }[kind]
                out.append({**ref, "kind": kind, "what": what, "words": words + "."})
    out.sort(key=lambda e: (order.get(e["match"], 0), e["team_name"].lower(), e["number"] or 0, e["player"]))
    return out
