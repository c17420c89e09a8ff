"""The pre-match workflow's Django half: run the current pre-match step with its dice (entered per team or
rolled by the server, all recorded), let the team whose shopping turn it is buy inducements, and post the
treasury-funded part of its shopping to the ledger when it closes the turn.

Like the post-match sequence: one transaction with the match row and its teams locked; a POST for any step
but the current one is a 409 and changes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from campaigns.dice import Dice, check_entered
from campaigns.errors import NotPermitted, RuleViolation
from campaigns.prematch import PrematchContext, PrematchTeam
from campaigns.rulesets.base import PositionSpec, fmt_gil
from teams.models import Team
from teams.selectors import team_queryset, team_state, team_treasury
from teams.services import ledger_post

from . import lifecycle, policy
from .aftermath import StepConflict
from .locks import lock_teams
from .models import Inducement, Match, MatchTeam, Prematch
from .rolls import record_rolls
from .sequences import shopping_team
from .turns import tell_turns, turns


def _steps(match: Match) -> tuple:
    return match.league.rules.prematch_steps


def prematch_state(match: Match) -> dict[str, Any]:
    """The sequence as the API shows it (a match whose sequence has not started shows its first step)."""
    steps = _steps(match)
    prematch = Prematch.objects.filter(match=match).first() or Prematch(match=match)
    sides = list(match.sides.order_by("order"))
    bought = list(match.inducements.select_related("position").order_by("id"))
    by_team: dict[str, list[dict]] = {str(side.team_id): [] for side in sides}
    for inducement in bought:
        by_team[str(inducement.team_id)].append(inducement_out(inducement))
    budgets = {}
    if prematch.induced:
        for side in sides:
            key = str(side.team_id)
            spent = sum(i["price"] for i in by_team[key])
            budgets[key] = match.league.rules.inducement_budget(induced=prematch.induced.get(key, 0), spent=spent)
    stars = {key: [i["star"] for i in items if i["star"]] for key, items in by_team.items()}
    shared = sorted(set.intersection(*(set(v) for v in stars.values()))) if stars else []
    current = None if prematch.complete or not steps else steps[prematch.step_index].key
    return {
        "match": match.pk,
        "step": current,
        "steps": [s.key for s in steps],
        "complete": prematch.complete or not steps,
        "weather": prematch.weather or None,
        "fans": prematch.fans,
        "gate": sum(prematch.fans.values()) if prematch.fans else None,
        "fame": prematch.fame,
        "team_values": prematch.team_values,
        "superior": prematch.superior_id,
        "underdog": prematch.underdog_id,
        "budgets": budgets,
        "inducements": by_team,
        "shared_stars": shared,
        "aggressor": prematch.aggressor_id,
        "terrain": prematch.terrain,
        "shopping": shopping_team(prematch, steps),
        "time_limit_seconds": match.league.house_rules.get("inducement_time_limit_seconds"),
        "log": prematch.log,
    }


def prematch_record(prematch: Prematch | None) -> dict | None:
    """A match's pre-match sequence as the export records it (None when it has none)."""
    if prematch is None:
        return None
    return {
        "complete": prematch.complete,
        "weather": prematch.weather or None,
        "fans": prematch.fans,
        "gate": sum(prematch.fans.values()) if prematch.fans else None,
        "fame": prematch.fame,
        "team_values": prematch.team_values,
        "induced": prematch.induced,
        "superior": prematch.superior_id,
        "underdog": prematch.underdog_id,
        "aggressor": prematch.aggressor_id,
        "terrain": prematch.terrain,
        "log": prematch.log,
    }


def inducement_out(inducement: Inducement) -> dict:
    return {
        "id": inducement.pk,
        "team": inducement.team_id,
        "item": inducement.item,
        "name": inducement.get_item_display(),
        "quantity": inducement.quantity,
        "position": inducement.position.key if inducement.position_id else None,
        "position_name": inducement.position.name if inducement.position_id else None,
        "skill": inducement.skill,
        "star": inducement.star,
        "price": inducement.price,
    }


def _locked_match(match_id: int) -> tuple[Match, list[MatchTeam]]:
    match = Match.objects.select_for_update(of=("self",)).select_related("league", "stadium").get(pk=match_id)
    sides = list(match.sides.select_related("team").order_by("order"))
    lock_teams([s.team_id for s in sides])
    return match, sides


def _check_open(match: Match) -> None:
    """The pre-match sequence runs only while the match is scheduled (`matches.lifecycle`)."""
    lifecycle.next_status(match.status, lifecycle.Action.PREMATCH)


def _entered_by_team(rolls: Any, step, team_ids: list[int], catalogue) -> dict[int | None, dict[str, list[int]]]:
    """Entered dice per team: `{key: {team id: [dice]}}` for a per-team roll (or one flat list, teams in
    match order), `{key: [dice]}` for the match's own."""
    if rolls is None:
        return {}
    if not isinstance(rolls, dict):
        raise RuleViolation("rolls must be an object of roll keys.", field="rolls")
    out: dict[int | None, dict[str, list[int]]] = {}
    for key, values in rolls.items():
        if key not in catalogue:
            raise RuleViolation(f"{key} is not a roll key of this ruleset.", field=f"rolls.{key}")
        if step.per_team and isinstance(values, dict):
            for team_key, team_values in values.items():
                team_id = int(team_key) if str(team_key).isdigit() else None
                if team_id not in team_ids:
                    raise RuleViolation(f"rolls.{key}: {team_key} is not a team of this match.", field=f"rolls.{key}")
                out.setdefault(team_id, {}).update(check_entered({key: team_values}, catalogue))
        elif step.per_team:
            flat = check_entered({key: values}, catalogue)[key]
            dice_each = len(flat) // len(team_ids) if len(flat) % len(team_ids) == 0 else 0
            if not dice_each:
                raise RuleViolation(
                    f"rolls.{key}: give each team's dice as {{team id: [dice]}}, or the same number per team.",
                    field=f"rolls.{key}",
                )
            for index, team_id in enumerate(team_ids):
                out.setdefault(team_id, {})[key] = flat[index * dice_each : (index + 1) * dice_each]
        else:
            out.setdefault(None, {}).update(check_entered({key: values}, catalogue))
    return out


def _prematch_team(side: MatchTeam, team: Team, match: Match, rules, hr) -> PrematchTeam:
    return PrematchTeam(
        id=team.pk,
        name=team.name,
        roster_key=team.roster.key,
        home=side.order == 0,
        fan_factor=team.fan_factor,
        team_value=rules.team_value(team_state(team=team), hr),
        at_home_stadium=match.stadium_id is not None and team.home_stadium_id == match.stadium_id,
    )


def prematch_post(
    *, user: AbstractBaseUser, match_id: int, step: str, choices: Any = None, rolls: Any = None
) -> Prematch:
    """Run `step`, the current step of the match's pre-match sequence."""
    if choices is not None and not isinstance(choices, dict):
        raise RuleViolation("choices must be an object.", field="choices")
    with transaction.atomic():
        match, sides = _locked_match(match_id)
        league = match.league
        rules, hr = league.rules, league.house_rules
        steps = rules.prematch_steps
        if not steps:
            raise RuleViolation(f"{rules.name} has no pre-match sequence.")
        teams = {t.pk: t for t in team_queryset().filter(pk__in=[s.team_id for s in sides])}
        if not policy.may_run_prematch(user, match):
            raise NotPermitted("Only a coach of this match or the commissioner can run its pre-match sequence.")
        _check_open(match)
        prematch, _ = Prematch.objects.select_for_update().get_or_create(match=match)
        if prematch.complete or steps[prematch.step_index].key != step:
            raise StepConflict(f"The pre-match sequence is {_where(prematch, steps)}, not at {step}.")
        current = steps[prematch.step_index]
        shopper = getattr(prematch, f"{current.turn}_id") if current.turn else None
        if shopper is not None and not policy.may_act_for_side(user, match, teams[shopper]):
            raise NotPermitted(f"Only {teams[shopper].name}'s coach (or the commissioner) closes its shopping.")
        waited = turns([match.pk])  # who the sequence waits for before this step: the step tells the new ones
        catalogue = rules.roll_catalogue(hr)
        team_ids = [s.team_id for s in sides]
        entered = _entered_by_team(rolls, current, team_ids, catalogue)
        dice: dict[int | None, Dice] = {}

        def dice_for(team_id: int | None) -> Dice:
            if team_id not in dice:
                dice[team_id] = Dice(catalogue=catalogue, entered=entered.get(team_id, {}))
            return dice[team_id]

        ctx = PrematchContext(
            teams=tuple(_prematch_team(s, teams[s.team_id], match, rules, hr) for s in sides),
            hr=hr,
            dice=dice_for,
            choices=choices or {},
            state={"superior": prematch.superior_id, "underdog": prematch.underdog_id, "induced": prematch.induced},
        )
        current.run(ctx)
        if shopper is not None:
            _close_shopping(
                ctx, match=match, team=teams[shopper], induced=prematch.induced.get(str(shopper), 0), user=user
            )
        for field, value in ctx.updates.items():
            setattr(prematch, f"{field}_id" if field in ("superior", "underdog", "aggressor") else field, value)
        for team_id, team_dice in dice.items():
            record_rolls(
                league=league,
                match=match,
                team_id=team_id,
                step=current.key,
                records=team_dice.records,
                rolled_by=user,
            )
        prematch.log = [*prematch.log, {"step": current.key, "title": current.title, "lines": ctx.log}]
        prematch.step_index += 1
        prematch.complete = prematch.step_index >= len(steps)
        prematch.save()
        tell_turns(before=waited, match_ids=[match.pk], actor=user)
    return prematch


def _close_shopping(ctx: PrematchContext, *, match: Match, team: Team, induced: int, user: AbstractBaseUser) -> None:
    """R: the treasury pays what the inducement gil did not cover — one ledger entry with the reason; the
    inducement gil left over is lost."""
    bought = list(match.inducements.filter(team=team).select_related("position").order_by("id"))
    spent = sum(i.price for i in bought)
    from_treasury = max(0, spent - induced)
    if not bought:
        ctx.say(f"{team.name} buys no inducements.")
    else:
        listed = "; ".join(_words(i) for i in bought)
        ctx.say(f"{team.name} induces {listed}: {fmt_gil(spent)} in all.")
    if from_treasury:
        ledger_post(
            team=team,
            amount=-from_treasury,
            kind="inducements",
            reason=f"Inducements for match #{match.pk}: " + "; ".join(_words(i) for i in bought),
            user=user,
            match_id=match.pk,
        )
        ctx.say(f"{fmt_gil(from_treasury)} of it comes from the treasury.")
    if induced > spent:
        ctx.say(f"{fmt_gil(induced - spent)} of inducement gil is left unspent and lost.")


def _words(inducement: Inducement) -> str:
    what = inducement.get_item_display()
    if inducement.item == Inducement.Item.MERCENARY and inducement.position_id:
        what = f"Mercenary {inducement.position.name}" + (f" with {inducement.skill}" if inducement.skill else "")
    elif inducement.item == Inducement.Item.STAR_PLAYER:
        what = f"Star Player {inducement.star.replace('_', ' ').title()}"
    return f"{inducement.quantity} × {what} ({fmt_gil(inducement.price)})"


def _where(prematch: Prematch | None, steps) -> str:
    """Where the sequence stands, in words."""
    if prematch is None or prematch.pk is None:
        return "not started"
    return "complete" if prematch.complete else f"at {steps[prematch.step_index].title}"


def _shopping_turn(match_id: int, team_id: int, user: AbstractBaseUser) -> tuple[Match, Prematch, Team]:
    """Lock the match and its teams; refuse unless it is `team_id`'s open shopping turn and `user` may shop."""
    match, sides = _locked_match(match_id)
    side = next((s for s in sides if s.team_id == team_id), None)
    if side is None:
        raise RuleViolation("That team does not play in this match.", field="team")
    team = side.team
    if not policy.may_act_for_side(user, match, team):
        raise NotPermitted("Only this team's coach or the commissioner can shop for its inducements.")
    _check_open(match)
    prematch = Prematch.objects.filter(match=match).first()
    steps = _steps(match)
    if prematch is None or shopping_team(prematch, steps) != team_id:
        raise StepConflict(
            f"It is not {team.name}'s turn to shop for inducements: the pre-match sequence is "
            f"{_where(prematch, steps)}."
        )
    return match, prematch, team


def inducement_add(
    *,
    user: AbstractBaseUser,
    match_id: int,
    team_id: int,
    item: str,
    quantity: int = 1,
    position: str = "",
    skill: str = "",
    star: str = "",
) -> Inducement:
    """Buy an inducement in the team's shopping turn: its limits and price by the rules, paid from the
    inducement gil first and then the treasury (charged when the turn closes)."""
    with transaction.atomic():
        match, prematch, _ = _shopping_turn(match_id, team_id, user)
        team = team_queryset().get(pk=team_id)
        rules, hr = match.league.rules, match.league.house_rules
        positions = {p.key: p for p in team.roster.positions.all()}
        # R: players missing the match do not count (mercenaries may replace them), towards the 16 or a
        # position's limit.
        able = [p for p in team.players.all() if p.left_at is None and p.status in ("active", "journeyman")]
        counts: dict[str, int] = {}
        for player in able:
            counts[player.position.key] = counts.get(player.position.key, 0) + 1
        shopper = {
            "roster_key": team.roster.key,
            "white_mage_allowed": bool(team.roster.extra.get("white_mage", False)),
            "special_prices": dict(team.roster.extra.get("special_prices", {})),
            # The position's skill access rides along: a mercenary's extra skill must be of his Normal access.
            "positions": {key: _with_access(p) for key, p in positions.items()},
            "roster_counts": counts,
            "able_players": len(able),
        }
        bought = list(match.inducements.filter(team=team).select_related("position"))
        purchases = [
            {
                "item": i.item,
                "quantity": i.quantity,
                "position": i.position.key if i.position_id else "",
                "skill": i.skill,
                "star": i.star,
                "price": i.price,
            }
            for i in bought
        ]
        price = rules.check_inducement(
            item, quantity, team=shopper, bought=purchases, position=position, skill=skill, star=star, hr=hr
        )
        rules.check_inducement_affordable(
            induced=prematch.induced.get(str(team_id), 0),
            spent_before=sum(p["price"] for p in purchases),
            price=price,
            treasury=team_treasury(team=team),
        )
        return Inducement.objects.create(
            match=match,
            team=team,
            item=item,
            quantity=quantity,
            position=positions.get(position) if item == Inducement.Item.MERCENARY else None,
            skill=skill if item == Inducement.Item.MERCENARY else "",
            star=star if item == Inducement.Item.STAR_PLAYER else "",
            price=price,
            created_by=user,
        )


def _with_access(position) -> PositionSpec:
    spec = position.spec()
    return replace(spec, extra={**spec.extra, "skill_access": dict(position.skill_access)})


def inducement_remove(*, user: AbstractBaseUser, match_id: int, team_id: int, inducement_id: int) -> None:
    """Give an inducement back while the team's shopping turn is open."""
    with transaction.atomic():
        match, _, _ = _shopping_turn(match_id, team_id, user)
        deleted, _ = Inducement.objects.filter(pk=inducement_id, match=match, team_id=team_id).delete()
        if not deleted:
            raise RuleViolation("No such inducement of this team in this match.", field="inducement")
