"""The Bone Cruncher post-match sequence (rules/bonecruncher.md "Wounds", "Veterans"), as steps: `wounds`,
`veterans`, `team_stats`.

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).

Each step reads the team and the match (`ctx.match.player_rows`: this team's squad players, each with the
PlayerMatch row `{"wounds", "detail": {"areas", "critical", "plain_wounds", "squad"}}`), asks the coach,
calls the pure rules of `wounds.py` and returns effects and log lines through the context. Nothing of the
result has been applied to the players when the steps run; nothing here touches the database or rolls dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from campaigns.engine import PlayerUpdate, PlayerView, Step, StepContext
from campaigns.errors import RuleViolation

from . import results, words, wounds
from .wounds import ALIVE, WoundState


def _ordered(players) -> list[PlayerView]:
    return sorted(players, key=lambda p: (p.number is None, p.number or 0, p.id))


def _template(player: PlayerView, hr: Mapping) -> dict:
    return dict(player.health_template) or wounds.race_template(player.race, hr)


def _alive(player: PlayerView, killed: set[int]) -> bool:
    return player.status in ALIVE and player.id not in killed


# --- 1. Wounds ---------------------------------------------------------------------------------------------------


def _heal_check(ctx: StepContext, candidates: dict[int, tuple[PlayerView, WoundState]], trainers: int):
    """Validate the coach's healing plan and carry it out on the players' records.

    H: each Trainer treats one player: up to 3 wound boxes (never armour), or one incapacitation other than a
    severed arm. I: two Trainers may treat the same player (one after the other)."""
    hr = ctx.hr
    advanced = bool(hr.get("advanced_wounds", False))

    def check(answer: Any) -> dict[int, WoundState]:
        if not isinstance(answer, list) or not all(isinstance(e, Mapping) for e in answer):
            raise RuleViolation(
                "choices.heal must be a list of {player, boxes} or {player, remove, side} ([] for no healing).",
                field="choices.heal",
            )
        if len(answer) > trainers:
            raise RuleViolation(
                f"choices.heal: the team has {trainers} Trainer(s); each treats one player.", field="choices.heal"
            )
        healed: dict[int, WoundState] = {}
        for i, entry in enumerate(answer):
            path = f"choices.heal[{i}]"
            allowed = {"player", "remove", "side"} if "remove" in entry else {"player", "boxes", "areas"}
            unknown = sorted(set(entry) - allowed)
            if unknown:
                raise RuleViolation(f"{path}: unexpected {', '.join(unknown)}.", field=path)
            raw = entry.get("player")
            pid = int(raw) if isinstance(raw, str) and raw.isdigit() else raw
            if isinstance(pid, bool) or pid not in candidates:
                raise RuleViolation(
                    f"{path}.player: {raw!r} is not a player a Trainer can treat.", field=f"{path}.player"
                )
            player, state = candidates[pid]
            state = healed.get(pid, state)
            try:
                if "remove" in entry:
                    side = entry.get("side")
                    if side is not None and side not in wounds.SIDES:
                        raise RuleViolation("side must be left or right.")
                    new = wounds.heal(
                        state, remove={"key": entry["remove"], "side": side}, hr=hr, template=_template(player, hr)
                    )
                else:
                    areas = entry.get("areas")
                    if areas is not None and (not advanced or not isinstance(areas, Mapping)):
                        raise RuleViolation("areas name boxes per body area, with advanced wounds only.")
                    boxes = entry.get("boxes", 0)
                    new = wounds.heal(state, boxes=boxes, areas=areas, hr=hr, template=_template(player, hr))
            except RuleViolation as exc:
                raise RuleViolation(f"{path}: {exc.message}", field=path) from None
            healed[pid] = new
        return healed

    return check


def _heal_options(candidates: dict[int, tuple[PlayerView, WoundState]], hr: Mapping) -> dict:
    advanced = bool(hr.get("advanced_wounds", False))
    out = {}
    for pid, (player, state) in candidates.items():
        healable = wounds.healable_conditions(state.conditions, hr)
        option = {
            "name": player.name,
            "wounds": state.wounds,
            "conditions": [{**c, "healable": c in healable} for c in (dict(c) for c in state.conditions)],
        }
        if advanced:
            option["areas"] = dict(state.wound_areas)
        out[str(pid)] = option
    return out


def wounds_step(ctx: StepContext) -> None:
    """R: each squad player's hits mark armour first (never healed), then wound boxes; the limit kills (listed in
    the memorial); critical wounds leave their lasting conditions (wounds.apply_hits). Then H: each Trainer heals
    up to 3 wound boxes on one living player, or removes one incapacitation other than a severed arm
    (decision `heal`). One PlayerUpdate per player carries his final record."""
    hr = ctx.hr
    players = {p.id: p for p in ctx.team.players}
    states: dict[int, WoundState] = {}
    reasons: dict[int, list[str]] = {}
    killed: list[int] = []
    for pid, row in sorted(ctx.match.player_rows.items()):
        player = players.get(pid)
        if player is None or player.status not in ALIVE:
            continue
        detail = row.get("detail") or {}
        plain, areas, critical = detail.get("plain_wounds", 0), detail.get("areas") or {}, detail.get("critical") or []
        if not plain and not any(areas.values()) and not critical:
            continue
        result = wounds.apply_hits(
            WoundState.of(player),
            wounds=plain,
            areas=areas,
            critical=critical,
            template=_template(player, hr),
            role=player.role,
            elite=player.elite,
            hr=hr,
        )
        for line in result.log:
            ctx.say(f"{player.name}: {line}")
        if result.state == WoundState.of(player):
            continue
        states[pid] = result.state
        reasons[pid] = [f"wounds of match #{ctx.match.id}"]
        if result.died:
            killed.append(pid)
    if not states:
        ctx.say("No wounds to record.")

    trainers = int(ctx.team.staff.get("trainer", 0))
    candidates: dict[int, tuple[PlayerView, WoundState]] = {}
    for player in _ordered(ctx.team.players):
        if not _alive(player, set(killed)):
            continue
        state = states.get(player.id, WoundState.of(player))
        if state.wounds > 0 or wounds.healable_conditions(state.conditions, hr):
            candidates[player.id] = (player, state)
    if candidates and trainers > 0:
        rules = hr["trainer_healing"]
        healed = ctx.decide(
            "heal",
            {"trainers": trainers, "players": _heal_options(candidates, hr)},
            f"Each of your {trainers} Trainer(s) may heal up to {rules['boxes_per_trainer']} wound boxes (not "
            "armour) on one player, or remove one incapacitation other than a severed arm. Answer a list of "
            '{"player", "boxes"} or {"player", "remove", "side"}; [] for no healing.',
            check=_heal_check(ctx, candidates, trainers),
        )
        for pid, new in healed.items():
            player, before = candidates[pid]
            gone = [c for c in before.conditions if c not in new.conditions]
            what = [f"{before.wounds - new.wounds} wound box(es)"] if new.wounds != before.wounds else []
            what += words.conditions(gone, hr=ctx.hr)
            ctx.say(f"{player.name}: a Trainer heals {' and '.join(what) or 'nothing'}; {new.wounds} box(es) marked.")
            states[pid] = new
            reasons.setdefault(pid, []).append("healed by a Trainer")
        if not healed:
            ctx.say("No healing this time.")
    elif candidates:
        ctx.say("No Trainer: wounds and incapacitations stay until healed.")

    for pid in sorted(states):
        player = players[pid]
        fields = states[pid].fields()
        if pid in killed:
            if player.role:
                fields["role"] = ""
            ctx.apply(
                PlayerUpdate(pid, "killed: listed in the memorial", status="dead", leaves=True, fields=fields),
                f"{player.name} is dead: listed in the memorial.",
            )
        else:
            ctx.apply(PlayerUpdate(pid, "; ".join(reasons[pid]), fields=fields))
    ctx.carry["killed"] = [{"player": pid, "name": players[pid].name, "role": players[pid].role} for pid in killed]


# --- 2. Veterans -------------------------------------------------------------------------------------------------


def _promote_check(eligible: dict[int, PlayerView], slots: int) -> Callable[[Any], list[int]]:
    def check(answer: Any) -> list[int]:
        if not isinstance(answer, list):
            raise RuleViolation("choices.promote must be a list of player ids ([] for none).", field="choices.promote")
        chosen: list[int] = []
        for i, raw in enumerate(answer):
            pid = int(raw) if isinstance(raw, str) and raw.isdigit() else raw
            where = f"choices.promote[{i}]"
            if isinstance(pid, bool) or pid not in eligible:
                raise RuleViolation(f"{where}: {raw!r} is not a player eligible for Elite.", field=where)
            if pid in chosen:
                raise RuleViolation(f"{where}: player {pid} is listed twice.", field=where)
            chosen.append(pid)
        besides_captain = [pid for pid in chosen if eligible[pid].role != "captain"]
        if len(besides_captain) > slots:
            raise RuleViolation(
                f"choices.promote: only {slots} Elite slot(s) besides the Captain are open.", field="choices.promote"
            )
        return chosen

    return check


def _elite_reason(hr: Mapping) -> str:
    spec = hr["elite"]
    if hr.get("advanced_wounds", False):
        armour = f"+{hr['advanced_armour_bonus']['elite']} protection"
    else:
        armour = f"+{hr['armour_boxes']['elite']} armour box"
    return f"promoted to Elite: +{spec['shooting_bonus']} shooting, +{spec['melee_bonus']} melee, {armour}"


def veterans(ctx: StepContext) -> None:
    """R: a veteran who has survived numerous games reaches Elite status (H: 5 matches survived; the coach
    promotes — decision `promote`). Every squad player alive after the match has survived one more. R: no more
    than one Elite player besides the Captain on the field; I: the squad's Elite players besides the Captain are
    capped (wounds.elite_slots). A qualified player not promoted stays eligible after later matches."""
    hr = ctx.hr
    killed = {k["player"] for k in ctx.carry.get("killed", [])}
    players = {p.id: p for p in ctx.team.players}
    survived: dict[int, int] = {}
    for pid in sorted(ctx.match.player_rows):
        player = players.get(pid)
        if player is None or not _alive(player, killed):
            continue
        survived[pid] = player.matches_survived + 1
        ctx.apply(
            PlayerUpdate(pid, f"survived match #{ctx.match.id}", fields={"matches_survived": survived[pid]}),
            f"{player.name} survived: {survived[pid]} match(es).",
        )
    living = [p for p in _ordered(ctx.team.players) if _alive(p, killed)]
    qualified = [
        p
        for p in living
        if wounds.qualifies_for_elite(matches_survived=survived.get(p.id, p.matches_survived), elite=p.elite, hr=hr)
    ]
    if not qualified:
        return
    slots = wounds.elite_slots(living, hr)
    eligible = {p.id: p for p in qualified if slots > 0 or p.role == "captain"}
    waiting = [p.name for p in qualified if p.id not in eligible]
    if waiting:
        cap = hr["elite"]["max_on_field_besides_captain"]
        ctx.say(
            f"{', '.join(waiting)} qualif{'ies' if len(waiting) == 1 else 'y'} for Elite, but the team already has "
            f"{cap} Elite player(s) besides the Captain: no Elite slot."
        )
    if not eligible:
        return
    chosen = ctx.decide(
        "promote",
        {
            "eligible": [
                {"player": p.id, "name": p.name, "matches_survived": survived.get(p.id, p.matches_survived)}
                for p in eligible.values()
            ],
            "slots": slots,
        },
        f"Promote veterans to Elite (+1 shooting, +1 melee, more armour): {slots} slot(s) besides the Captain. "
        "Answer a list of player ids; [] to wait.",
        check=_promote_check(eligible, slots),
    )
    reason = _elite_reason(hr)
    for pid in chosen:
        ctx.apply(PlayerUpdate(pid, reason, fields={"elite": True}), f"{eligible[pid].name} {reason}.")
    if not chosen:
        ctx.say("No promotion now: qualified players stay eligible.")


# --- 3. Team stats -----------------------------------------------------------------------------------------------


def team_stats(ctx: StepContext) -> None:
    """The match in numbers: the result and its league points (H), the squad, the dead of this match, each
    wounded player's boxes and conditions, the Elite count; a warning when the team has no Great Captain or no
    Goalie (R: one of each; a dead Captain's role is cleared)."""
    hr, match = ctx.hr, ctx.match
    killed = {k["player"]: k for k in ctx.carry.get("killed", [])}
    players = {p.id: p for p in ctx.team.players}
    event = match.event or "scorchball"
    name = hr["events"].get(event, {}).get("name", event.title())
    points = results.league_points(
        outcome=match.outcome, kind=match.kind, hr=hr, event=match.event, placing=match.us.placing
    )
    if event == "terminix":
        place = f"placed {match.us.placing} of {1 + len(match.them)}" if match.us.placing else match.outcome
        ctx.say(f"{name} ({match.kind}): {place}, {match.us.eliminations} elimination(s): {points} league point(s).")
    else:
        label = {"win": "Won", "draw": "Drawn", "loss": "Lost"}.get(match.outcome, match.outcome)
        them = max((s.score for s in match.them), default=0)
        ctx.say(f"{name} ({match.kind}): {label} {match.us.score}–{them}: {points} league point(s).")
    ctx.say(f"Squad: {len(match.player_rows)} player(s).")
    dead = [
        killed[pid]["name"] if pid in killed else players[pid].name
        for pid in sorted(match.player_rows)
        if pid in killed or (pid in players and players[pid].status == "dead")
    ]
    if dead:
        ctx.say(f"Killed this match: {', '.join(dead)} (listed in the memorial).")
    living = [p for p in _ordered(ctx.team.players) if _alive(p, set(killed))]
    for p in living:
        if not (p.wounds or p.armour_used or p.conditions):
            continue
        template = _template(p, hr)
        advanced = bool(hr.get("advanced_wounds", False))
        limit = wounds.wound_limit(template=template, hr=hr) if template or not advanced else "?"
        capacity = wounds.armour_capacity(role=p.role, elite=p.elite, template=template, hr=hr)
        lasting = words.conditions(p.conditions, hr=hr)
        ctx.say(
            f"{p.name}: {p.wounds}/{limit} wound boxes, {p.armour_used}/{capacity} armour used"
            + (f"; {', '.join(lasting)}" if lasting else "")
            + "."
        )
    elite = [p.name for p in living if p.elite]
    ctx.say(f"Elite players: {len(elite)}" + (f" ({', '.join(elite)})." if elite else "."))
    roles = {p.role for p in living}
    if "captain" not in roles:
        ctx.say("Warning: the team has no Great Captain — name a new Great Captain before the next match.")
    if "goalie" not in roles:
        ctx.say("Warning: the team has no Goalie — name a Goalie before the next match.")


STEPS = (
    Step("wounds", "Wounds and healing", wounds_step),
    Step("veterans", "Veterans and Elite", veterans),
    Step("team_stats", "Update team stats", team_stats),
)
