"""The weekly report's losses: in memoriam (deaths and careers ended) and serious injuries, which the ruleset's
words say (`words.serious_injury`: what counts as serious in the game and how it reads)."""

from __future__ import annotations

from collections import defaultdict

from dugout.reports.common import match_url
from dugout.reports.week import Week
from teams.models import Player


def in_memoriam(w: Week) -> list[dict]:
    by_player: dict[int, list[dict]] = defaultdict(list)
    for row in w.rows:
        by_player[row["player_id"]].append(row)
    out = []
    for pid, rows in by_player.items():
        player = w.players.get(pid)
        if player is None:
            continue
        if player.status == Player.Status.DEAD:
            cause = "dead"
        elif player.status == Player.Status.RETIRED and any(r["injury"] == "career_ending" for r in rows):
            cause = "career_ending"
        else:
            continue
        row = next((r for r in rows if r["injury"] in ("dead", "career_ending")), rows[-1])
        season = w.season_rows.get(pid, {})
        out.append(
            {
                **w.player_ref(pid, row["team_id"]),
                "position": player.position.name,
                "match": row["match_id"],
                "url": match_url(row["match_id"]),
                "cause": cause,
                "cause_words": "Killed" if cause == "dead" else "Career-ending injury",
                "spp": player.spp,
                "goal_points": player.goal_points,
                "matches_survived": player.matches_survived,
                "matches": season.get("matches") or 0,
                "touchdowns": season.get("touchdowns") or 0,
                "casualties": season.get("casualties") or 0,
            }
        )
    return out


def serious_injuries(w: Week, dead: set[int]) -> list[dict]:
    out = []
    for row in w.rows:
        if row["player_id"] in dead:
            continue
        injury, words = w.words.serious_injury(row, hr=w.hr)
        words = [x for x in words if x]
        if words:
            out.append(
                {
                    **w.player_ref(row["player_id"], row["team_id"]),
                    "match": row["match_id"],
                    "url": match_url(row["match_id"]),
                    "injury": injury,
                    "words": ", ".join(words),
                }
            )
    return out
