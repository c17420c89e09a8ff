"""Parts of a result becoming final (`effects.result_apply`): each team's snapshot as it stood before the match,
and an injury's effect on a player — kept apart so matches/effects.py stays one screenful of effects."""

from __future__ import annotations

from teams.models import Player, Team
from teams.selectors import team_state

#: Ruleset-tracked player fields kept in a team's pre-match snapshot.
SNAPSHOT_FIELDS = ("goal_points", "abilities", "role", "wounds", "armour_used", "matches_survived", "elite")


def team_snapshot(team: Team, rules, hr) -> dict:
    """The team as it stood before the match (its coach, TV, treasury, fan factor, rerolls and roster). The coach
    is who the match counts for in the coaches' ratings, whoever coaches the team later (dugout/ratings.py)."""
    return {
        "coach": team.coach_id,
        "team_value": rules.team_value(team_state(team=team), hr),
        "treasury": team.treasury,
        "fan_factor": team.fan_factor,
        "rerolls": team.rerolls,
        "players": [
            {
                "id": p.pk,
                "name": p.name,
                "number": p.number,
                "position": p.position.name,
                "status": p.status,
                "value": p.value,
                "spp": p.spp,
                **{key: getattr(p, key) for key in SNAPSHOT_FIELDS if key in rules.player_fields},
            }
            for p in team.players.all()
            if p.left_at is None
        ],
    }


def injury_apply(player: Player, injury: str, detail: str) -> None:
    """R/H: miss_next_match → misses exactly the next match; stat_loss → −1 to the stat; dead → dead
    (removed to the memorial at Hire and Fire); badly_hurt and niggling leave no status change.
    (Changes `player` in memory, written with the other players; undone by `effects.result_undo`, from the
    journal.)"""
    if injury == "miss_next_match":
        player.status = Player.Status.MISS_NEXT_MATCH
    elif injury == "dead":
        player.status = Player.Status.DEAD
        player.role = ""
    elif injury == "stat_loss" and detail:
        attributes = dict(player.attributes)
        attributes[detail] = max(1, attributes.get(detail, 1) - 1)
        player.attributes = attributes
