"""The post-match workflow engine's Django half: build the step's view of the world, run the step, and
apply its effects — in one transaction with the team's row locked — recording every roll.

State machine per team and match: `step_index` walks the ruleset's steps; a POST for any other step than
the current one is a 409 and changes nothing; a step waiting for a decision keeps its rolls in `pending`
and resumes with them on the next POST of the same step.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from campaigns import engine
from campaigns.dice import Dice, RollRecord, check_entered
from campaigns.errors import NotPermitted, RuleViolation
from campaigns.rulesets.base import fmt_gil
from teams.models import Player, Sponsorship, Team
from teams.selectors import player_view, team_queryset, team_races, team_state
from teams.services import ledger_post, team_locked

from . import policy
from .models import Aftermath, Match, MatchTeam, PlayerMatch, Roll


class StepConflict(Exception):
    """A POST for a step that is not the current one (answered 409)."""


def aftermath_state(aftermath: Aftermath) -> dict[str, Any]:
    steps = [s.key for s in aftermath.match.league.rules.postmatch_steps]
    current = None if aftermath.complete else steps[aftermath.step_index]
    pending = aftermath.pending or None
    if pending:
        pending = {
            k: v for k, v in pending.items() if k in ("step", "decision", "options", "message", "rolls", "entered")
        }
    return {
        "match": aftermath.match_id,
        "team": aftermath.team_id,
        "step": current,
        "steps": steps,
        "complete": aftermath.complete,
        "pending": pending,
        "log": aftermath.log,
    }


def _stadium_view(stadium, team: Team):
    """The stadium as this team sees it; "another team's home" means any other team of the league (R)."""
    if stadium is None:
        return None
    residents = list(
        Team.objects.filter(home_stadium=stadium).exclude(pk=team.pk).values_list("owns_stadium", flat=True)
    )
    return engine.StadiumView(
        id=stadium.pk,
        name=stadium.name,
        special_attribute=stadium.special_attribute,
        home_of_this_team=team.home_stadium_id == stadium.pk,
        home_of_other_team=bool(residents),
        owned_by_this_team=team.home_stadium_id == stadium.pk and team.owns_stadium,
        owned_by_other_team=any(residents),
    )


def _side_view(side: MatchTeam) -> engine.SideView:
    return engine.SideView(
        team_id=side.team_id,
        score=side.score or 0,
        casualties_inflicted=side.casualties_inflicted,
        conceded=side.conceded,
        conceded_early=side.conceded_early,
        fame=side.fame,
        mvp=side.mvp_id,
        placing=side.placing,
        eliminations=side.eliminations,
    )


def _team_view(team: Team) -> engine.TeamView:
    positions = {p.key: p for p in team.roster.positions.all()}
    journeyman = team.roster.extra.get("journeyman_position")
    races = team_races(team=team)
    players = tuple(player_view(p, races=races) for p in team.players.all() if p.left_at is None)
    home = team.home_stadium
    return engine.TeamView(
        id=team.pk,
        name=team.name,
        roster_key=team.roster.key,
        fan_factor=team.fan_factor,
        treasury=team.treasury,
        stadium_fund=team.stadium_fund,
        rerolls=team.rerolls,
        staff=dict(team.staff),
        players=players,
        ongoing_sponsorships=tuple((s.pk, s.name) for s in team.sponsorships.all() if s.ended_at is None),
        home_stadium=_stadium_view(home, team) if home else None,
        journeyman_position=journeyman,
        journeyman_cost=positions[journeyman].cost if journeyman in positions else 0,
        positions={k: {"name": p.name, "cost": p.cost} for k, p in positions.items()},
    )


def aftermath_post(
    *, user: AbstractBaseUser, match_id: int, team_id: int, step: str, choices: Any = None, rolls: Any = None
) -> Aftermath:
    """Run `step` of the team's post-match sequence (the current one), resuming a pending decision."""
    if choices is not None and not isinstance(choices, dict):
        raise RuleViolation("choices must be an object.", field="choices")
    with team_locked(team_id=team_id) as team:
        aftermath = (
            Aftermath.objects.select_for_update(of=("self",))
            .select_related("match__league", "match__stadium")
            .filter(match_id=match_id, team_id=team_id)
            .first()
        )
        if aftermath is None:
            raise RuleViolation("This team has no post-match sequence for this match (is the result final?).")
        match = aftermath.match
        league = match.league
        if not policy.may_act_for_side(user, match, team):
            raise NotPermitted("Only this team's coach or the commissioner can walk its post-match sequence.")
        rules, hr = league.rules, league.house_rules
        steps = rules.postmatch_steps
        if aftermath.complete or steps[aftermath.step_index].key != step:
            current = "none (complete)" if aftermath.complete else steps[aftermath.step_index].key
            raise StepConflict(f"The current step is {current}, not {step}.")
        current = steps[aftermath.step_index]
        catalogue = rules.roll_catalogue(hr)
        pending = aftermath.pending or {}
        # Dice entered before a pause and not yet used stay entered; a key given again replaces them.
        entered = {**pending.get("entered", {}), **check_entered(rolls, catalogue)}
        merged_choices = {**pending.get("choices", {}), **(choices or {})}
        prior = [RollRecord.from_dict(r) for r in pending.get("rolls", [])]
        dice = Dice(catalogue=catalogue, entered=entered, prior=prior)
        ctx = engine.StepContext(
            team=_view_for(team),
            match=_match_view(match, team),
            hr=hr,
            dice=dice,
            choices=merged_choices,
            carry=dict(aftermath.carry),
        )
        try:
            current.run(ctx)
        except engine.NeedsDecision as need:
            aftermath.pending = {
                "step": current.key,
                "decision": need.decision,
                "options": need.options,
                "message": need.message,
                "rolls": [r.as_dict() for r in dice.records],
                "choices": merged_choices,
                "entered": dice.unused_entered(),
            }
            aftermath.save(update_fields=["pending", "updated_at"])
            return aftermath
        journal = _apply(ctx.effects, team=team, match=match, user=user, hr=hr)
        aftermath.journal = [*aftermath.journal, *journal]
        Roll.objects.bulk_create(
            [
                Roll(
                    league=league,
                    match=match,
                    team=team,
                    step=current.key,
                    key=r.key,
                    expression=r.expression,
                    values=list(r.values),
                    entered=r.entered,
                    rolled_by=user,
                )
                for r in dice.records
            ]
        )
        lines = ctx.log or ["Nothing to do at this step."]
        aftermath.log = [*aftermath.log, {"step": current.key, "title": current.title, "lines": lines}]
        aftermath.carry = ctx.carry
        aftermath.pending = {}
        aftermath.step_index += 1
        if aftermath.step_index >= len(steps):
            aftermath.complete = True
            tv = rules.team_value(team_state(team=team_queryset().get(pk=team.pk)), hr)
            if tv is not None:
                aftermath.log[-1]["lines"].append(
                    f"Team Value recorded: {fmt_gil(tv) if rules.economy == 'gil' else tv}."
                )
                aftermath.carry["team_value"] = tv
        aftermath.save()
    return aftermath


def _view_for(team: Team) -> engine.TeamView:
    """The team as the step reads it, loaded fresh (balances annotated, players and sponsorships prefetched)."""
    return _team_view(team_queryset().get(pk=team.pk))


def _match_view(match: Match, team: Team) -> engine.MatchView:
    sides = list(match.sides.select_related("team"))
    us = next(s for s in sides if s.team_id == team.pk)
    them = [s for s in sides if s.team_id != team.pk]
    rows = {
        r.player_id: {
            "touchdowns": r.touchdowns,
            "casualties": r.casualties,
            "completions": r.completions,
            "interceptions": r.interceptions,
            "mvp": r.mvp,
            "spp": r.spp,
            "injury": r.injury,
            "goal_points": r.goal_points,
            "wounds": r.wounds,
            "injury_detail": r.injury_detail,
            "detail": dict(r.detail),
        }
        for r in PlayerMatch.objects.filter(match=match, team=team)
    }
    return engine.MatchView(
        id=match.pk,
        kind=match.kind,
        outcome=us.outcome or "draw",
        us=_side_view(us),
        them=tuple(_side_view(s) for s in them),
        stadium=_stadium_view(match.stadium, team) if match.stadium else None,
        player_rows=rows,
        event=match.event,
        tests_to_win=match.tests_to_win,
        result=match.result,
    )


def _apply(effects: list, *, team: Team, match: Match, user: AbstractBaseUser, hr) -> list[dict]:
    """Apply a step's effects in order; return the journal that undoes them. Gil only through the ledger;
    a refusal rolls the whole step back."""
    now = timezone.now()
    journal: list[dict] = []
    for effect in effects:
        if isinstance(effect, engine.Gil):
            ledger_post(
                team=team,
                amount=effect.amount,
                kind=effect.kind,
                reason=effect.reason,
                user=user,
                account=effect.account,
                match_id=match.pk,
            )
            journal.append({"type": "gil", "amount": effect.amount, "account": effect.account, "reason": effect.reason})
        elif isinstance(effect, engine.MatchRowNote):
            row = PlayerMatch.objects.select_for_update().get(match=match, player_id=effect.player_id)
            journal.append({"type": "row", "player": effect.player_id, "before": dict(row.detail)})
            row.detail = {**row.detail, **effect.detail}
            row.save(update_fields=["detail"])
        elif isinstance(effect, engine.Staff):
            staff = dict(team.staff)
            count = staff.get(effect.item, 0) + effect.delta
            if count < 0:
                raise RuleViolation(f"The team has no {effect.item.replace('_', ' ')} left to use.")
            staff[effect.item] = count
            team.staff = staff
            team.save(update_fields=["staff"])
            journal.append({"type": "staff", "item": effect.item, "delta": effect.delta})
        elif isinstance(effect, engine.FanFactor):
            before = team.fan_factor
            team.fan_factor = max(0, team.fan_factor + effect.delta)
            team.save(update_fields=["fan_factor"])
            journal.append({"type": "fan_factor", "delta": team.fan_factor - before})
        elif isinstance(effect, engine.PlayerUpdate):
            player = Player.objects.select_for_update().get(pk=effect.player_id, team=team)
            journal.append({"type": "player", "id": player.pk, "before": _player_state(player)})
            if effect.status:
                player.status = effect.status
            skills = [s for s in player.skills if s not in effect.skills_remove]
            player.skills = skills + [s for s in effect.skills_add if s not in skills]
            attributes = dict(player.attributes)
            for key, delta in effect.attribute_deltas.items():
                attributes[key] = attributes.get(key, 0) + delta
            player.attributes = attributes
            player.value += effect.value_delta
            player.abilities = list(player.abilities) + [a for a in effect.abilities_add if a not in player.abilities]
            for key, value in effect.fields.items():
                setattr(player, key, value)
            if effect.leaves:
                player.left_at = now
                player.role = ""
            player.save()
        elif isinstance(effect, engine.NewPlayer):
            position = team.roster.positions.get(key=effect.position)
            created = Player.objects.create(
                team=team,
                position=position,
                name=effect.name,
                status=effect.status,
                attributes=dict(position.attributes),
                skills=list(position.skills) + [s for s in effect.skills_add if s not in position.skills],
                value=position.cost,
            )
            journal.append({"type": "new_player", "id": created.pk})
        elif isinstance(effect, engine.SponsorshipGained):
            created = Sponsorship.objects.create(team=team, name=effect.name)
            journal.append({"type": "sponsorship_gained", "id": created.pk})
        elif isinstance(effect, engine.SponsorshipEnded):
            Sponsorship.objects.filter(pk=effect.sponsorship_id, team=team, ended_at__isnull=True).update(ended_at=now)
            journal.append({"type": "sponsorship_ended", "id": effect.sponsorship_id})
        elif isinstance(effect, engine.Residency):
            journal.append({"type": "residency", "before": [team.home_stadium_id, team.owns_stadium]})
            team.home_stadium_id = effect.stadium_id
            team.owns_stadium = effect.owned if effect.stadium_id else False
            team.save(update_fields=["home_stadium", "owns_stadium"])
        else:  # pragma: no cover - a new effect type must be taught here
            raise TypeError(f"unknown effect {effect!r}")
    return journal


def _player_state(player: Player) -> dict:
    return {
        "status": player.status,
        "skills": list(player.skills),
        "attributes": dict(player.attributes),
        "value": player.value,
        "role": player.role,
        "abilities": list(player.abilities),
        "wounds": player.wounds,
        "armour_used": player.armour_used,
        "wound_areas": dict(player.wound_areas),
        "conditions": list(player.conditions),
        "elite": player.elite,
        "matches_survived": player.matches_survived,
        "left_at": player.left_at.isoformat() if player.left_at else None,
    }


def aftermath_views(match: Match, team: Team) -> tuple[engine.TeamView, engine.MatchView]:
    """The team and the match as a step reads them: pages ask a step which dice and choices it can use
    (`Step.usable_rolls`, `Step.options` under `engine.team_situation`) from the same views the step runs on."""
    return _view_for(team), _match_view(match, team)
