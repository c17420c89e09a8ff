"""The Blitz Bowl result format (api-v1 "Result body"; rules/blitzbowl.md "Injuries recorded on a result",
"Conceding"). Pure validation: the caller passes each team's players and their statuses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.errors import RuleViolation
from campaigns.results import flag, outcomes_by_score, player_rows, sides_by_team, whole

STATS = ("touchdowns", "casualties", "completions", "interceptions")


def parse_result(body: Any, *, rosters: Mapping[int, Mapping[int, str]], hr: Mapping) -> dict:
    """Validate and normalise a result; a RuleViolation names the field at fault."""
    team_ids = list(rosters)
    if len(team_ids) != 2:
        raise RuleViolation("A Blitz Bowl match is between two teams.")
    sides = sides_by_team(body, team_ids)
    injuries = hr["injuries"]
    stat_names = hr["stat_loss_attributes"]

    teams_out, players_out = [], []
    for team in team_ids:
        index, side = sides[team]
        path = f"teams[{index}]"
        mvp = side.get("mvp")
        if mvp is not None and mvp not in rosters[team]:
            raise RuleViolation(f"{path}.mvp must be a player of that team.", field=f"{path}.mvp")
        if mvp is not None and rosters[team][mvp] not in ("active", "journeyman"):
            raise RuleViolation(f"{path}.mvp could not play this match.", field=f"{path}.mvp")
        teams_out.append(
            {
                "index": index,
                "team": team,
                "score": whole(side.get("score"), f"{path}.score", maximum=99),
                "casualties_inflicted": whole(
                    side.get("casualties_inflicted", 0), f"{path}.casualties_inflicted", maximum=99
                ),
                "mvp": mvp,
                "conceded": flag(side.get("conceded", False), f"{path}.conceded"),
                "conceded_early": flag(side.get("conceded_early", False), f"{path}.conceded_early"),
                "fame": whole(side.get("fame", 0), f"{path}.fame", maximum=2),
            }
        )
    if sum(1 for t in teams_out if t["conceded"] or t["conceded_early"]) > 1:
        raise RuleViolation("Only one team can concede.", field="teams")
    for t in teams_out:
        t["conceded"] = t["conceded"] or t["conceded_early"]

    for index, (team, player, row) in enumerate(player_rows(body, rosters)):
        path = f"players[{index}]"
        out = {"team": team, "player": player}
        for stat in STATS:
            out[stat] = whole(row.get(stat, 0), f"{path}.{stat}", maximum=99)
        injury = row.get("injury", "") or ""
        if injury and injury not in injuries:
            raise RuleViolation(f"{path}.injury must be one of {', '.join(injuries)}.", field=f"{path}.injury")
        out["injury"] = injury
        out["stat"] = ""
        if injury == "stat_loss":
            if row.get("stat") not in stat_names:
                raise RuleViolation(f"{path}.stat must be one of {', '.join(stat_names)}.", field=f"{path}.stat")
            out["stat"] = row["stat"]
        players_out.append(out)

    for t in teams_out:
        index = t.pop("index")
        touchdowns = sum(p["touchdowns"] for p in players_out if p["team"] == t["team"])
        if touchdowns != t["score"]:
            raise RuleViolation(
                f"teams[{index}].score is {t['score']} but its players scored {touchdowns} touchdown(s).",
                field=f"teams[{index}].score",
            )
    outcomes = outcomes_by_score(
        {t["team"]: t["score"] for t in teams_out}, {t["team"]: t["conceded"] for t in teams_out}
    )
    for t in teams_out:
        t["outcome"] = outcomes[t["team"]]
    return {"teams": teams_out, "players": players_out}
