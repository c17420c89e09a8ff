"""The league's leaders (api-v1 v1.1 "Players and leaders"): the top 10 players by each of the
ruleset's stats in a season or the whole history, from one GROUP BY over the per-match rows, cached exactly per
the league's table version (bumped on every confirm, correction, rejection and season turn); and the teams'
leaderboards the ruleset has (team value, treasury, Fan Factor, win rate)."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce

from campaigns.errors import RuleViolation
from campaigns.rulesets.stats import by_key, ranked
from dugout.players.stats import aggregates, unpack
from league.models import League
from matches.models import MatchTeam, PlayerMatch
from matches.standings import cached_document, table_tag
from teams.selectors import league_team_states

#: How many players a leaders' table lists (api-v1 v1.1: the top 10).
TOP = 10


def league_row(league_id: int) -> League | None:
    """The league as the leaders and records read it (one query; its table version names the cached answer)."""
    return (
        League.objects.filter(pk=league_id)
        .only("pk", "name", "ruleset", "season", "table_version", "house_rules_overrides")
        .first()
    )


def tag_of(league: League) -> str:
    return table_tag(league_id=league.pk, ruleset=league.ruleset, table_version=league.table_version)


def parse_season(league: League, raw: Any) -> int | None:
    """`season=N|all` (default: the open season): the season's number, or None for the whole history. A season
    the league has not reached (or not a number) is a RuleViolation naming `season` (a 400)."""
    if raw is None or raw == "":
        return league.season
    if raw == "all":
        return None
    text = str(raw)
    if not text.isdigit() or not 1 <= int(text) <= league.season:
        raise RuleViolation(f"season: give a season of this league (1 to {league.season}) or 'all'.", field="season")
    return int(text)


def parse_stat(league: League, raw: Any) -> str:
    specs = by_key(league.rules.player_stats)
    if raw not in specs:
        raise RuleViolation(f"stat: one of {', '.join(specs)} ({league.rules.name}).", field="stat")
    return raw


def _player_totals(league: League, season: int | None) -> list[dict]:
    """Every player's totals of every stat (one query: the rows grouped by player)."""
    specs = league.rules.player_stats
    rows = PlayerMatch.objects.filter(match__league_id=league.pk)
    if season is not None:
        rows = rows.filter(match__season=season)
    grouped = (
        rows.values("player_id", "player__name", "player__team_id", "player__team__name", "player__status")
        .annotate(**aggregates(specs))
        .order_by()
    )
    return [
        {
            "player": r["player_id"],
            "name": r["player__name"],
            "team": r["player__team_id"],
            "team_name": r["player__team__name"],
            "status": r["player__status"],
            "stats": unpack(r, specs),
        }
        for r in grouped
    ]


def all_leaders(league: League, season: int | None) -> dict[str, list[dict]]:
    """{stat: its top-10 rows} for every stat of the ruleset: players with a value above 0 only, ties by name
    (H docs/decisions/ "Leaders"). Cached per table version and season."""
    name = f"leaders:{'all' if season is None else season}"

    def render() -> bytes:
        totals = _player_totals(league, season)
        out = {}
        for spec in league.rules.player_stats:
            rows = [
                {
                    "player": t["player"],
                    "name": t["name"],
                    "team": t["team"],
                    "team_name": t["team_name"],
                    "value": t["stats"][spec.key],
                }
                for t in totals
                if t["stats"][spec.key] > 0
            ]
            out[spec.key] = ranked(rows, limit=TOP)
        return json.dumps(out).encode()

    return json.loads(cached_document(tag=tag_of(league), name=name, render=render))


def leaders(league: League, stat: str, season: int | None) -> dict:
    """The API's answer: `{stat, season, rows: [{position, player, name, team, team_name, value}]}`."""
    return {"stat": stat, "season": "all" if season is None else season, "rows": all_leaders(league, season)[stat]}


def _win_counts(league: League, season: int | None) -> dict[str, Coalesce]:
    """Each team's final matches and wins (of `season`, or all), as annotations of the teams' query."""
    sides = MatchTeam.objects.filter(team=OuterRef("pk"), match__status="final")
    if season is not None:
        sides = sides.filter(match__season=season)

    def counted(condition: Q) -> Coalesce:
        query = sides.filter(condition).order_by().values("team").annotate(n=Count("id")).values("n")
        return Coalesce(Subquery(query, output_field=IntegerField()), Value(0))

    return {"played": counted(Q()), "won": counted(Q(outcome="win"))}


def team_boards(league: League, season: int | None) -> list[dict]:
    """The teams' leaderboards the ruleset has (`Ruleset.team_leaderboards`), each `{key, label, rows}` of the
    top 10 `(team, value)`: team value, treasury and Fan Factor as they stand; the win rate (wins / matches, in
    per cent, of the season asked) of teams that played. Three queries (the league's team list).

    The win counts change only with the league's table (a result confirmed, corrected or rejected, a season
    turned), so they are cached exactly under its table version, like the players' leaders: counting them is
    two subqueries over every team's matches, most of the page's time at 400 teams and 10,000 matches. On a
    miss they come with the teams' query, so the page reads the same three queries either way."""
    rules, hr = league.rules, league.house_rules
    boards = rules.team_leaderboards
    if not boards:
        return []
    loaded: dict[str, tuple] = {}

    def render() -> bytes:  # a miss: the teams' query counts them, and is kept for the boards below
        loaded["teams"] = league_team_states(league_id=league.pk, **_win_counts(league, season))
        return json.dumps({t.pk: [t.played, t.won] for t in loaded["teams"][0]}).encode()

    counts: dict[int, list[int]] = {}
    if any(key == "win_rate" for key, _ in boards):
        name = f"team-wins:{'all' if season is None else season}"
        document = cached_document(tag=tag_of(league), name=name, render=render)
        counts = {int(team): pair for team, pair in json.loads(document).items()}
    teams, states = loaded.get("teams") or league_team_states(league_id=league.pk)

    def win_rate(team) -> int | None:
        played, won = counts.get(team.pk, (0, 0))  # a team made after the counts has played no final match
        return round(100 * won / played) if played else None

    values = {
        "team_value": lambda t: rules.team_value(states[t.pk], hr),
        "treasury": lambda t: t.treasury,
        "fan_factor": lambda t: t.fan_factor,
        "win_rate": win_rate,
    }
    out = []
    for key, label in boards:
        rows = [(t, values[key](t)) for t in teams]
        rows = sorted(((t, v) for t, v in rows if v is not None), key=lambda p: (-p[1], p[0].name.casefold(), p[0].pk))
        out.append({"key": key, "label": label, "rows": rows[:TOP]})
    return out


__all__ = ["TOP", "all_leaders", "leaders", "league_row", "parse_season", "parse_stat", "team_boards"]
