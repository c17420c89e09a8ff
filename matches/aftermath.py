"""The post-match workflow engine's Django half: build the step's view of the world, run the step, and
apply its effects (`matches.effects`) — in one transaction with the team's row locked — recording every roll
(`matches.rolls`).

State machine per team and match: `step_index` walks the ruleset's steps; a POST for any other step than
the current one is a 409 and changes nothing; a step waiting for a decision keeps its rolls in `pending`
and resumes with them on the next POST of the same step.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from campaigns import engine
from campaigns.dice import Dice, RollRecord, check_entered
from campaigns.errors import Conflict, NotPermitted, RuleViolation
from campaigns.rulesets.base import fmt_gil
from teams.models import Team
from teams.selectors import player_view, team_players_reload, team_races, team_state, team_step_queryset

from . import policy
from .effects import step_effects_apply
from .hooks import deaths_in_effects, players_died
from .models import Aftermath, Match, MatchTeam, PlayerMatch
from .rolls import record_rolls
from .step_reads import match_rows_unfolded, sides_unfolded, step_reads, team_install
from .turns import team_open_matches, tell_turns, turns

#: What a step changes on its sequence's row (written alone: not the match and team ids again).
STEP_FIELDS = ["journal", "log", "carry", "pending", "step_index", "complete", "updated_at"]


class StepConflict(Conflict):
    """A POST for a step that is not the current one of a pre- or post-match sequence (answered 409, by type)."""


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


def _team_view(team: Team, parts: frozenset[str] = engine.VIEW_PARTS) -> engine.TeamView:
    """The team as a step reads it; the parts not in `parts` (engine.VIEW_PARTS) are `engine.Unread`."""
    journeyman = team.roster.extra.get("journeyman_position")
    if "positions" in parts:
        positions = {p.key: p for p in team.roster.positions.all()}
        position_costs = {k: {"name": p.name, "cost": p.cost} for k, p in positions.items()}
        journeyman_cost = positions[journeyman].cost if journeyman in positions else 0
    else:
        position_costs = journeyman_cost = engine.Unread("positions")
    if "players" in parts:
        races = team_races(team=team)
        players = tuple(player_view(p, races=races) for p in team.players.all() if p.left_at is None)
    else:
        players = engine.Unread("players")
    if "sponsorships" in parts:
        sponsorships = tuple((s.pk, s.name) for s in team.sponsorships.all() if s.ended_at is None)
    else:
        sponsorships = engine.Unread("sponsorships")
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
        ongoing_sponsorships=sponsorships,
        home_stadium=_stadium_view(home, team) if home else None,
        journeyman_position=journeyman,
        journeyman_cost=journeyman_cost,
        positions=position_costs,
    )


def aftermath_post(
    *, user: AbstractBaseUser, match_id: int, team_id: int, step: str, choices: Any = None, rolls: Any = None
) -> Aftermath:
    """Run `step` of the team's post-match sequence (the current one), resuming a pending decision."""
    if choices is not None and not isinstance(choices, dict):
        raise RuleViolation("choices must be an object.", field="choices")
    with transaction.atomic():
        # The unit of work: the team's row locked and loaded alone; then, the step known (its league's ruleset
        # names it), its sequence locked with everything else the step declares it reads folded in
        # (`step_reads`: one query, which sees the team's other tables as they stand once its row is locked).
        bare_team = step_reads(frozenset())[0]
        team = bare_team.get(pk=team_id)
        declared = {s.key: s for s in team.league.rules.postmatch_steps}.get(step)
        parts = declared.view_parts() if declared else frozenset()
        aftermath = step_reads(parts)[1].filter(match_id=match_id, team_id=team_id).first()
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
        # Only the last step changes who waits: its end frees the team's next result (and nothing before it does).
        last = aftermath.step_index == len(steps) - 1
        affected = team_open_matches(match_id=match.pk, team_id=team.pk) if last else []
        waited = turns(affected) if last else {}
        if not current.view_parts() <= parts:  # pragma: no cover - a match's teams play in its league
            raise RuleViolation("This team does not play in this match's league.")
        parts = current.view_parts()
        heads = team_install(team=team, folded=aftermath, parts=parts)
        catalogue = rules.roll_catalogue(hr)
        pending = aftermath.pending or {}
        # Dice entered before a pause and not yet used stay entered; a key given again replaces them.
        entered = {**pending.get("entered", {}), **check_entered(rolls, catalogue)}
        merged_choices = {**pending.get("choices", {}), **(choices or {})}
        prior = [RollRecord.from_dict(r) for r in pending.get("rolls", [])]
        dice = Dice(catalogue=catalogue, entered=entered, prior=prior)
        ctx = engine.StepContext(
            team=_team_view(team, parts),
            match=_match_view(match, team, parts, sides=sides_unfolded(aftermath.side_rows), aftermath=aftermath),
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
        journal = step_effects_apply(ctx.effects, team=team, match=match, user=user, heads=heads)
        players_died(match, deaths_in_effects(ctx.effects))  # webhooks: a death a step made final
        aftermath.journal = [*aftermath.journal, *journal]
        record_rolls(
            league=league, match=match, team_id=team.pk, step=current.key, records=dice.records, rolled_by=user
        )
        lines = ctx.log or ["Nothing to do at this step."]
        aftermath.log = [*aftermath.log, {"step": current.key, "title": current.title, "lines": lines}]
        aftermath.carry = ctx.carry
        aftermath.pending = {}
        aftermath.step_index += 1
        if aftermath.step_index >= len(steps):
            aftermath.complete = True
            # The players as this step left them: its updates changed the rows it read, in memory; players it did
            # not read, or new ones, take one query (the balances were kept true by the effects).
            if "players" not in parts or any(isinstance(e, engine.NewPlayer) for e in ctx.effects):
                team_players_reload(team=team)
            tv = rules.team_value(team_state(team=team), hr)
            if tv is not None:
                aftermath.log[-1]["lines"].append(
                    f"Team Value recorded: {fmt_gil(tv) if rules.economy == 'gil' else tv}."
                )
                aftermath.carry["team_value"] = tv
        aftermath.save(update_fields=STEP_FIELDS)
        if aftermath.complete:
            tell_turns(before=waited, match_ids=affected, actor=user)
    return aftermath


def _view_for(team: Team) -> engine.TeamView:
    """The team as the step reads it, loaded fresh (balances annotated, players and sponsorships prefetched)."""
    return _team_view(team_step_queryset().get(pk=team.pk))


def _match_view(
    match: Match,
    team: Team,
    parts: frozenset[str] = engine.VIEW_PARTS,
    *,
    sides: list[MatchTeam] | None = None,
    aftermath: Aftermath | None = None,
) -> engine.MatchView:
    """The match as this team saw it; `sides`: its sides, when the caller holds them (else one query);
    `aftermath`: its sequence as `step_reads` read it, the team's players' rows folded in (else one query)."""
    sides = list(match.sides.all()) if sides is None else sides
    us = next(s for s in sides if s.team_id == team.pk)
    them = [s for s in sides if s.team_id != team.pk]
    if "player_rows" not in parts:
        rows = engine.Unread("player_rows")
    else:
        read = match_rows_unfolded(aftermath) if aftermath else PlayerMatch.objects.filter(match=match, team=team)
        rows = _player_rows(read)
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


def _player_rows(rows) -> dict[int, dict[str, Any]]:
    """The team's players' rows of the match, by player."""
    return {
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
        for r in rows
    }


def aftermath_views(match: Match, team: Team) -> tuple[engine.TeamView, engine.MatchView]:
    """The team and the match as a step reads them: pages ask a step which dice and choices it can use
    (`Step.usable_rolls`, `Step.options` under `engine.team_situation`) from the same views the step runs on."""
    return _view_for(team), _match_view(match, team)
