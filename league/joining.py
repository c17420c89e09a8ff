"""Joining a league (issue 13, "Membership"): invite links — a signed, expiring URL a new coach opens to join,
with no username typed — and requests to join an invite-only league, which the commissioner approves or
refuses. Every commissioner decision, and every join through a link, is in the league's audit."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db import transaction
from django.utils import timezone

from campaigns.errors import Conflict, NotPermitted, RuleViolation

from . import policy
from .audit import audit_record
from .models import JoinRequest, League, Membership

#: The signer's salt: a token signed for anything else never opens a league.
SALT = "dugout.invite-link"
#: How long an invite link opens the league (house default 7 days; settings INVITE_LINK_TTL, a timedelta).
DEFAULT_TTL = dt.timedelta(days=7)
MESSAGE_MAX = 500


def link_ttl() -> dt.timedelta:
    return getattr(settings, "INVITE_LINK_TTL", DEFAULT_TTL)


class JoinConflict(Conflict):
    """A join that cannot happen as things stand (answered 409)."""


@dataclass(frozen=True)
class InviteLink:
    token: str
    league_id: int
    issued_by_id: int
    expires_at: dt.datetime


def invite_link_create(*, user: AbstractBaseUser, league: League) -> InviteLink:
    """The commissioner makes an invite link to his league (a coach's place for whoever opens it in time)."""
    if not policy.may_invite(user, league):
        raise NotPermitted("Only a commissioner of this league may make an invite link.")
    token = signing.TimestampSigner(salt=SALT).sign_object({"league": league.pk, "by": user.pk})
    link = invite_link_read(token=token)
    with transaction.atomic():
        audit_record(
            league=league,
            actor=user,
            action="invite_link",
            target=f"league {league.pk}",
            after={"expires_at": link.expires_at.isoformat()},
        )
    return link


def invite_link_read(*, token: object) -> InviteLink:
    """What a token opens; RuleViolation (in words) for a token that is forged, mangled or expired."""
    if not isinstance(token, str) or not token:
        raise RuleViolation("This is not a valid invite link.", field="token")
    signer = signing.TimestampSigner(salt=SALT)
    try:
        data = signer.unsign_object(token, max_age=link_ttl())
        signed_at = dt.datetime.fromtimestamp(signing.b62_decode(token.rsplit(":", 2)[1]), tz=dt.UTC)
    except signing.SignatureExpired as exc:
        raise RuleViolation("This invite link has expired: ask the commissioner for a new one.", field="token") from exc
    except (signing.BadSignature, ValueError, TypeError, IndexError) as exc:
        raise RuleViolation("This is not a valid invite link.", field="token") from exc
    if not isinstance(data, dict) or not isinstance(data.get("league"), int) or not isinstance(data.get("by"), int):
        raise RuleViolation("This is not a valid invite link.", field="token")
    return InviteLink(token, data["league"], data["by"], signed_at + link_ttl())


def invite_link_join(*, user: AbstractBaseUser, token: str) -> Membership:
    """A signed-in user opens a valid invite link and joins its league as a coach (once: again is a no-op).
    A link stops working when the commissioner who made it no longer runs the league."""
    if not user.is_authenticated:
        raise NotPermitted("Sign in (or sign up) to join a league.")
    link = invite_link_read(token=token)
    with transaction.atomic():
        league = League.objects.select_for_update().filter(pk=link.league_id).first()
        issuer_runs = Membership.objects.filter(
            league_id=link.league_id, user_id=link.issued_by_id, role=Membership.Role.COMMISSIONER
        ).exists()
        if league is None or not issuer_runs:
            raise RuleViolation(
                "This invite link is no longer valid: ask the commissioner for a new one.", field="token"
            )
        membership, created = Membership.objects.get_or_create(league=league, user=user, role=Membership.Role.COACH)
        if created:
            JoinRequest.objects.filter(league=league, user=user, state=JoinRequest.State.PENDING).update(
                state=JoinRequest.State.APPROVED, decided_at=timezone.now(), decided_by_id=link.issued_by_id
            )
            audit_record(
                league=league,
                actor=user,
                action="member_joined",
                target=f"user {user.pk} ({user.get_username()})",
                after={"role": Membership.Role.COACH, "via": "invite link", "issued_by": link.issued_by_id},
            )
    return membership


def join_request_create(*, user: AbstractBaseUser, league: League, message: object = "") -> JoinRequest:
    """A signed-in user asks to coach in an invite-only league (an open one he simply joins). Asking again
    while his request waits returns it."""
    if not user.is_authenticated:
        raise NotPermitted("Sign in to ask to join a league.")
    text = message.strip() if isinstance(message, str) else ""
    if len(text) > MESSAGE_MAX:
        raise RuleViolation(f"A message is at most {MESSAGE_MAX} characters.", field="message")
    if league.open_registration:
        raise RuleViolation("This league is open: join it directly, no request needed.")
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league.pk).values_list("pk", flat=True).get()
        if Membership.objects.filter(league=league, user=user, role=Membership.Role.COACH).exists():
            raise JoinConflict("You already coach in this league.")
        pending = JoinRequest.objects.filter(league=league, user=user, state=JoinRequest.State.PENDING).first()
        if pending is not None:
            return pending
        return JoinRequest.objects.create(league=league, user=user, message=text)


def _pending(user: AbstractBaseUser, request_id: int) -> JoinRequest:
    join = (
        JoinRequest.objects.select_for_update(of=("self",))
        .select_related("league", "user")
        .filter(pk=request_id)
        .first()
    )
    if join is None:
        raise RuleViolation("No such request to join.", field="request")
    if not policy.may_invite(user, join.league):
        raise NotPermitted("Only a commissioner of this league decides on requests to join.")
    if join.state != JoinRequest.State.PENDING:
        raise JoinConflict(f"This request was already {join.state}.")
    return join


def join_request_approve(*, user: AbstractBaseUser, request_id: int) -> Membership:
    """The commissioner approves: the user becomes a coach of the league."""
    with transaction.atomic():
        join = _pending(user, request_id)
        membership, _ = Membership.objects.get_or_create(league=join.league, user=join.user, role=Membership.Role.COACH)
        _decide(join, JoinRequest.State.APPROVED, user)
    return membership


def join_request_refuse(*, user: AbstractBaseUser, request_id: int, reason: object = "") -> JoinRequest:
    """The commissioner refuses (a reason is optional, kept in the audit); the user may ask again later."""
    text = reason.strip() if isinstance(reason, str) else ""
    with transaction.atomic():
        join = _pending(user, request_id)
        _decide(join, JoinRequest.State.REFUSED, user, reason=text)
    return join


def _decide(join: JoinRequest, state: str, user: AbstractBaseUser, *, reason: str = "") -> None:
    join.state, join.decided_by, join.decided_at = state, user, timezone.now()
    join.save(update_fields=["state", "decided_by", "decided_at"])
    audit_record(
        league=join.league,
        actor=user,
        action=f"join_{state}",
        target=f"user {join.user_id} ({join.user.get_username()})",
        before={"request": join.pk, "message": join.message},
        after={"state": state},
        reason=reason,
    )
