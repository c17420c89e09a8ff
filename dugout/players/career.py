"""A player's page and API document (api-v1 v1.1 `GET /players/{id}/`): the player as in a team, his
team, his career and seasons (the ruleset's stats, campaigns/rulesets/stats.py, read from his per-match rows),
his match history newest first (paged), and what he gained when — each skill or ability with the match it was
gained in, and his value after each match — read from the post-match sequences' journals (every player change
a step made keeps the player's state before it: the state after one match is the state before the next change,
or the player as he is now). Five queries at most, however many matches he played."""

from __future__ import annotations

from django.core.paginator import Paginator

from campaigns.rulesets.stats import read_row
from matches.models import PLAYER_ROW_FACTS, Aftermath, MatchTeam, PlayerMatch
from teams.models import Player

#: History rows per page (a long career is paged; `?page=N`).
HISTORY_PAGE = 25

ROW_FIELDS = PLAYER_ROW_FACTS


def player_row(player_id: int) -> Player | None:
    """The player with his team, league and position (one query); None when there is no such player."""
    return Player.objects.select_related("team__league", "position").filter(pk=player_id).first()


def _stat_rows(player: Player) -> list[PlayerMatch]:
    """His per-match rows, oldest first, with their match's season and date (one query)."""
    return list(
        PlayerMatch.objects.filter(player=player)
        .select_related("match")
        .only("player_id", "team_id", "match_id", *ROW_FIELDS, "match__season", "match__confirmed_at", "match__kind")
        .order_by("match__confirmed_at", "match_id")
    )


def _row_stats(rules, row: PlayerMatch, *, died_here: bool) -> dict[str, int]:
    values = {f: getattr(row, f) for f in ROW_FIELDS}
    return {s.key: read_row(s, values, died_here=died_here) for s in rules.player_stats}


def _gains(player: Player, match_ids: list[int], team_ids: set[int]) -> tuple[list[dict], dict[int, int]]:
    """(skills and abilities with the match each was gained in — None: he had it before any recorded match —,
    his value after each match by match id). One query: the sequences of the matches he played."""
    befores: list[tuple[int, dict]] = []
    for aftermath in (
        Aftermath.objects.filter(match_id__in=match_ids, team_id__in=team_ids or {player.team_id})
        .only("match_id", "journal")
        .order_by("match__confirmed_at", "match_id")
    ):
        for entry in aftermath.journal:
            if entry.get("type") == "player" and entry.get("id") == player.pk:
                befores.append((aftermath.match_id, entry["before"]))
    now = {"skills": list(player.skills), "abilities": list(player.abilities), "value": player.value}
    gained: dict[str, int] = {}
    value_after: dict[int, int] = {}
    for index, (match_id, before) in enumerate(befores):
        after = befores[index + 1][1] if index + 1 < len(befores) else now
        for kind in ("skills", "abilities"):
            for name in after.get(kind, []):
                if name not in before.get(kind, []):
                    gained.setdefault(f"{kind}:{name}", match_id)
        value_after[match_id] = after.get("value", player.value)
    listed = [
        {"kind": kind[:-1], "name": name, "match": gained.get(f"{kind}:{name}")}
        for kind in ("skills", "abilities")
        for name in now[kind]
    ]
    return listed, value_after


def player_career(player: Player, *, page: int = 1) -> dict:
    """`career`, `seasons`, `history` (the page asked: `history_page` says which and how many), `gained` and
    `value_over_time` of a player (the team-sheet fields come from the team API's serializer)."""
    rules = player.team.league.rules
    rows = _stat_rows(player)
    dead = player.status == Player.Status.DEAD
    per_row = [_row_stats(rules, r, died_here=dead and i == len(rows) - 1) for i, r in enumerate(rows)]
    keys = [s.key for s in rules.player_stats]
    career = {k: sum(s[k] for s in per_row) for k in keys}
    seasons: dict[int, dict] = {}
    for row, stats in zip(rows, per_row, strict=True):
        season = seasons.setdefault(row.match.season, {"season": row.match.season, **dict.fromkeys(keys, 0)})
        for k in keys:
            season[k] += stats[k]
    paginator = Paginator(list(range(len(rows)))[::-1], HISTORY_PAGE)
    shown = paginator.get_page(page)
    ids = [rows[i].match_id for i in shown]
    opponents: dict[int, list[dict]] = {}
    for side in (
        MatchTeam.objects.filter(match_id__in=ids)
        .select_related("team")
        .only("match_id", "team_id", "team__name", "score", "outcome", "order")
        .order_by("match_id", "order")
    ):
        opponents.setdefault(side.match_id, []).append(side)
    history = []
    for i in shown:
        row = rows[i]
        sides = opponents.get(row.match_id, [])
        own = next((s for s in sides if s.team_id == row.team_id), None)
        others = [s for s in sides if s.team_id != row.team_id]
        history.append(
            {
                "match": row.match_id,
                "season": row.match.season,
                "played_at": row.match.confirmed_at.isoformat() if row.match.confirmed_at else None,
                "opponent": others[0].team_id if others else None,
                "opponent_name": ", ".join(s.team.name for s in others),
                "outcome": own.outcome if own else "",
                "score": [own.score if own else None, *(s.score for s in others)],
                **per_row[i],
                "injury": row.injury or None,
            }
        )
    gained, value_after = _gains(player, [r.match_id for r in rows], {r.team_id for r in rows})
    value_over_time = [
        {
            "match": r.match_id,
            "played_at": r.match.confirmed_at.isoformat() if r.match.confirmed_at else None,
            "value": value_after[r.match_id],
        }
        for r in rows
        if r.match_id in value_after
    ]
    # The team API's serializer reads his injuries from these rows (no query of its own).
    player.injury_rows = [r for r in rows if r.injury or "lasting" in (r.detail or {})]
    return {
        "career": {"matches": len(rows), **career},
        "seasons": sorted(seasons.values(), key=lambda s: s["season"]),
        "history": history,
        "history_page": {"page": shown.number, "pages": paginator.num_pages, "count": len(rows)},
        "gained": gained,
        "value_over_time": value_over_time,
    }
