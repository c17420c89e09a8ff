"""Blitz Bowl post-match steps 1 and 2 (../shared/rules/blitzbowl.md, "Post-match sequence" 1. Improvements, 2.
Update team stats; "Conceding"): improvement rolls and choices, league points, and who leaves a team that
conceded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.engine import (
    MatchView,
    PlayerUpdate,
    StepContext,
    TeamView,
)
from campaigns.errors import RuleViolation
from campaigns.rulesets.base import fmt_gil

from .. import postmatch
from .common import penalised

# --- 1. Improvements --------------------------------------------------------------------------------------


def _improvement_check(ctx: StepContext, levels: dict[int, list[dict]]):
    def check(answer: Any) -> dict[int, list[str]]:
        if not isinstance(answer, dict):
            raise RuleViolation(
                "choices.improvements must map player ids to lists of choices.", field="choices.improvements"
            )
        chosen: dict[int, list[str]] = {}
        for player_id, rolls in levels.items():
            picks = answer.get(str(player_id), answer.get(player_id))
            if not isinstance(picks, list) or len(picks) != len(rolls):
                raise RuleViolation(
                    f"choices.improvements.{player_id} needs {len(rolls)} choice(s).",
                    field=f"choices.improvements.{player_id}",
                )
            taken: set[str] = set()
            for pick, roll in zip(picks, rolls, strict=True):
                allowed = set(roll["attributes"]) | set(roll["skills"])
                if pick not in allowed or pick in taken:
                    raise RuleViolation(
                        f"choices.improvements.{player_id}: {pick!r} is not one of the options.",
                        field=f"choices.improvements.{player_id}",
                    )
                taken.add(pick)
            chosen[player_id] = picks
        return chosen

    return check


def improvements(ctx: StepContext) -> None:
    """H: SPP by the table; each level reached gives an improvement roll (2d6) and a choice."""
    levels: dict[int, list[dict]] = {}
    players = {p.id: p for p in ctx.team.players}
    for player_id, row in sorted(ctx.match.player_rows.items()):
        player = players.get(player_id)
        if player is None or not row.get("spp"):
            continue
        before = player.spp - row["spp"]
        ctx.say(f"{player.name} earned {row['spp']} SPP ({before} → {player.spp}).")
        gained = postmatch.levels_gained(spp_before=before, spp_after=player.spp, hr=ctx.hr)
        for _ in range(gained):
            roll = postmatch.improvement_options(dice=ctx.dice.roll("improvement"), hr=ctx.hr)
            access = player.skill_access
            categories = list(access.get("normal", ()))
            if "double_skill" in roll.options:
                categories += list(access.get("double", ()))
            skills = postmatch.skill_choices(categories=categories, known=player.skills, hr=ctx.hr)
            attributes = [o for o in roll.options if o in ("ma", "av", "ag", "st")]
            levels.setdefault(player_id, []).append(
                {
                    "dice": list(ctx.dice.records[-1].values),
                    "total": roll.total,
                    "explanation": roll.explanation,
                    "attributes": attributes,
                    "skills": skills,
                    "double": roll.is_double,
                    "normal_skills": postmatch.skill_choices(
                        categories=list(access.get("normal", ())), known=player.skills, hr=ctx.hr
                    ),
                }
            )
    if not levels:
        ctx.say("No player reached a new level.")
        return
    options = {str(pid): rolls for pid, rolls in levels.items()}
    chosen = ctx.decide(
        "improvements",
        options,
        "Choose each improvement: a skill from the list, or the attribute the roll allows.",
        check=_improvement_check(ctx, levels),
    )
    for player_id, picks in chosen.items():
        player = players[player_id]
        for pick, roll in zip(picks, levels[player_id], strict=True):
            if pick in ("ma", "av", "ag", "st"):
                value = postmatch.improvement_value(choice=pick, hr=ctx.hr)
                ctx.apply(
                    PlayerUpdate(player_id, f"+1 {pick.upper()}", attribute_deltas={pick: 1}, value_delta=value),
                    f"{player.name}: {roll['explanation']} → +1 {pick.upper()} (value +{fmt_gil(value)}).",
                )
            else:
                kind = "normal_skill" if pick in roll["normal_skills"] else "double_skill"
                value = postmatch.improvement_value(choice=kind, hr=ctx.hr)
                ctx.apply(
                    PlayerUpdate(player_id, f"learned {pick}", skills_add=(pick,), value_delta=value),
                    f"{player.name}: {roll['explanation']} → {pick} (value +{fmt_gil(value)}).",
                )


# --- 2. Update team stats -----------------------------------------------------------------------------------


def team_stats(ctx: StepContext) -> None:
    """R: league points 3/1/0 for competition matches; conceding: players with ≥ 51 SPP may leave."""
    points = postmatch.league_points(outcome=ctx.match.outcome, kind=ctx.match.kind, hr=ctx.hr)
    label = {"win": "Won", "draw": "Drawn", "loss": "Lost"}[ctx.match.outcome]
    ctx.say(
        f"{label} {ctx.match.us.score}–{max(s.score for s in ctx.match.them)} ({ctx.match.kind}): "
        f"{points} league point(s)."
    )
    if penalised(ctx.match.us):
        for player in concede_rollers(ctx.team, ctx.hr):
            d6 = ctx.dice.one("concede_leave")
            if postmatch.concede_leaves(d6=d6, spp=player.spp, hr=ctx.hr):
                ctx.apply(
                    PlayerUpdate(player.id, "left after the concession", status="retired", leaves=True),
                    f"Conceded: {player.name} ({player.spp} SPP) rolls {d6} and leaves the team.",
                )
            else:
                ctx.say(f"Conceded: {player.name} ({player.spp} SPP) rolls {d6} and stays.")


def concede_rollers(team: TeamView, hr: Mapping[str, Any]) -> list:
    """R ("Conceding"): the players of a conceding team who roll `concede_leave` — on the roster, alive, with
    51 SPP or more — in shirt-number order."""
    threshold = hr["conceding"]["leave_spp_threshold"]
    return [
        p
        for p in sorted(team.players, key=lambda p: (p.number is None, p.number, p.id))
        if p.on_roster and p.status != "dead" and p.spp >= threshold
    ]


def improvements_usable(team: TeamView, match: MatchView, hr: Mapping[str, Any]) -> tuple[str, ...]:
    """H ("1. Improvements"): the 2d6 `improvement` only when a player of this match reached a new level."""
    players = {p.id: p for p in team.players}
    for player_id, row in match.player_rows.items():
        player = players.get(player_id)
        if player is None or not row.get("spp"):
            continue
        try:
            gained = postmatch.levels_gained(spp_before=player.spp - row["spp"], spp_after=player.spp, hr=hr)
        except ValueError:  # SPP that do not add up: the step refuses them, it rolls nothing for them
            continue
        if gained:
            return ("improvement",)
    return ()


def team_stats_usable(team: TeamView, match: MatchView, hr: Mapping[str, Any]) -> tuple[str, ...]:
    """R ("Conceding"): `concede_leave` only for a team that conceded with the penalties (not early) and has a
    player with 51 SPP or more."""
    return ("concede_leave",) if penalised(match.us) and concede_rollers(team, hr) else ()
