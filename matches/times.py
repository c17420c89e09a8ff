"""Match times: a coach of a match proposes a date and time; the opponent accepts it, and it becomes
the match's `scheduled_for`, or proposes another, which supersedes the first. One proposal is open at a time.

A proposal is for a match still to be played (scheduled), in the future, and — when the match has a deadline —
no later than it (a match played after its deadline is overdue the moment it is agreed)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns.errors import Conflict, NotPermitted, RuleViolation

from . import notices, policy
from .models import Match, TimeProposal


def _moment(at: object) -> datetime:
    if not isinstance(at, datetime):
        raise RuleViolation("A date and time, e.g. 2026-12-05T19:30:00Z.", field="at")
    if timezone.is_naive(at):
        raise RuleViolation("A date and time with its offset or Z (UTC).", field="at")
    return at


def _match_to_play(match_id: int) -> Match:
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("league")
        .prefetch_related("sides__team")
        .get(pk=match_id)
    )
    return match


def _playable(match: Match) -> None:
    if match.status != Match.Status.SCHEDULED:
        raise Conflict("Only a match still to be played gets a time.", field="match")


def match_time_propose(*, user: AbstractBaseUser, match_id: int, at: object) -> TimeProposal:
    """A coach of the match proposes `at`; the open proposal, if any (his or the opponent's), is superseded."""
    when = _moment(at)
    with transaction.atomic():
        match = _match_to_play(match_id)
        if not policy.may_propose_time(user, match):
            raise NotPermitted("Only a coach of this match proposes its time.")
        _playable(match)
        if when <= timezone.now():
            raise RuleViolation("Propose a time in the future.", field="at")
        if match.deadline is not None and when > match.deadline:
            raise RuleViolation(
                f"Propose a time no later than the match's deadline ({match.deadline.isoformat()}).", field="at"
            )
        team = next(side.team for side in match.sides.all() if side.team.coach_id == user.pk)
        TimeProposal.objects.filter(match=match, state=TimeProposal.State.OPEN).update(
            state=TimeProposal.State.SUPERSEDED, answered_by=user, answered_at=timezone.now()
        )
        proposal = TimeProposal.objects.create(match=match, team=team, proposed_by=user, at=when)
        notices.time_proposed(match, actor=user, proposal=proposal)
        return proposal


def match_time_accept(*, user: AbstractBaseUser, match_id: int, proposal_id: int) -> Match:
    """The opponent accepts the open proposal: its time becomes the match's `scheduled_for`."""
    with transaction.atomic():
        match = _match_to_play(match_id)
        proposal = TimeProposal.objects.select_for_update().filter(pk=proposal_id, match=match).first()
        if proposal is None:
            raise RuleViolation("No such proposal for this match.", field="proposal")
        if not policy.may_accept_time(user, match, proposal.team_id):
            raise NotPermitted("Only the opponent of the coach who proposed it accepts a time.")
        _playable(match)
        if proposal.state != TimeProposal.State.OPEN:
            raise Conflict(f"That proposal is {proposal.get_state_display().lower()}, not open.", field="proposal")
        if proposal.at <= timezone.now():
            raise Conflict("That time has passed: propose another.", field="proposal")
        proposal.state, proposal.answered_by, proposal.answered_at = TimeProposal.State.ACCEPTED, user, timezone.now()
        proposal.save(update_fields=["state", "answered_by", "answered_at"])
        match.scheduled_for = proposal.at
        match.save(update_fields=["scheduled_for"])
        notices.time_agreed(match, actor=user, proposal=proposal)
    return match


def match_time_proposals(*, match: Match) -> list[TimeProposal]:
    """A match's proposals, oldest first (one query)."""
    return list(TimeProposal.objects.filter(match=match).order_by("created_at", "id"))
