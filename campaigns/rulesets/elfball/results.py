"""The ElfBall result format (api-v1 "Result body"; rules/elfball.md "Matches", "Goal Points and abilities",
"Injuries", "Magic Potion table"). Pure validation: the caller passes the rosters and a context of the match.

A body::

    {"teams": [{"team": 1, "score": 2, "conceded": false, "no_face_off": false}, {"team": 2, "score": 1}],
     "goals": [{"team": 1, "on_field": [101, 102]}, ...],
     "players": [{"player": 201, "injury": "lasting_injury", "attribute": "might"}, ...],
     "potions": [{"player": 103, "roll": 7, "ability": "push"}, ...],
     "rolls": {"potion": [7]}}

R = rulebook, I = the service's interpretation, H = house default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.errors import RuleViolation
from campaigns.results import flag, player_rows, sides_by_team, whole

from . import postmatch as pm
from . import rules


def _tests_to_win(context: Mapping, hr: Mapping) -> int:
    n = context.get("tests_to_win")
    if n is None:
        n = hr["tests_to_win"]
    return rules.check_tests_to_win(n)


def _outcomes(teams: dict[int, dict], n: int, hr: Mapping) -> dict[int, str]:
    """R: the first team to win N Tests wins. R (Conceding): the conceding team loses. R (Beginning a Test): a
    team that cannot set up a face-off player loses (H `no_face_off_player_loses`); neither team can: a tie —
    I: the only way an ElfBall match is drawn. A match ended early has both scores below N."""
    (a, _), (b, side_b) = teams.items()
    conceding = [t for t, s in teams.items() if s["conceded"]]
    no_face_off = [t for t, s in teams.items() if s["no_face_off"]]
    if len(conceding) > 1:
        index = teams[conceding[1]]["index"]
        raise RuleViolation("Only one team can concede.", field=f"teams[{index}].conceded")
    if conceding and no_face_off:
        index = teams[no_face_off[0]]["index"]
        raise RuleViolation(
            "A match ends by a concession or for want of a face-off player, not both.",
            field=f"teams[{index}].no_face_off",
        )
    if conceding or no_face_off:
        why = "conceded" if conceding else "ended for want of a face-off player"
        for side in teams.values():
            if side["tests_won"] >= n:
                raise RuleViolation(
                    f"teams[{side['index']}].score: a match {why} before either team won {n} Tests.",
                    field=f"teams[{side['index']}].score",
                )
        if conceding:
            loser = conceding[0]
        elif len(no_face_off) == 2:
            return {a: "draw", b: "draw"}
        else:
            loser = no_face_off[0]
            if not hr["no_face_off_player_loses"]:
                index = teams[loser]["index"]
                raise RuleViolation(
                    "This league's house rules do not end a match when only one team cannot face off.",
                    field=f"teams[{index}].no_face_off",
                )
        return {t: "loss" if t == loser else "win" for t in teams}
    winners = [t for t, s in teams.items() if s["tests_won"] == n]
    if len(winners) == 2:
        raise RuleViolation(
            f"teams[{side_b['index']}].score: only one team can win {n} Tests (the match ends there).",
            field=f"teams[{side_b['index']}].score",
        )
    if not winners:
        raise RuleViolation(
            f"teams: one team must have won {n} Tests (or record a concession, or no_face_off).", field="teams"
        )
    return {t: "win" if t == winners[0] else "loss" for t in teams}


def _list_of_objects(body: Mapping, key: str) -> list[Mapping]:
    rows = body.get(key, [])
    if rows is None:
        rows = []
    if not isinstance(rows, list) or not all(isinstance(r, Mapping) for r in rows):
        raise RuleViolation(f"{key} must be a list of objects.", field=key)
    return rows


def _refuse_attribute(path: str, attributes: Mapping[str, int], value: str, hr: Mapping, what: str) -> None:
    targets = pm.lasting_injury_targets(attributes, hr)
    raise RuleViolation(
        f"{path}: {what} lowers the player's highest attribute ({', '.join(targets)}), not {value}.", field=path
    )


def _check_ids(body: Mapping, key: str) -> None:
    """Player ids are whole numbers (an unhashable or boolean id is refused before any look-up)."""
    for index, row in enumerate(_list_of_objects(body, key)):
        player = row.get("player")
        if not isinstance(player, int) or isinstance(player, bool):
            raise RuleViolation(f"{key}[{index}].player must be a player id.", field=f"{key}[{index}].player")


def _player_info(context: Mapping, player: int) -> Any:
    """The context's facts of a player (keyed by id, or by its string when the context went through JSON)."""
    known = context.get("players") or {}
    return known.get(player, known.get(str(player)))


def _player_attributes(context: Mapping, player: int) -> dict[str, int] | None:
    info = _player_info(context, player)
    attributes = info.get("attributes") if isinstance(info, Mapping) else None
    if not isinstance(attributes, Mapping) or not attributes:
        return None
    return {k: v for k, v in attributes.items() if isinstance(v, int) and not isinstance(v, bool)}


def _player_abilities(context: Mapping, player: int) -> tuple[str, ...]:
    info = _player_info(context, player)
    abilities = info.get("abilities") if isinstance(info, Mapping) else None
    return tuple(abilities) if isinstance(abilities, list | tuple) else ()


def parse_result(
    body: Any, *, rosters: Mapping[int, Mapping[int, str]], hr: Mapping, context: Mapping | None = None
) -> dict:
    """Validate and normalise an ElfBall result; a RuleViolation names the body's field at fault.

    - R: `score` is the Tests won (0–N, N = context `tests_to_win`, H default 2); exactly one team reached N,
      unless the match ended early: one team `conceded` (R: it loses; the other's score becomes 3, I: never less
      than its Tests won; each of its players able to play and not in the Infirmary gets 1 Goal Point), or
      `no_face_off` (R: that team loses; both teams: a tie). Only one of these at once.
    - R: `goals` has one entry per goal (each ends a Test): a team's entries equal its Tests won; `on_field`
      lists the scoring team's players on the field, each getting 1 Goal Point. Without a `goals` key, a player
      row's `goal_points` (at most the team's Tests won × the points per goal) is taken instead.
    - R: `players[i].injury` is the Grit Challenge outcome (Basic games: out_for_game, unconscious, none);
      `attribute` only with lasting_injury, one of the player's highest (Base excluded, I).
    - R: `potions` — each by a player of the match able to play, one per player per game (H), a D12 `roll`,
      no more per team than its Magic Potions in stock; `ability` only with a temporary Basic ability (7) and a
      Basic ability he does not have; `attribute` only with a lasting injury (2, seizure).
    - I: the Infirmary (for the concession's Goal Points, and the row's `infirmary`): a Grit outcome of
      career_ending, lasting_injury or out_for_game not cured by that player's potion (5, 6, 7), or a potion
      that makes him miss the game or more (1, 2, 3, 5). I: a potion recorded with an injury was drunk after it.
    """
    context = context or {}
    team_ids = list(rosters)
    if len(team_ids) != 2:
        raise RuleViolation("An ElfBall match is between two teams.", field="teams")
    sides = sides_by_team(body, team_ids)
    n = _tests_to_win(context, hr)
    team_of = {player: team for team, players in rosters.items() for player in players}
    able = {team: [p for p, s in players.items() if s in pm.CAN_PLAY] for team, players in rosters.items()}

    # Teams and the outcome.
    teams: dict[int, dict] = {}
    for team in team_ids:
        index, side = sides[team]
        path = f"teams[{index}]"
        teams[team] = {
            "index": index,
            "tests_won": whole(side.get("score"), f"{path}.score", maximum=n),
            "conceded": flag(side.get("conceded", False), f"{path}.conceded"),
            "no_face_off": flag(side.get("no_face_off", False), f"{path}.no_face_off"),
        }
        if teams[team]["conceded"] and teams[team]["no_face_off"]:
            raise RuleViolation(f"{path}: a team concedes or cannot face off, not both.", field=f"{path}.no_face_off")
    outcomes = _outcomes(teams, n, hr)

    # Goals.
    has_goals = "goals" in body
    goals_out: list[dict] = []
    on_field_lists: list[list[int]] = []
    if has_goals:
        for index, goal in enumerate(_list_of_objects(body, "goals")):
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
    goal_counts = pm.goals_on_field(on_field_lists)
    goal_points = pm.goal_points_from_goals(on_field_lists, hr)

    # Player rows: injuries (and goal points when no goals were listed).
    outcomes_allowed = pm.injury_outcomes(hr)
    injury_attributes = pm.injury_attributes(hr)
    _check_ids(body, "players")
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

    # Potions.
    _check_ids(body, "potions")
    potions: dict[int, list[dict]] = {}
    potion_paths: dict[int, list[str]] = {}
    per_team: dict[int, int] = {}
    stock = context.get("stock")
    limit = hr["potions_per_player_per_game"]
    faces = pm.potion_faces(hr)
    basics = pm.basic_abilities(hr)
    rolls_in_order: list[int] = []
    for index, entry in enumerate(_list_of_objects(body, "potions")):
        path = f"potions[{index}]"
        player = entry.get("player")
        if player not in team_of:
            raise RuleViolation(f"{path}.player: {player!r} is not on a team of this match.", field=f"{path}.player")
        team = team_of[player]
        if player not in able[team]:
            raise RuleViolation(
                f"{path}.player: player {player} could not play this match ({rosters[team][player]}).",
                field=f"{path}.player",
            )
        if len(potions.get(player, [])) >= limit:
            raise RuleViolation(
                f"{path}.player: a player may take only {limit} potion(s) per game.", field=f"{path}.player"
            )
        if "roll" not in entry:
            raise RuleViolation(f"{path}.roll: give the D{faces} rolled for the potion.", field=f"{path}.roll")
        roll = whole(entry["roll"], f"{path}.roll", minimum=1, maximum=faces)
        effect = pm.potion_effect(roll, hr)
        per_team[team] = per_team.get(team, 0) + 1
        if isinstance(stock, Mapping):
            have = (stock.get(team, stock.get(str(team))) or {}).get("magic_potion", 0)
            if per_team[team] > have:
                raise RuleViolation(
                    f"{path}: team {team} has only {have} Magic Potion(s) to use.", field=f"{path}.player"
                )
        drink = {"roll": roll, "ability": None, "attribute": None}
        ability = entry.get("ability")
        if ability is not None and ability != "":
            if not effect["temporary_basic_ability"]:
                raise RuleViolation(
                    f"{path}.ability goes only with a potion roll that gives a Basic ability (7).",
                    field=f"{path}.ability",
                )
            if ability not in basics:
                raise RuleViolation(
                    f"{path}.ability must be a Basic ability: {', '.join(basics)}.", field=f"{path}.ability"
                )
            if ability in _player_abilities(context, player):
                raise RuleViolation(
                    f"{path}.ability: the player already has {ability} (R: one he doesn't already have).",
                    field=f"{path}.ability",
                )
            drink["ability"] = ability
        attribute = entry.get("attribute")
        if attribute is not None and attribute != "":
            if not effect["lasting_injury"]:
                raise RuleViolation(
                    f"{path}.attribute goes only with a potion roll that gives a lasting injury (2).",
                    field=f"{path}.attribute",
                )
            if attribute not in injury_attributes:
                raise RuleViolation(
                    f"{path}.attribute must be one of {', '.join(injury_attributes)}.", field=f"{path}.attribute"
                )
            drink["attribute"] = attribute
        potions.setdefault(player, []).append(drink)
        potion_paths.setdefault(player, []).append(path)
        rolls_in_order.append(roll)

    # R: each lasting injury lowers the highest attribute (the coach chooses among ties): an attribute given
    # must be one of the highest at that point (checked when the player's attributes are known).
    for player in [*players, *(p for p in potions if p not in players)]:
        attributes = _player_attributes(context, player)
        if attributes is None:
            continue
        row = players.get(player) or {"injury": None, "attribute": None}
        drinks = potions.get(player, [])
        seizure_paths = iter(
            p
            for p, d in zip(potion_paths.get(player, []), drinks, strict=True)
            if pm.potion_effect(d["roll"], hr)["lasting_injury"]
        )
        # The Grit attribute is checked even when a potion cured the injury: it must still be a highest one.
        if row["attribute"] and row["attribute"] not in pm.lasting_injury_targets(attributes, hr):
            _refuse_attribute(f"{paths[player]}.attribute", attributes, row["attribute"], hr, "a lasting injury")
        for source, given in pm.lasting_injuries(row["injury"], row["attribute"], drinks, hr):
            path = f"{paths[player]}.attribute" if source == "injury" else f"{next(seizure_paths)}.attribute"
            targets = pm.lasting_injury_targets(attributes, hr)
            if given is None:
                if len(targets) != 1:
                    break  # the coach chooses in the post-match sequence: what follows depends on it
                given = targets[0]
            elif given not in targets:
                _refuse_attribute(
                    path, attributes, given, hr, "a lasting injury" if source == "injury" else "the seizure"
                )
            attributes = pm.lower(attributes, given, hr)

    # Rolls entered under `rolls.potion` must be the potions' own.
    entered = body.get("rolls")
    if isinstance(entered, Mapping) and "potion" in entered:
        given = entered["potion"]
        given = [given] if isinstance(given, int) and not isinstance(given, bool) else given
        if given != rolls_in_order:
            raise RuleViolation(
                f"rolls.potion must be the potions' rolls in order ({rolls_in_order}); list each potion under "
                "potions with its player.",
                field="rolls.potion",
            )

    # The Infirmary, and the Goal Points of a concession.
    infirmary = {
        player
        for player in set(players) | set(potions)
        if pm.in_infirmary((players.get(player) or {}).get("injury"), [d["roll"] for d in potions.get(player, [])], hr)
    }
    concession: dict[int, int] = {}
    for team, side in teams.items():
        if side["conceded"]:
            (other,) = [t for t in teams if t != team]
            concession = pm.concession_goal_points(able[other], infirmary=infirmary, hr=hr)

    # Normalised rows: every player with a Goal Point, an injury or a potion.
    involved = set(players) | set(potions) | {p for p, v in goal_points.items() if v} | set(concession)
    order = {team: i for i, team in enumerate(team_ids)}
    rows_out = []
    for player in sorted(involved, key=lambda p: (order[team_of[p]], p)):
        base = players.get(player) or {"team": team_of[player], "player": player, "injury": None, "attribute": None}
        drinks = potions.get(player, [])
        first = drinks[0] if drinks else {"roll": None, "ability": None, "attribute": None}
        rows_out.append(
            {
                "team": base["team"],
                "player": player,
                "goal_points": goal_points.get(player, 0) + concession.get(player, 0),
                "goals": goal_counts.get(player, 0) if has_goals else None,
                "concession_gp": concession.get(player, 0),
                "injury": base["injury"],
                "attribute": base["attribute"],
                "potion": first["roll"],
                "potion_ability": first["ability"],
                "potion_attribute": first["attribute"],
                "potions": [dict(d) for d in drinks],
                "infirmary": player in infirmary,
            }
        )

    teams_out = []
    for team in team_ids:
        side = teams[team]
        (other,) = [t for t in teams if t != team]
        score = side["tests_won"]
        if teams[other]["conceded"]:
            score = pm.conceded_score(tests_won=score, hr=hr)
        teams_out.append(
            {
                "team": team,
                "score": score,
                "tests_won": side["tests_won"],
                "conceded": side["conceded"],
                "no_face_off": side["no_face_off"],
                "outcome": outcomes[team],
                "casualties_inflicted": 0,
                "mvp": None,
            }
        )
    return {
        "teams": teams_out,
        "players": rows_out,
        "goals": goals_out,
        "rolls": {"potion": rolls_in_order} if rolls_in_order else {},
    }
