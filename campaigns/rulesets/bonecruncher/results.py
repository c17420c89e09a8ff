"""The Bone Cruncher result format (api-v1 "Result body"; rules/bonecruncher.md "Events", "Wounds") and its
league points. Pure validation: the caller passes each team's players and their statuses.

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).

Scorchball (and an ordinary match, event ""): two teams, each with its points and its squad of up to 8.
Terminix: two or more teams, each with its placing, its eliminations and (optionally) its squad of up to 12.
Wounds: per player of a squad, the wounds taken (basic: a count; advanced: per body area) and the critical
wounds rolled on the Critical Wound Chart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.errors import RuleViolation
from campaigns.results import outcomes_by_score, sides_by_team, whole

from .wounds import AREAS, SIDES, critical_entry

EVENTS = ("", "scorchball", "terminix")
CAN_PLAY = ("active", "journeyman")
MAX_COUNT = 99


def _event_key(event: str) -> str:
    """I: an ordinary match (event "") is played as Scorchball."""
    if event not in EVENTS:
        raise RuleViolation(f"A Bone Cruncher event is Scorchball or Terminix, not {event!r}.", field="event")
    return event or "scorchball"


def _squad(raw: Any, *, roster: Mapping[int, str], path: str, limit: int) -> list[int]:
    """R: a team takes the field with a squad drawn from its players (Scorchball 8, Terminix 12): distinct players
    of the team able to play — a dead player never plays again.
    I (every event alike): left out, the squad is every player able to play; when that is more than the event's
    squad the rulebook cannot tell who played, so the squad must be named."""
    field = f"{path}.squad"
    if raw is None:
        able = sorted(p for p, status in roster.items() if status in CAN_PLAY)
        if not able:
            raise RuleViolation(f"{field}: the team has no player able to play.", field=field)
        if len(able) > limit:
            raise RuleViolation(
                f"{field}: a squad must be named — the team has {len(able)} players able to play and a squad has at "
                f"most {limit}; list the players who played.",
                field=field,
            )
        return able
    if not isinstance(raw, list) or not raw:
        raise RuleViolation(f"{field} must list the players who played (1 to {limit}).", field=field)
    if len(raw) > limit:
        raise RuleViolation(f"{field} lists {len(raw)} players; a squad has at most {limit}.", field=field)
    squad: list[int] = []
    for j, player in enumerate(raw):
        where = f"{field}[{j}]"
        if not isinstance(player, int) or isinstance(player, bool) or player not in roster:
            raise RuleViolation(f"{where}: {player!r} is not a player of this team.", field=where)
        if roster[player] not in CAN_PLAY:
            raise RuleViolation(f"{where}: player {player} could not play this match ({roster[player]}).", field=where)
        if player in squad:
            raise RuleViolation(f"{where}: player {player} is listed twice.", field=where)
        squad.append(player)
    return squad


def _critical(raw: Any, path: str, hr: Mapping) -> list[dict]:
    """Critical Wound Chart results: a roll 1–6, or {"roll", "side"} — the side (left/right) only for an arm or
    leg result (I: left out, it is chosen when the wounds are applied)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise RuleViolation(f"{path} must be a list of Critical Wound Chart rolls.", field=path)
    out = []
    for k, item in enumerate(raw):
        where = f"{path}[{k}]"
        if isinstance(item, Mapping):
            unknown = sorted(set(item) - {"roll", "side"})
            if unknown:
                raise RuleViolation(f"{where}: unknown key(s) {', '.join(unknown)}.", field=where)
            roll, side = item.get("roll"), item.get("side")
            roll = whole(roll, f"{where}.roll", minimum=1, maximum=6)
        else:
            roll, side = whole(item, where, minimum=1, maximum=6), None
        entry = critical_entry(roll, hr)
        if side is not None:
            if entry["area"] not in ("arm", "leg"):
                raise RuleViolation(
                    f"{where}.side: a {entry['name'].lower()} strikes no arm or leg; leave the side out.",
                    field=f"{where}.side",
                )
            if side not in SIDES:
                raise RuleViolation(f"{where}.side must be left or right.", field=f"{where}.side")
        out.append({"roll": roll, "key": entry["key"], "side": side})
    return out


def _wound_rows(body: Mapping, *, rosters, squads: Mapping[int, int], hr: Mapping) -> dict[int, dict]:
    raw = body.get("wounds", [])
    if raw is None:
        raw = []
    if not isinstance(raw, list) or not all(isinstance(r, Mapping) for r in raw):
        raise RuleViolation("wounds must be a list of objects, one per wounded player.", field="wounds")
    team_of = {player: team for team, players in rosters.items() for player in players}
    advanced = bool(hr.get("advanced_wounds", False))
    rows: dict[int, dict] = {}
    for i, row in enumerate(raw):
        path = f"wounds[{i}]"
        player = row.get("player")
        if isinstance(player, bool) or player not in team_of:
            raise RuleViolation(f"{path}.player: {player!r} is not a player of this match.", field=f"{path}.player")
        status = rosters[team_of[player]][player]
        if status not in CAN_PLAY:
            raise RuleViolation(
                f"{path}.player: player {player} could not play this match ({status}).", field=f"{path}.player"
            )
        if player not in squads:
            raise RuleViolation(f"{path}.player: player {player} was not in his team's squad.", field=f"{path}.player")
        if player in rows:
            raise RuleViolation(f"{path}.player: player {player} is listed twice.", field=f"{path}.player")
        areas: dict[str, int] = {}
        if advanced:
            raw_areas = row.get("areas")
            if raw_areas is not None:
                if not isinstance(raw_areas, Mapping):
                    raise RuleViolation(f"{path}.areas must map body areas to wounds.", field=f"{path}.areas")
                for area, n in raw_areas.items():
                    if area not in AREAS:
                        raise RuleViolation(
                            f"{path}.areas: {area!r} is not a body area ({', '.join(AREAS)}).", field=f"{path}.areas"
                        )
                    n = whole(n, f"{path}.areas.{area}", maximum=MAX_COUNT)
                    if n:
                        areas[area] = n
            count = row.get("wounds")
            if count is not None:
                count = whole(count, f"{path}.wounds", maximum=MAX_COUNT)
                if raw_areas is not None and count != sum(areas.values()):
                    raise RuleViolation(
                        f"{path}.wounds is {count} but its areas add up to {sum(areas.values())}.",
                        field=f"{path}.wounds",
                    )
                if raw_areas is None and count:
                    areas = {"torso": count}  # I: a bare count strikes the torso
            areas = {a: areas[a] for a in AREAS if a in areas}
            plain = sum(areas.values())
        else:
            if row.get("areas") not in (None, {}):
                raise RuleViolation(
                    f"{path}.areas: this league plays basic wounds (a count); wound areas need advanced wounds.",
                    field=f"{path}.areas",
                )
            plain = whole(row.get("wounds", 0), f"{path}.wounds", maximum=MAX_COUNT)
        rows[player] = {
            "wounds": plain,
            "areas": areas,
            "critical": _critical(row.get("critical"), f"{path}.critical", hr),
        }
    return rows


def parse_result(
    body: Any,
    *,
    rosters: Mapping[int, Mapping[int, str]],
    event: str,
    hr: Mapping,
    context: Mapping[str, Any] | None = None,
) -> dict:
    """Validate and normalise a Bone Cruncher result; a RuleViolation names the field at fault.

    R Scorchball (and I: an ordinary match): exactly two teams, each `{"team", "score", "squad"?}` — the points
    scored and the squad of 1–8 who played (R: a squad of 8 taken from the team's 12); the higher score wins,
    equal is a draw; H: with the points end condition (hr events.scorchball end_condition "points" and a
    points_target), at most one team can reach the target.
    R Terminix: two or more teams, each `{"team", "placing", "eliminations", "squad"?}` — placings 1..n each
    exactly once (the last team able to act is 1st), eliminations inflicted. Placing 1 wins, the others lose.
    I (both events): the squad defaults to every player able to play, and must be named when that is more than
    the event's squad (8 or 12) — so the contract's result shape, without `squad`, is enough for a team of 8.
    Wounds (I): per squad player at most once; basic: a whole count, advanced: per area (a bare count strikes the
    torso); critical: Critical Wound Chart rolls 1–6, with the side of an arm or leg result if recorded.

    Returns `{"teams": [...], "players": [one row per squad player], "rolls": {"critical_wound": [...]}}`
    (no `critical_wound` key when no critical wound was rolled).
    """
    kind = _event_key(event)
    spec = hr["events"][kind]
    team_ids = list(rosters)
    if kind == "scorchball" and len(team_ids) != 2:
        raise RuleViolation("A Scorchball match is between two teams.", field="teams")
    if kind == "terminix" and len(team_ids) < max(2, int(spec.get("min_teams", 2))):
        raise RuleViolation("A Terminix match is between two or more teams.", field="teams")
    sides = sides_by_team(body, team_ids)
    players_raw = body.get("players")
    if players_raw not in (None, []):
        raise RuleViolation(
            "Bone Cruncher results list each team's squad and the wounds taken, not players.", field="players"
        )
    n = len(team_ids)
    limit = int(spec["squad"])
    teams_out: list[dict] = []
    placed: dict[int, int] = {}
    for team in team_ids:
        index, side = sides[team]
        path = f"teams[{index}]"
        if side.get("conceded", False) is not False:
            raise RuleViolation(f"{path}.conceded: Bone Cruncher has no conceding rule.", field=f"{path}.conceded")
        squad = _squad(side.get("squad"), roster=rosters[team], path=path, limit=limit)
        line = {"index": index, "team": team, "squad": squad, "conceded": False, "mvp": None}
        if kind == "scorchball":
            line.update(score=whole(side.get("score"), f"{path}.score", maximum=999), placing=None, eliminations=0)
        else:
            placing = whole(side.get("placing"), f"{path}.placing", minimum=1, maximum=n)
            if placing in placed:
                raise RuleViolation(
                    f"{path}.placing: {placing} is already the placing of team {placed[placing]}; each placing from "
                    f"1 to {n} goes to exactly one team.",
                    field=f"{path}.placing",
                )
            placed[placing] = team
            line.update(
                score=None,
                placing=placing,
                eliminations=whole(side.get("eliminations", 0), f"{path}.eliminations", maximum=MAX_COUNT),
            )
        line["casualties_inflicted"] = line["eliminations"]
        teams_out.append(line)

    if kind == "terminix":
        squads_size = {t["team"]: len(t["squad"]) for t in teams_out}
        for t in teams_out:
            others = sum(size for team, size in squads_size.items() if team != t["team"])
            if t["eliminations"] > others:
                where = f"teams[{t['index']}].eliminations"
                raise RuleViolation(
                    f"{where}: {t['eliminations']} eliminations, but the other squads had {others} players.",
                    field=where,
                )
        outcomes = {t["team"]: "win" if t["placing"] == 1 else "loss" for t in teams_out}
    else:
        target = int(spec.get("points_target", 0))
        if spec.get("end_condition") == "points" and target > 0:
            reached = [t for t in teams_out if t["score"] >= target]
            if len(reached) > 1:
                where = f"teams[{reached[1]['index']}].score"
                raise RuleViolation(
                    f"{where}: the match ends when a team reaches {target} points; only one team can reach it.",
                    field=where,
                )
        outcomes = outcomes_by_score({t["team"]: t["score"] for t in teams_out}, {})

    squad_of = {player: t["team"] for t in teams_out for player in t["squad"]}
    wounds = _wound_rows(body, rosters=rosters, squads=squad_of, hr=hr)

    players_out = []
    for t in teams_out:
        for player in t["squad"]:
            row = wounds.get(player, {"wounds": 0, "areas": {}, "critical": []})
            players_out.append({"team": t["team"], "player": player, **row})
    criticals = [c["roll"] for row in wounds.values() for c in row["critical"]]
    teams = [
        {
            "team": t["team"],
            "score": t["score"],
            "placing": t["placing"],
            "eliminations": t["eliminations"],
            "casualties_inflicted": t["casualties_inflicted"],
            "squad": t["squad"],
            "conceded": False,
            "outcome": outcomes[t["team"]],
            "mvp": None,
        }
        for t in teams_out
    ]
    return {"teams": teams, "players": players_out, "rolls": {"critical_wound": criticals} if criticals else {}}


def league_points(*, outcome: str, kind: str, hr: Mapping, event: str = "", placing: int | None = None) -> int:
    """H: Scorchball (and an ordinary match) win 3 / draw 1 / loss 0; Terminix by placing — 1st 3, 2nd 1, others
    0 (hr["league_points"]); friendlies give none unless hr["friendlies_give_points"]. I: a Terminix line with no
    placing counts a win as 1st."""
    if kind == "friendly" and not hr.get("friendlies_give_points", False):
        return 0
    points = hr["league_points"]
    if _event_key(event) == "terminix":
        table = points["terminix"]
        if placing is None and outcome == "win":
            placing = 1
        placings = table["placings"]
        if placing is not None and 1 <= placing <= len(placings):
            return int(placings[placing - 1])
        return int(table["other"])
    return int(points["scorchball"].get(outcome, 0))
