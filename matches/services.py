"""Writes to matches: scheduling, result submission, confirmation (the result becomes final and its
effects land, `matches.effects`), rejection. Every status move goes through `matches.lifecycle`. The post-match
sequence itself lives in `matches.aftermath`."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.dice import check_entered
from campaigns.errors import NotPermitted, RuleViolation
from league.audit import audit_record, reason_text
from league.models import League, Stadium, league_activity_changed, league_table_changed
from teams.models import Player, Team

from . import disputes, effects, hooks, lifecycle, notices, policy, schedules
from .locks import lock_teams
from .models import Aftermath, Dispute, Match, MatchTeam
from .sequences import prematch_actors, prematch_blocks_result
from .step_reads import confirm_teams


def match_schedule(
    *,
    user: AbstractBaseUser,
    league: League,
    team_ids: list[int],
    kind: str = Match.Kind.LEAGUE,
    stadium_id: int | None = None,
    event: str = "",
    tests_to_win: int | None = None,
) -> Match:
    """Schedule a match. The commissioner schedules any; a coach only matches his own team plays in."""
    rules, hr = league.rules, league.house_rules
    if len(set(team_ids)) != len(team_ids):
        raise RuleViolation("A team cannot play itself.", field="teams")
    teams = {t.pk: t for t in Team.objects.filter(pk__in=team_ids, league=league)}
    if len(teams) != len(team_ids):
        raise RuleViolation("Every team must belong to this league.", field="teams")
    bounds = rules.teams_per_match.get(event)
    if bounds is None:
        raise RuleViolation(f"{event!r} is not an event of {rules.name}.", field="event")
    lowest, highest = bounds
    if not lowest <= len(team_ids) <= highest:
        raise RuleViolation(f"This match takes {lowest}–{highest} teams.", field="teams")
    if not policy.may_schedule_match(user, league, teams.values()):
        raise NotPermitted("Only the commissioner or a coach of one of these teams can schedule this match.")
    stadium = None
    if stadium_id is not None:
        stadium = Stadium.objects.filter(pk=stadium_id, league=league).first()
        if stadium is None:
            raise RuleViolation("The stadium must be one of this league's.", field="stadium")
    if tests_to_win is None and "tests_to_win" in hr:
        tests_to_win = hr["tests_to_win"]
    with transaction.atomic():
        # Lock the teams (in id order) so two schedulings at once cannot both pass the consecutive check.
        lock_teams(team_ids)
        limit = rules.max_consecutive_meetings(hr)
        if limit and len(team_ids) == 2:
            _check_consecutive(league, team_ids, limit)
        match = Match.objects.create(
            league=league,
            season=league.season,
            kind=kind,
            event=event,
            stadium=stadium,
            tests_to_win=tests_to_win,
            created_by=user,
        )
        MatchTeam.objects.bulk_create(
            [MatchTeam(match=match, team_id=team_id, order=order) for order, team_id in enumerate(team_ids)]
        )
        # H: a team is in creation until its first match is scheduled.
        Team.objects.filter(pk__in=team_ids, creation_closed_at__isnull=True).update(creation_closed_at=timezone.now())
        league_activity_changed(league.pk)  # a new fixture on the league page
    return match


def _check_consecutive(league: League, pair: list[int], limit: int) -> None:
    """R: a team may not play the same opponent more than `limit` matches in a row, counted per team over its
    own sequence of matches."""
    for team_id in pair:
        other = next(t for t in pair if t != team_id)
        recent = (
            MatchTeam.objects.filter(team_id=team_id, match__league=league)
            .order_by("-match__created_at", "-match_id")
            .values("match_id")[:limit]
        )
        # The opponents in the team's last `limit` matches, in one query (its recent matches a subquery): fewer
        # than `limit` of them, or one who is not `other`, and the teams have not met `limit` times in a row (a
        # match of three or more teams has opponents who differ).
        opponents = list(
            MatchTeam.objects.filter(match_id__in=recent).exclude(team_id=team_id).values_list("team_id", flat=True)
        )
        if len(opponents) == limit and all(t == other for t in opponents):
            raise RuleViolation(
                f"These teams have met {limit} times in a row: a third consecutive match is not allowed.",
                field="teams",
            )


def _rosters_and_context(
    match: Match, sides: list[MatchTeam] | None, teams: dict[int, Team] | None = None
) -> tuple[dict[int, dict[int, str]], dict]:
    """The match's rosters (each team's players not gone, by status) and what a result format needs beyond them:
    the Tests to win, each team's support stock (ElfBall potions) and each player's attributes and abilities (a
    lasting injury's attribute must be a highest one) — from one query of the sides and one of the players
    (none when the caller holds the teams with their players: `teams`, by id)."""
    sides = list(match.sides.select_related("team")) if sides is None else sides
    if teams is not None:
        fields = ("team_id", "pk", "status", "attributes", "abilities", "role", "elite")
        held = (p for t in teams.values() for p in t.players.all() if p.left_at is None)
        players = [{f: getattr(p, f) for f in fields} for p in held]
    else:
        # By the sides' team ids (the team_id index), not by a join through the match's sides, which PostgreSQL
        # may plan as a scan of every player.
        players = Player.objects.filter(team_id__in=[s.team_id for s in sides], left_at__isnull=True).values(
            "team_id", "pk", "status", "attributes", "abilities", "role", "elite"
        )
    rosters: dict[int, dict[int, str]] = {side.team_id: {} for side in sides}
    stock = {side.team_id: dict(side.team.staff) for side in sides}
    context: dict = {"tests_to_win": match.tests_to_win, "stock": stock, "players": {}}
    for p in players:
        rosters[p["team_id"]][p["pk"]] = p["status"]
        context["players"][p["pk"]] = {k: p[k] for k in ("attributes", "abilities", "role", "elite")}
    return rosters, context


def parse_match_result(
    match: Match, body: object, *, sides: list[MatchTeam] | None = None, teams: dict[int, Team] | None = None
) -> dict:
    """The result as the league's ruleset validates it against the match's rosters as they stand now, with
    the dice rolled at the table (given in the result's own entries or under `rolls`) checked and gathered.
    `sides`: the match's sides with their teams, when the caller holds them already; `teams`: the teams with
    their players, by id (`step_reads.confirm_teams`)."""
    rules, hr = match.league.rules, match.league.house_rules
    rosters, context = _rosters_and_context(match, sides, teams)
    result = rules.parse_result(body, rosters=rosters, event=match.event, hr=hr, context=context)
    catalogue = rules.roll_catalogue(hr)
    rolls = {key: list(values) for key, values in result.get("rolls", {}).items()}
    for key, values in check_entered(body.get("rolls") if isinstance(body, dict) else None, catalogue).items():
        if key not in rolls:  # a key the format already gathered from its entries is not logged twice
            rolls[key] = values
    result["rolls"] = rolls
    return result


def _locked_match(match_id: int, *related: str) -> Match:
    """The match, its row locked, with its league (and `related`) and its sides with their teams prefetched: the
    policy and the result's validation read the sides from there, not with queries of their own."""
    sides = Prefetch("sides", queryset=MatchTeam.objects.select_related("team__coach"))
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("league", *related)
        .prefetch_related(sides)
        .get(pk=match_id)
    )


def match_submit_result(*, user: AbstractBaseUser, match_id: int, body: object) -> Match:
    with transaction.atomic():
        match = _locked_match(match_id)
        sides = list(match.sides.all())
        if not policy.may_enter_result(user, match):
            raise NotPermitted("Only a coach of a team in this match or the commissioner can enter its result.")
        lifecycle.next_status(match.status, lifecycle.Action.SUBMIT)  # refused before the result is validated
        match.result = _validated_result(match, [s.team for s in sides], body, sides)
        if match.status == Match.Status.DISPUTED:  # a coach answers the dispute with a new result
            disputes.dispute_close(match=match, ruling=Dispute.Ruling.REPLACED, user=user)
        match.result_body = body
        lifecycle.transition(match, lifecycle.Action.SUBMIT)
        match.submitted_by = user
        match.submitted_at = timezone.now()
        match.save(update_fields=["result", "result_body", "status", "submitted_by", "submitted_at"])
        league_activity_changed(match.league_id)  # the fixture's status on the league page
        notices.result_submitted(match, sides, actor=user)
    return match


def _validated_result(
    match: Match, teams: list[Team], body: object, sides: list[MatchTeam] | None = None, held: dict | None = None
) -> dict:
    """The result as the league's ruleset validates it against the rosters as they stand now, with any dice
    rolled at the table for it (e.g. weather, fans) checked against the roll catalogue. `held`: the teams as
    `step_reads.confirm_teams` read them, by id (their players and open sequences: no query of their own)."""
    if held is not None:
        unfinished = any(t.open_elsewhere for t in held.values())
    else:
        unfinished = Aftermath.objects.filter(team__in=teams, complete=False).exclude(match=match).exists()
    if unfinished:
        raise RuleViolation("A team of this match has not finished its previous post-match sequence.")
    started = getattr(match, "prematch", None)  # (loaded with the match by confirm)
    if prematch_blocks_result(match, started):
        steps = match.league.rules.prematch_steps
        raise RuleViolation(
            _("Finish the pre-match sequence first: it is at %(step)s, waiting for %(who)s.")
            % {"step": steps[started.step_index].title, "who": _step_coaches(started, steps, sides or [])}
        )
    return parse_match_result(match, body, sides=sides, teams=held)


def _step_coaches(prematch, steps, sides: list[MatchTeam]) -> str:
    """Who the sequence's current step waits for, by name: the shopping team's coach, or either coach."""
    teams = {s.team_id: s.team for s in sides}
    names = [
        teams[t].coach.username if teams[t].coach_id else teams[t].name
        for t in prematch_actors(prematch, steps, list(teams))
    ]
    return _(" or ").join(names)


def match_reject(*, user: AbstractBaseUser, match_id: int, reason: object = "", tell: bool = True) -> Match:
    """The commissioner sends a submitted (or disputed) result back: the match is scheduled again, nothing
    applied; the rejection is in the league's audit with its reason (optional, at most 2,000 characters). Both
    coaches are told (`tell` False: the caller tells them of its own event instead — a dispute's ruling)."""
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("league").get(pk=match_id)
        if not policy.may_reject_result(user, match):
            raise NotPermitted("Only the commissioner can reject a result.")
        reason = reason_text(reason, limit=disputes.REASON_MAX)
        before = {"status": match.status, "result": match.result}
        if match.status == Match.Status.DISPUTED:
            disputes.dispute_close(match=match, ruling=Dispute.Ruling.REJECTED, user=user, reason=reason)
        lifecycle.transition(match, lifecycle.Action.REJECT)
        audit_record(
            league=match.league,
            actor=user,
            action="rejection",
            target=f"match {match.pk}",
            before=before,
            after={"status": match.status},
            reason=reason,
        )
        match.result = {}
        match.result_body = {}
        match.submitted_by = None
        match.submitted_at = None
        match.save(update_fields=["status", "result", "result_body", "submitted_by", "submitted_at"])
        league_activity_changed(match.league_id)  # the fixture's status on the league page
        if tell:
            notices.result_rejected(match, actor=user)
    return match


def match_confirm(
    *, user: AbstractBaseUser | None, match_id: int, now: datetime | None = None, tell: bool = True
) -> Match:
    """The other coach (or the commissioner) confirms: the result is final, each team's snapshot is taken,
    per-player rows written, injuries applied, and each team's post-match sequence opens. `user` None is the
    league clock (matches/clock.py), which confirms only what the league's house rules let it at `now`. Both
    coaches are told but the one who confirmed (`tell` False: the caller tells them of its own event instead — a
    dispute's ruling)."""
    with transaction.atomic():
        match = _locked_match(match_id, "prematch")
        sides = list(match.sides.all())
        lifecycle.next_status(match.status, lifecycle.Action.CONFIRM)  # refused before anything else is asked
        if user is None:
            if not policy.clock_may_confirm(match, now=now or timezone.now()):
                raise NotPermitted("The league clock confirms a result only after the league's auto_confirm_hours.")
        elif user.pk == match.submitted_by_id:
            raise NotPermitted(
                "The coach who entered the result cannot confirm it: the other coach or the commissioner does."
            )
        elif not policy.may_confirm_result(user, match):
            raise NotPermitted("Only the other coach or the commissioner can confirm this result.")
        # Check it again, holding the teams: another result may have become final since this one was entered
        # (a player killed there cannot have scored here; a team's next result waits for its sequence).
        lock_teams([s.team_id for s in sides])
        # The teams as the result reads them — players, positions, balances — in one query, once locked.
        teams = confirm_teams([s.team_id for s in sides], match=match)
        # (Results entered before the body was kept are checked in their stored, normalised form.)
        body = match.result_body or match.result
        match.result = _validated_result(match, [s.team for s in sides], body, sides, held=teams)
        if match.status == Match.Status.DISPUTED:  # the commissioner confirms a disputed result as is
            disputes.dispute_close(match=match, ruling=Dispute.Ruling.CONFIRMED, user=user)
        lifecycle.transition(match, lifecycle.Action.CONFIRM)
        effects.result_apply(match, sides, teams)
        league_table_changed(match.league_id)
        match.confirmed_by = user
        match.confirmed_at = timezone.now()
        match.save(update_fields=["status", "result", "confirmed_by", "confirmed_at", "journal"])
        schedules.schedule_round_final(match)  # a knockout round closed: the bracket's next round
        hooks.result_confirmed(match, sides)  # the webhooks' outbox, delivered once this commits
        hooks.players_died(match, hooks.deaths_in_result(match))
        if tell:
            notices.result_confirmed(match, sides, actor=user)
    return match
