"""ElfBall post-match step 3 (../shared/rules/elfball.md "Injuries", "Magic Potion table"): Grit Challenge outcomes and
potions applied to the roster, the lasting injuries' attributes, the potions drunk."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.engine import MatchRowNote, PlayerUpdate, Staff, StepContext
from campaigns.errors import RuleViolation

from .. import postmatch as pm
from .common import in_order, player_key, plural, title

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
        player_id = player_key(key)
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
    order = {p.id: i for i, p in enumerate(in_order(ctx.team.players))}
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
                Staff("magic_potion", -used, f"{plural(drunk, 'Magic Potion')} drunk, match #{ctx.match.id}"), line
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
            words = words.format(ability=title(drink["ability"]) if drink.get("ability") else "a Basic ability")
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
                    f"{name}: {what}: {title(attribute)} is already {before[attribute]}, "
                    f"and never falls below {hr['lasting_injury']['floor']} (I)."
                )
                continue
            after = before[attribute] + delta[attribute]
            ctx.apply(
                PlayerUpdate(player_id, f"{what}: {attribute} {delta[attribute]}", attribute_deltas=delta),
                f"{name}: {what}: {title(attribute)} {before[attribute]} → {after}{note}.",
            )
            lowered.append({"attribute": attribute, "cause": "grit" if source == "injury" else "potion"})
        if lowered:
            # The row remembers which attribute each lasting injury lowered (the coach may have chosen it here).
            ctx.apply(MatchRowNote(player_id, {"lasting": lowered}))
