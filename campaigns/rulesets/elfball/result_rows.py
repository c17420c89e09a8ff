"""The goals and the player rows of an ElfBall result (../shared/rules/elfball.md "Matches", "Goal Points and
abilities", "Injuries"; api-v1 "Result body"). Pure validation: a RuleViolation names the body's field at fault."""

from __future__ import annotations

from collections.abc import Mapping

from campaigns.errors import RuleViolation
from campaigns.results import player_rows, whole

from . import postmatch as pm


def list_of_objects(body: Mapping, key: str) -> list[Mapping]:
    rows = body.get(key, [])
    if rows is None:
        rows = []
    if not isinstance(rows, list) or not all(isinstance(r, Mapping) for r in rows):
        raise RuleViolation(f"{key} must be a list of objects.", field=key)
    return rows


def check_ids(body: Mapping, key: str) -> None:
    """Player ids are whole numbers (an unhashable or boolean id is refused before any look-up)."""
    for index, row in enumerate(list_of_objects(body, key)):
        player = row.get("player")
        if not isinstance(player, int) or isinstance(player, bool):
            raise RuleViolation(f"{key}[{index}].player must be a player id.", field=f"{key}[{index}].player")


def parse_goals(
    body: Mapping,
    *,
    teams: Mapping[int, Mapping],
    team_of: Mapping[int, int],
    able: Mapping[int, list[int]],
    rosters: Mapping,
) -> tuple[bool, list[dict], list[list[int]]]:
    """R: one entry per goal (each ends a Test): a team's entries equal its Tests won; `on_field` lists the scoring
    team's players on the field who could play. Returns whether goals were given, the goals and their on-field lists."""
    has_goals = "goals" in body
    goals_out: list[dict] = []
    on_field_lists: list[list[int]] = []
    if has_goals:
        for index, goal in enumerate(list_of_objects(body, "goals")):
            path = f"goals[{index}]"
            team = goal.get("team")
            if not isinstance(team, int) or isinstance(team, bool) or team not in teams:
                raise RuleViolation(f"{path}.team is not a team of this match.", field=f"{path}.team")
            on_field = goal.get("on_field")
            if not isinstance(on_field, list) or not on_field:
                raise RuleViolation(
                    f"{path}.on_field must list the scoring team's players on the field.", field=f"{path}.on_field"
                )
            for player in on_field:
                if not isinstance(player, int) or isinstance(player, bool) or team_of.get(player) != team:
                    raise RuleViolation(
                        f"{path}.on_field: {player!r} is not a player of the scoring team.", field=f"{path}.on_field"
                    )
                if player not in able[team]:
                    raise RuleViolation(
                        f"{path}.on_field: player {player} could not play this match ({rosters[team][player]}).",
                        field=f"{path}.on_field",
                    )
            if len(set(on_field)) != len(on_field):
                raise RuleViolation(f"{path}.on_field lists a player twice.", field=f"{path}.on_field")
            goals_out.append({"team": team, "on_field": list(on_field)})
            on_field_lists.append(list(on_field))
        for team, side in teams.items():
            scored = sum(1 for g in goals_out if g["team"] == team)
            if scored != side["tests_won"]:
                raise RuleViolation(
                    f"goals: team {team} won {side['tests_won']} Test(s) but goals lists {scored} goal(s) for it "
                    "(every goal ends a Test).",
                    field="goals",
                )
    return has_goals, goals_out, on_field_lists


def parse_player_rows(
    body: Mapping,
    *,
    rosters: Mapping,
    teams: Mapping[int, Mapping],
    has_goals: bool,
    goal_points: dict[int, int],
    hr: Mapping,
) -> tuple[dict[int, dict], dict[int, str]]:
    """R: each row's Grit Challenge `injury` and the `attribute` a lasting injury lowers; without goals, the row's
    `goal_points` (at most the team's Tests won × the points per goal) go into `goal_points`. Returns the rows by
    player and each row's path in the body."""
    outcomes_allowed = pm.injury_outcomes(hr)
    injury_attributes = pm.injury_attributes(hr)
    check_ids(body, "players")
    players: dict[int, dict] = {}
    paths: dict[int, str] = {}
    for index, (team, player, row) in enumerate(player_rows(body, rosters)):
        path = f"players[{index}]"
        out = {"team": team, "player": player, "injury": None, "attribute": None}
        if "goal_points" in row and has_goals:
            expected = goal_points.get(player, 0)
            if whole(row["goal_points"], f"{path}.goal_points", maximum=99) != expected:
                raise RuleViolation(
                    f"{path}.goal_points: the goals listed give player {player} {expected} Goal Point(s) "
                    "(give goals or the players' goal_points, not both).",
                    field=f"{path}.goal_points",
                )
        elif "goal_points" in row:
            cap = teams[team]["tests_won"] * hr["goal_points_per_goal"]
            points = whole(row["goal_points"], f"{path}.goal_points", maximum=cap)
            if points:
                goal_points[player] = points
        injury = row.get("injury")
        if injury is not None and injury != "":
            if injury not in outcomes_allowed:
                raise RuleViolation(
                    f"{path}.injury must be one of {', '.join(outcomes_allowed)}.", field=f"{path}.injury"
                )
            out["injury"] = injury
        attribute = row.get("attribute")
        if attribute is not None and attribute != "":
            if injury != "lasting_injury":
                raise RuleViolation(f"{path}.attribute goes only with a lasting_injury.", field=f"{path}.attribute")
            if attribute not in injury_attributes:
                raise RuleViolation(
                    f"{path}.attribute must be one of {', '.join(injury_attributes)}.", field=f"{path}.attribute"
                )
            out["attribute"] = attribute
        players[player] = out
        paths[player] = path
    return players, paths
