"""ElfBall post-match steps 1 and 2 (../shared/rules/elfball.md "Goal Points and abilities"): the Goal Points a match
gave, and the abilities they entitle a player to learn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.engine import PlayerUpdate, StepContext
from campaigns.errors import RuleViolation

from .. import postmatch as pm
from .common import in_order, player_key, plural, team_points, title

# --- 1. Goal Points -------------------------------------------------------------------------------------------


def goal_points(ctx: StepContext) -> None:
    """R: each goal gives every player of the scoring team still on the field one Goal Point; a concession gives
    one to each opposing player not in the Infirmary; every full 10 Goal Points entitle a player to one ability.
    The match's points are already in the totals: this step tells them. No effects."""
    every = ctx.hr["ability_rules"]["entitlement_every_goal_points"]
    tracked = pm.abilities_tracked(ctx.hr)
    said = False
    for player in in_order(ctx.team.players):
        row = ctx.match.player_rows.get(player.id) or {}
        gained = row.get("goal_points") or 0
        if not gained:
            continue
        detail = row.get("detail") or {}
        parts = []
        if detail.get("goals"):
            parts.append(f"{plural(detail['goals'], 'goal')} on the field")
        if detail.get("concession_gp"):
            parts.append(f"{detail['concession_gp']} for the opponent's concession")
        why = f" ({', '.join(parts)})" if parts else ""
        before = max(0, player.goal_points - gained)
        ctx.say(f"{player.name}: {plural(gained, 'Goal Point')} this match{why}: {before} → {player.goal_points}.")
        said = True
        if tracked:
            for mark in range((before // every + 1) * every, player.goal_points + 1, every):
                ctx.say(f"{player.name} reaches {mark} Goal Points: one ability to learn.")
    if not said:
        ctx.say("No Goal Points this match.")
    if not tracked:
        ctx.say("Basic rules: Goal Points are kept, but no abilities are learned (H basic_mode).")


# --- 2. Abilities -------------------------------------------------------------------------------------------


def _abilities_check(ctx: StepContext, entitled: Mapping[int, Mapping], value: int):
    hr = ctx.hr
    players = {p.id: p for p in ctx.team.players}
    cost, budget = hr["ability_cost"], hr["points_budget"]

    def check(answer: Any) -> dict[int, list[str]]:
        if not isinstance(answer, Mapping):
            raise RuleViolation(
                "choices.abilities must map player ids to lists of abilities ({} to learn later).",
                field="choices.abilities",
            )
        chosen: dict[int, list[str]] = {}
        for key, picks in answer.items():
            path = f"choices.abilities.{key}"
            player_id = player_key(key)
            if player_id not in entitled:
                raise RuleViolation(f"{path}: not a player with an ability to learn now.", field=path)
            if player_id in chosen:
                raise RuleViolation(f"{path}: the player is answered twice.", field=path)
            if not isinstance(picks, list) or not all(isinstance(p, str) for p in picks):
                raise RuleViolation(f"{path} must be a list of abilities.", field=path)
            player = players[player_id]
            n = entitled[player_id]["entitlements"]
            if len(picks) > n:
                raise RuleViolation(
                    f"{path}: {player.name} is entitled to {plural(n, 'ability', 'abilities')}, not {len(picks)}.",
                    field=path,
                )
            held = list(player.abilities)
            for pick in picks:
                try:
                    pm.check_learn(tuple(held), player.goal_points, pick, hr)
                except RuleViolation as refused:
                    raise RuleViolation(f"{path}: {player.name}: {refused.message}", field=path) from None
                held.append(pick)
            chosen[player_id] = list(picks)
        total = sum(len(p) for p in chosen.values())
        if value + cost * total > budget:
            raise RuleViolation(
                f"Learning {plural(total, 'ability', 'abilities')} adds {cost * total} points: the team is worth "
                f"{value} of its {budget}-point budget. Cut something or someone first (never below "
                f"{hr['min_players']} players): answer {{}} now and learn later.",
                field="choices.abilities",
            )
        return {pid: chosen[pid] for pid in entitled if chosen.get(pid)}

    return check


def abilities(ctx: StepContext) -> None:
    """R: every full 10 Goal Points entitle a player to one ability, learned when the coach likes (optional, at
    any later time); an Advanced ability needs its Basic; each ability once; each adds 5 points to the team,
    which may never exceed 150 (cut something or someone first)."""
    hr = ctx.hr
    if not pm.abilities_tracked(hr):
        ctx.say("Basic rules: no abilities are learned (H basic_mode).")
        return
    entitled: dict[int, dict] = {}
    for player in in_order(ctx.team.players):
        if player.status not in pm.ON_ROSTER:
            continue
        n = pm.entitlements(player.goal_points, len(player.abilities), hr)
        if n < 1:
            continue
        can = pm.learnable(player.abilities, hr)
        if not can:
            ctx.say(f"{player.name} has learned every ability there is.")
            continue
        entitled[player.id] = {"name": player.name, "entitlements": n, "learnable": can}
    if not entitled:
        ctx.say("No player has an unused ability entitlement.")
        return
    value = team_points(ctx.team, hr)
    cost, budget = hr["ability_cost"], hr["points_budget"]
    room = max(0, (budget - value) // cost)
    who = "; ".join(
        f"{o['name']} ({plural(o['entitlements'], 'ability', 'abilities')}: {', '.join(o['learnable'])})"
        for o in entitled.values()
    )
    chosen = ctx.decide(
        "abilities",
        {str(pid): option for pid, option in entitled.items()},
        f"Abilities to learn — {who}. Each adds {cost} points; the team is worth {value} of {budget} "
        f"(room for {plural(room, 'ability', 'abilities')}). Answer {{player id: [abilities]}}; {{}} to learn "
        "later (learning is optional and may wait).",
        check=_abilities_check(ctx, entitled, value),
    )
    if not chosen:
        ctx.say("No ability learned now: entitlements are kept and may be used at any later time.")
        return
    total = value
    for player_id, picks in chosen.items():
        added = cost * len(picks)
        total += added
        names = ", ".join(title(p) for p in picks)
        ctx.apply(
            PlayerUpdate(player_id, f"learned {', '.join(picks)}", abilities_add=tuple(picks), value_delta=added),
            f"{entitled[player_id]['name']} learns {names} (+{added} points).",
        )
    ctx.say(f"Team value {value} → {total} of {budget} points.")
