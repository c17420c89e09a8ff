"""Shared checks for match results: each ruleset's result format builds on these (pure, no ORM)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import RuleViolation


def whole(value: Any, field: str, *, minimum: int = 0, maximum: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise RuleViolation(f"{field} must be a whole number of at least {minimum}.", field=field)
    if maximum is not None and value > maximum:
        raise RuleViolation(f"{field} must be at most {maximum}.", field=field)
    return value


def flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise RuleViolation(f"{field} must be true or false.", field=field)
    return value


def sides_by_team(body: Any, team_ids: list[int]) -> dict[int, tuple[int, Mapping]]:
    """The result's `teams` list: one object per team of the match, each exactly once, by team id as
    (its index in the body, so errors name the body's own entry; the object)."""
    if not isinstance(body, Mapping):
        raise RuleViolation("The result must be an object.")
    sides = body.get("teams")
    if not isinstance(sides, list) or not all(isinstance(s, Mapping) for s in sides):
        raise RuleViolation("teams must list one object per team of the match.", field="teams")
    by_team: dict[int, tuple[int, Mapping]] = {}
    for index, side in enumerate(sides):
        team = side.get("team")
        if not isinstance(team, int) or isinstance(team, bool) or team not in team_ids:
            raise RuleViolation(f"teams[{index}].team is not a team of this match.", field=f"teams[{index}].team")
        if team in by_team:
            raise RuleViolation(f"teams[{index}].team appears twice.", field=f"teams[{index}].team")
        by_team[team] = (index, side)
    missing = [t for t in team_ids if t not in by_team]
    if missing:
        raise RuleViolation(f"teams is missing team(s) {missing}.", field="teams")
    return by_team


def player_rows(body: Mapping, rosters: Mapping[int, Mapping[int, str]]) -> list[tuple[int, int, Mapping]]:
    """The result's `players` list as (team_id, player_id, row); each player once, of a team of the match,
    and able to play (not dead, not missing this match, not gone)."""
    rows = body.get("players", [])
    if not isinstance(rows, list) or not all(isinstance(r, Mapping) for r in rows):
        raise RuleViolation("players must be a list of objects.", field="players")
    team_of = {player: team for team, players in rosters.items() for player in players}
    seen: set[int] = set()
    result = []
    for index, row in enumerate(rows):
        field = f"players[{index}].player"
        player = row.get("player")
        if not isinstance(player, int) or isinstance(player, bool) or player not in team_of:
            raise RuleViolation(f"{field}: player {player} is not on a team of this match.", field=field)
        if player in seen:
            raise RuleViolation(f"{field}: player {player} is listed twice.", field=field)
        status = rosters[team_of[player]][player]
        if status not in ("active", "journeyman"):
            raise RuleViolation(f"{field}: player {player} could not play this match ({status}).", field=field)
        seen.add(player)
        result.append((team_of[player], player, row))
    return result


def outcomes_by_score(scores: Mapping[int, int], conceded: Mapping[int, bool]) -> dict[int, str]:
    """Two teams: the higher score wins, equal is a draw; a team that conceded loses whatever the score."""
    teams = list(scores)
    a, b = teams
    if conceded.get(a) or conceded.get(b):
        loser = a if conceded.get(a) else b
        return {t: "loss" if t == loser else "win" for t in teams}
    if scores[a] == scores[b]:
        return {a: "draw", b: "draw"}
    winner = a if scores[a] > scores[b] else b
    return {t: "win" if t == winner else "loss" for t in teams}
