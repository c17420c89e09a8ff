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
from campaigns.results import flag, sides_by_team, whole

from . import postmatch as pm
from . import rules
from .result_potions import check_lasting_attributes, check_potion_rolls, parse_potions
from .result_rows import parse_goals, parse_player_rows


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
    has_goals, goals_out, on_field_lists = parse_goals(body, teams=teams, team_of=team_of, able=able, rosters=rosters)
    goal_counts = pm.goals_on_field(on_field_lists)
    goal_points = pm.goal_points_from_goals(on_field_lists, hr)

    # Player rows: injuries (and goal points when no goals were listed).
    players, paths = parse_player_rows(
        body, rosters=rosters, teams=teams, has_goals=has_goals, goal_points=goal_points, hr=hr
    )

    # Potions, and the attributes lasting injuries lower.
    potions, potion_paths, rolls_in_order = parse_potions(
        body, rosters=rosters, team_of=team_of, able=able, context=context, hr=hr
    )
    check_lasting_attributes(
        players=players, paths=paths, potions=potions, potion_paths=potion_paths, context=context, hr=hr
    )
    check_potion_rolls(body, rolls_in_order)

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
