"""The ElfBall post-match sequence (api-v1 "Post-match sequence": goal_points, abilities, injuries, team_stats).

Each step reads the team and the match as plain values, asks the coach when the rules leave him a choice, calls
the pure rules in `postmatch.py` and returns effects and log lines through the context. When the steps run, the
match's Goal Points are already in each player's total (the engine adds the `goal_points` counter when the
result becomes final); injuries and potions are not: the `injuries` step applies them.
R = rulebook, I = the service's interpretation, H = house default.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaigns.engine import MatchRowNote, PlayerUpdate, PlayerView, Staff, Step, StepContext, TeamView
from campaigns.errors import RuleViolation

from . import postmatch as pm
from . import rules


def _in_order(players: Iterable[PlayerView]) -> list[PlayerView]:
    return sorted(players, key=lambda p: (p.number is None, p.number or 0, p.id))


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _title(key: str) -> str:
    return key.replace("_", " ").title()


def team_points(team: TeamView, hr: Mapping) -> int:
    """R: team value = each player's value on the roster (15 a rookie + 5 per ability) + the support bought."""
    return rules.team_points(
        player_values=(p.value for p in team.players if p.status in pm.ON_ROSTER),
        support=team.staff,
        support_points={item: spec["points"] for item, spec in hr["support"].items()},
    )


def _player_key(key: Any) -> int | None:
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key
    if isinstance(key, str) and key.strip().lstrip("-").isdigit():
        return int(key)
    return None


# --- 1. Goal Points -------------------------------------------------------------------------------------------


def goal_points(ctx: StepContext) -> None:
    """R: each goal gives every player of the scoring team still on the field one Goal Point; a concession gives
    one to each opposing player not in the Infirmary; every full 10 Goal Points entitle a player to one ability.
    The match's points are already in the totals: this step tells them. No effects."""
    every = ctx.hr["ability_rules"]["entitlement_every_goal_points"]
    tracked = pm.abilities_tracked(ctx.hr)
    said = False
    for player in _in_order(ctx.team.players):
        row = ctx.match.player_rows.get(player.id) or {}
        gained = row.get("goal_points") or 0
        if not gained:
            continue
        detail = row.get("detail") or {}
        parts = []
        if detail.get("goals"):
            parts.append(f"{_plural(detail['goals'], 'goal')} on the field")
        if detail.get("concession_gp"):
            parts.append(f"{detail['concession_gp']} for the opponent's concession")
        why = f" ({', '.join(parts)})" if parts else ""
        before = max(0, player.goal_points - gained)
        ctx.say(f"{player.name}: {_plural(gained, 'Goal Point')} this match{why}: {before} → {player.goal_points}.")
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
            player_id = _player_key(key)
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
                    f"{path}: {player.name} is entitled to {_plural(n, 'ability', 'abilities')}, not {len(picks)}.",
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
                f"Learning {_plural(total, 'ability', 'abilities')} adds {cost * total} points: the team is worth "
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
    for player in _in_order(ctx.team.players):
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
        f"{o['name']} ({_plural(o['entitlements'], 'ability', 'abilities')}: {', '.join(o['learnable'])})"
        for o in entitled.values()
    )
    chosen = ctx.decide(
        "abilities",
        {str(pid): option for pid, option in entitled.items()},
        f"Abilities to learn — {who}. Each adds {cost} points; the team is worth {value} of {budget} "
        f"(room for {_plural(room, 'ability', 'abilities')}). Answer {{player id: [abilities]}}; {{}} to learn "
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
        names = ", ".join(_title(p) for p in picks)
        ctx.apply(
            PlayerUpdate(player_id, f"learned {', '.join(picks)}", abilities_add=tuple(picks), value_delta=added),
            f"{entitled[player_id]['name']} learns {names} (+{added} points).",
        )
    ctx.say(f"Team value {value} → {total} of {budget} points.")


# --- 3. Injuries -----------------------------------------------------------------------------------------------

_INJURY_WORDS = {
    "career_ending": "career-ending injury",
    "lasting_injury": "lasting injury",
    "out_for_game": "out for the rest of the game",
    "unconscious": "knocked unconscious",
    "none": "no injury (3+ successes)",
}

_POTION_WORDS = {
    "dies": "an extremely bad reaction: he dies",
    "seizure": "a violent seizure: misses the rest of the game and suffers a lasting injury",
    "light_coma": "a light coma: misses the rest of the game, no injury cured",
    "woozy": "woozy: no injury cured",
    "cured_misses_game": "cured of any injury, but misses the rest of the game",
    "cured_misses_test": "cured of any injury, misses this Test",
    "basic_ability_this_game": "cured of any injury, and {ability} for this game only",
    "no_effect": "no effect",
}


def _drinks(row: Mapping) -> list[dict]:
    detail = row.get("detail") or {}
    drinks = detail.get("potions")
    if isinstance(drinks, list) and drinks:
        return [dict(d) for d in drinks]
    if detail.get("potion") is not None:
        return [
            {
                "roll": detail["potion"],
                "ability": detail.get("potion_ability"),
                "attribute": detail.get("potion_attribute"),
            }
        ]
    return []


def _lasting_check(answer: Any) -> dict[int, list[str]]:
    if not isinstance(answer, Mapping):
        raise RuleViolation(
            "choices.lasting_injury must map player ids to the attribute lowered.", field="choices.lasting_injury"
        )
    out: dict[int, list[str]] = {}
    for key, value in answer.items():
        path = f"choices.lasting_injury.{key}"
        player_id = _player_key(key)
        if player_id is None or player_id in out:
            raise RuleViolation(f"{path}: not a player id (or given twice).", field=path)
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise RuleViolation(f"{path} must be an attribute (or a list, one per lasting injury).", field=path)
        out[player_id] = list(values)
    return out


def _resolve_lasting(ctx: StepContext, lasting: Mapping[int, list[tuple[str, str | None]]]) -> dict[int, list]:
    """The attribute each lasting injury lowers: the result's when still a highest one, the only highest one, or
    the coach's choice among the tied highest (R) — asked as `lasting_injury` {player id: [tied attributes]}."""
    hr = ctx.hr
    players = {p.id: p for p in ctx.team.players}
    answers = _lasting_check(ctx.choices["lasting_injury"]) if "lasting_injury" in ctx.choices else {}
    resolved: dict[int, list] = {}
    pending: dict[str, list[str]] = {}
    for player_id, injuries in lasting.items():
        player = players[player_id]
        attributes = dict(player.attributes)
        picks = answers.get(player_id, [])
        used = 0
        out = []
        for source, given in injuries:
            targets = pm.lasting_injury_targets(attributes, hr)
            note = ""
            if not targets:
                out.append((source, None, attributes, ""))
                continue
            if given is not None and given not in targets:
                note = f" (the result's {given} is no longer a highest attribute)"
                given = None
            if given is None and len(targets) == 1:
                given = targets[0]
            elif given is None and used < len(picks):
                given = picks[used]
                used += 1
                if given not in targets:
                    path = f"choices.lasting_injury.{player_id}"
                    raise RuleViolation(
                        f"{path}: {player.name}'s highest attributes are {', '.join(targets)}, not {given!r}.",
                        field=path,
                    )
                note = " (the coach's choice among the tied highest)"
            elif given is None:
                pending[str(player_id)] = targets
                break
            out.append((source, given, attributes, note))
            attributes = pm.lower(attributes, given, hr)
        if str(player_id) not in pending and used < len(picks):
            path = f"choices.lasting_injury.{player_id}"
            raise RuleViolation(f"{path}: {player.name} has no more lasting injuries to choose for.", field=path)
        resolved[player_id] = out
    extra = [pid for pid in answers if pid not in lasting]
    if extra:
        path = f"choices.lasting_injury.{extra[0]}"
        raise RuleViolation(f"{path}: not a player with a lasting injury to choose for.", field=path)
    if pending:
        who = "; ".join(f"{players[int(pid)].name}: {' or '.join(t)}" for pid, t in pending.items())
        message = (
            f"A lasting injury lowers the highest attribute; choose among the tied ones — {who}. Answer "
            "{player id: attribute} (a list, one per lasting injury, for a player with two)."
        )
        if "lasting_injury" in ctx.choices:
            ctx.ask("lasting_injury", pending, message)
        ctx.decide("lasting_injury", pending, message)
    return resolved


def injuries(ctx: StepContext) -> None:
    """R: the match's Grit Challenge outcomes and Magic Potions take effect. A potion is consumed; 1 the player
    dies (removed, memorial); a career-ending injury not cured removes him (retired); a lasting injury not cured
    and a seizure (2) each lower his highest attribute by one (coach's choice among ties; I: never below 1,
    Base excluded); 5, 6, 7 cure any injury of the game; I/H: 8–12 have no effect. Out for the game, unconscious
    and no injury leave no lasting effect. A dead or career-ended player suffers no lasting injury."""
    hr = ctx.hr
    players = {p.id: p for p in ctx.team.players}
    rows = []
    for player_id, row in ctx.match.player_rows.items():
        drinks = _drinks(row)
        if row.get("injury") or drinks:
            rows.append((player_id, row, drinks))
    order = {p.id: i for i, p in enumerate(_in_order(ctx.team.players))}
    rows.sort(key=lambda r: (order.get(r[0], len(order)), r[0]))
    if not rows:
        ctx.say("No injuries and no potions this match.")
        return

    lasting = {
        player_id: found
        for player_id, row, drinks in rows
        if player_id in players
        and (found := pm.lasting_injuries(row.get("injury"), row.get("injury_detail"), drinks, hr))
    }
    resolved = _resolve_lasting(ctx, lasting)

    drunk = sum(len(drinks) for _, _, drinks in rows)
    if drunk:
        stock = ctx.team.staff.get("magic_potion", 0)
        used = min(drunk, stock)
        line = f"Magic Potions drunk: {drunk} ({stock} → {stock - used} left)."
        if used < drunk:
            line += f" Only {stock} left in stock to strike off."
        if used:
            ctx.apply(
                Staff("magic_potion", -used, f"{_plural(drunk, 'Magic Potion')} drunk, match #{ctx.match.id}"), line
            )
        else:
            ctx.say(line)

    for player_id, row, drinks in rows:
        player = players.get(player_id)
        if player is None:
            ctx.say(f"Player #{player_id} is no longer on the team: nothing to apply.")
            continue
        name = player.name
        injury = row.get("injury") or None
        rolls = [d["roll"] for d in drinks]
        parts = []
        if injury:
            parts.append(f"Grit Challenge: {_INJURY_WORDS.get(injury, injury.replace('_', ' '))}")
        for drink in drinks:
            effect = pm.potion_effect(drink["roll"], hr)
            words = _POTION_WORDS.get(effect["result"], effect["result"].replace("_", " "))
            words = words.format(ability=_title(drink["ability"]) if drink.get("ability") else "a Basic ability")
            if effect["result"] == "no_effect":
                words += f" ({drink['roll']}: 8–12 are not in the rulebook; house default)"
            parts.append(f"Magic Potion {drink['roll']}: {words}")
        ctx.say(f"{name}: {'; '.join(parts)}.")
        cured = pm.potion_cures(rolls, hr)
        if any(pm.potion_effect(r, hr)["removed"] for r in rolls):
            ctx.apply(
                PlayerUpdate(player_id, "died of the potion", status="dead", leaves=True),
                f"{name} died of the potion: removed from the team, remembered in the memorial.",
            )
            continue
        if injury and hr["injury_effects"].get(injury, {}).get("removed") and not cured:
            ctx.apply(
                PlayerUpdate(player_id, "career-ending injury", status="retired", leaves=True),
                f"{name} suffers a career-ending injury: permanently removed from the team.",
            )
            continue
        if injury and cured:
            ctx.say(f"{name} is cured by the potion: no lasting effect of the {_INJURY_WORDS.get(injury, injury)}.")
        elif injury and injury != "lasting_injury":
            ctx.say(f"{name}: no lasting effect.")
        lowered = []
        for source, attribute, before, note in resolved.get(player_id, []):
            what = "lasting injury" if source == "injury" else "seizure's lasting injury"
            if attribute is None:
                ctx.say(f"{name}: {what}, but no attribute to lower.")
                continue
            delta = pm.lasting_injury_delta(before, attribute, hr)
            if not delta:
                ctx.say(
                    f"{name}: {what}: {_title(attribute)} is already {before[attribute]}, "
                    f"and never falls below {hr['lasting_injury']['floor']} (I)."
                )
                continue
            after = before[attribute] + delta[attribute]
            ctx.apply(
                PlayerUpdate(player_id, f"{what}: {attribute} {delta[attribute]}", attribute_deltas=delta),
                f"{name}: {what}: {_title(attribute)} {before[attribute]} → {after}{note}.",
            )
            lowered.append({"attribute": attribute, "cause": "grit" if source == "injury" else "potion"})
        if lowered:
            # The row remembers which attribute each lasting injury lowered (the coach may have chosen it here).
            ctx.apply(MatchRowNote(player_id, {"lasting": lowered}))


# --- 4. Team stats ---------------------------------------------------------------------------------------------


def team_stats(ctx: StepContext) -> None:
    """H: league points win 3, tie 1, loss 0. R: the team's value may never exceed 150; a team needs at least 6
    players (Basic rules: exactly 10). Tells the team's points, potions and roster."""
    hr, match = ctx.hr, ctx.match
    points = pm.league_points(outcome=match.outcome, kind=match.kind, hr=hr)
    label = {"win": "Won", "draw": "Tied", "loss": "Lost"}[match.outcome]
    them = max((s.score for s in match.them), default=0)
    how = ""
    if match.us.conceded:
        how = ", conceded"
    elif any(s.conceded for s in match.them):
        how = ", the opponent conceded"
    elif any(t.get("no_face_off") for t in match.result.get("teams", []) if isinstance(t, Mapping)):
        how = ", no face-off player"
    ctx.say(f"{label} {match.us.score}–{them} ({match.kind}{how}): {_plural(points, 'league point')}.")
    value = team_points(ctx.team, hr)
    budget = hr["points_budget"]
    if value > budget:
        ctx.say(f"Team value: {value} points, over the {budget}-point budget: cut something or someone.")
    else:
        ctx.say(f"Team value: {value} of {budget} points ({budget - value} to spare).")
    potions = ctx.team.staff.get("magic_potion", 0)
    ctx.say(f"Magic Potions left: {potions} of {hr['support']['magic_potion']['max']}.")
    on_roster = sum(1 for p in ctx.team.players if p.status in pm.ON_ROSTER)
    ctx.say(f"Players on the roster: {on_roster}.")
    if on_roster < hr["min_players"]:
        ctx.say(
            f"Warning: only {_plural(on_roster, 'player')}, fewer than {hr['min_players']}: hire before the next match."
        )
    elif hr["basic_mode"] and on_roster != hr["basic_roster_size"]:
        ctx.say(
            f"Warning: Basic-rules teams are exactly {hr['basic_roster_size']} players: hire before the next match."
        )


STEPS = (
    Step("goal_points", "Goal Points", goal_points),
    Step("abilities", "Abilities", abilities),
    Step("injuries", "Injuries and potions", injuries),
    Step("team_stats", "Update team stats", team_stats),
)
