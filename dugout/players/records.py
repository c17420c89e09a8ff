"""The league's records and hall of fame: the most of the ruleset's headline stat (and of its
casualties, where it has them) in a match, a season and a career; the biggest win; the longest unbeaten run;
the season champions. Four queries, cached per the league's table version (every input is a confirmed result
or a season's close, each of which renews it). The decisions (ties, unbeaten, biggest win): docs/decisions/."""

from __future__ import annotations

import json
from collections import defaultdict

from dugout.players.leaders import tag_of
from dugout.players.stats import row_value
from league.models import League, Season
from matches.models import Match, MatchTeam, PlayerMatch
from matches.standings import cached_document

#: Rows per record table.
RECORD_ROWS = 5


def _top(rows: list[dict]) -> list[dict]:
    ordered = sorted(rows, key=lambda r: (-r["value"], r["name"].casefold(), r.get("match") or 0, r["player"]))
    return [r for r in ordered if r["value"] > 0][:RECORD_ROWS]


def _player_records(league: League, keys: list[str]) -> dict[str, dict]:
    """{stat: {match, season, career}} of each stat key (one query: the rows with any of them)."""
    specs = {s.key: s for s in league.rules.player_stats}
    if not keys:
        return {}
    values = {f"v_{k}": row_value(specs[k]) for k in keys}
    rows = list(
        PlayerMatch.objects.filter(match__league_id=league.pk)
        .annotate(**values)
        .values(
            "player_id", "player__name", "player__team_id", "player__team__name", "match_id", "match__season", *values
        )
        .order_by()
    )
    out = {}
    for key in keys:
        per_match, per_season, per_career = [], defaultdict(int), defaultdict(int)
        who = {}
        for r in rows:
            value = int(r[f"v_{key}"] or 0)
            if not value:
                continue
            pid = r["player_id"]
            who[pid] = {
                "player": pid,
                "name": r["player__name"],
                "team": r["player__team_id"],
                "team_name": r["player__team__name"],
            }
            per_match.append({**who[pid], "match": r["match_id"], "season": r["match__season"], "value": value})
            per_season[(pid, r["match__season"])] += value
            per_career[pid] += value
        out[key] = {
            "label": specs[key].label,
            "match": _top(per_match),
            "season": _top([{**who[p], "season": s, "value": v} for (p, s), v in per_season.items()]),
            "career": _top([{**who[p], "value": v} for p, v in per_career.items()]),
        }
    return out


def _side_records(league: League) -> tuple[list[dict], list[dict]]:
    """(biggest wins, longest unbeaten runs) from the final matches' sides (one query). Friendlies count for
    neither (H docs/decisions/)."""
    sides = (
        MatchTeam.objects.filter(match__league_id=league.pk, match__status=Match.Status.FINAL)
        .exclude(match__kind=Match.Kind.FRIENDLY)
        .values("match_id", "team_id", "team__name", "score", "outcome", "match__season", "match__confirmed_at")
        .order_by("match__confirmed_at", "match_id", "order")
    )
    by_match: dict[int, list[dict]] = defaultdict(list)
    runs: dict[int, dict] = {}
    best: dict[int, dict] = {}
    for s in sides:
        by_match[s["match_id"]].append(s)
        team = s["team_id"]
        run = runs.setdefault(team, {"team": team, "team_name": s["team__name"], "value": 0, "from": None})
        if s["outcome"] in ("win", "draw"):
            run["value"] += 1
            run["from"] = run["from"] or s["match_id"]
            run["to"] = s["match_id"]
            if run["value"] > best.get(team, {}).get("value", 0):
                best[team] = dict(run)
        else:
            runs[team] = {"team": team, "team_name": s["team__name"], "value": 0, "from": None}
    wins = []
    for match_id, teams in by_match.items():
        winner = next((t for t in teams if t["outcome"] == "win"), None)
        others = [t["score"] or 0 for t in teams if t is not winner]
        if winner is None or winner["score"] is None or not others:
            continue
        wins.append(
            {
                "match": match_id,
                "season": winner["match__season"],
                "team": winner["team_id"],
                "team_name": winner["team__name"],
                "score": [winner["score"], max(others)],
                "margin": winner["score"] - max(others),
                "against": ", ".join(t["team__name"] for t in teams if t is not winner),
            }
        )
    wins.sort(key=lambda w: (-w["margin"], -w["score"][0], w["match"]))
    unbeaten = sorted(best.values(), key=lambda r: (-r["value"], r["team_name"].casefold(), r["team"]))
    return wins[:RECORD_ROWS], unbeaten[:RECORD_ROWS]


def _champions(league: League) -> list[dict]:
    seasons = Season.objects.filter(league=league, champion__isnull=False).select_related("champion")
    return [
        {"season": s.number, "name": str(s), "team": s.champion_id, "team_name": s.champion.name}
        for s in seasons.order_by("number")
    ]


def league_records(league: League) -> dict:
    """`{league, headline, casualties, players: {stat: {label, match, season, career}}, biggest_wins,
    unbeaten_runs, champions}` (the stat keys: the ruleset's `headline_stat` and `casualty_stat`)."""

    def render() -> bytes:
        rules = league.rules
        keys = [k for k in (rules.headline_stat, rules.casualty_stat) if k]
        wins, unbeaten = _side_records(league)
        body = {
            "league": league.pk,
            "headline": rules.headline_stat,
            "casualties": rules.casualty_stat,
            "players": _player_records(league, keys),
            "biggest_wins": wins,
            "unbeaten_runs": unbeaten,
            "champions": _champions(league),
        }
        return json.dumps(body).encode()

    return json.loads(cached_document(tag=tag_of(league), name="records", render=render))
