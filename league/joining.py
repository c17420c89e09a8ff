"""Joining a league: invite links — a signed, expiring URL a new coach opens to join,
with no username typed — and requests to join an invite-only league, which the commissioner approves or
refuses. Every commissioner decision, and every join through a link, is in the league's audit."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from campaigns.errors import Conflict, NotPermitted, RuleViolation
from league import notices, policy
from league.audit import audit_record, reason_text
from league.member_removals import removal_clear
from league.models import JoinRequest, League, Membership
from league.models.invite_links import InviteLink, LinkSigner
from league.services import REMOVED

#: How long an invite link opens the league (house default 7 days; settings INVITE_LINK_TTL, a timedelta).
DEFAULT_TTL = dt.timedelta(days=7)
MESSAGE_MAX = 500


def link_ttl() -> dt.timedelta:
    return getattr(settings, "INVITE_LINK_TTL", DEFAULT_TTL)


class JoinConflict(Conflict):
    """A join that cannot happen as things stand (answered 409)."""


def invite_link_create(*, user: AbstractBaseUser, league: League, reason: object = "") -> InviteLink:
    """The commissioner makes an invite link to his league (a coach's place for whoever opens it in time): a
    stored row (listed, counted, revocable) whose token the URL carries."""
    if not policy.may_invite(user, league):
        raise NotPermitted("Only a commissioner of this league may make an invite link.")
    text = reason_text(reason)
    # Whole seconds, read where the signer reads them: the token's signed timestamp is the row's created_at.
    now = dt.datetime.fromtimestamp(int(signing.time.time()), tz=dt.UTC)
    with transaction.atomic():
        link = InviteLink.objects.create(league=league, created_by=user, created_at=now, expires_at=now + link_ttl())
        audit_record(
            league=league,
            actor=user,
            action="invite_link",
            target=f"invite link {link.pk}",
            after={"expires_at": link.expires_at.isoformat()},
            reason=text,
        )
    return link


def invite_link_read(*, token: object, lock: bool = False) -> InviteLink:
    """The stored link a token opens; RuleViolation (in words) for a token that is forged, mangled or expired, or
    whose link the commissioner revoked. The signature and the row are both checked."""
    if not isinstance(token, str) or not token:
        raise RuleViolation("This is not a valid invite link.", field="token")
    try:
        data = LinkSigner().unsign_object(token, max_age=link_ttl())
    except signing.SignatureExpired as exc:
        raise RuleViolation("This invite link has expired: ask the commissioner for a new one.", field="token") from exc
    except (signing.BadSignature, ValueError, TypeError, IndexError) as exc:
        raise RuleViolation("This is not a valid invite link.", field="token") from exc
    if not isinstance(data, dict) or not all(isinstance(data.get(k), int) for k in ("league", "by", "link")):
        raise RuleViolation("This is not a valid invite link.", field="token")
    rows = InviteLink.objects.filter(pk=data["link"], league_id=data["league"], created_by_id=data["by"])
    link = (rows.select_for_update() if lock else rows).first()
    if link is None:
        raise RuleViolation("This is not a valid invite link.", field="token")
    state = link.state
    if state == InviteLink.State.REVOKED:
        raise RuleViolation("The commissioner revoked this invite link: ask for a new one.", field="token")
    if state == InviteLink.State.EXPIRED:
        raise RuleViolation("This invite link has expired: ask the commissioner for a new one.", field="token")
    return link


def invite_link_revoke(*, user: AbstractBaseUser, link_id: int, reason: object = "") -> InviteLink:
    """The commissioner revokes an invite link of his league: it joins nobody from now on (audited, with the
    reason given). Revoking a revoked link changes nothing."""
    with transaction.atomic():
        link = InviteLink.objects.select_for_update(of=("self",)).select_related("league").filter(pk=link_id).first()
        if link is None or not policy.may_invite(user, link.league):
            raise NotPermitted("Only a commissioner of this league may revoke its invite links.")
        text = reason_text(reason)
        if link.revoked_at is not None:
            return link
        link.revoked_at, link.revoked_by = timezone.now(), user
        link.save(update_fields=["revoked_at", "revoked_by"])
        audit_record(
            league=link.league,
            actor=user,
            action="invite_link_revoked",
            target=f"invite link {link.pk}",
            before={"uses": link.uses, "expires_at": link.expires_at.isoformat()},
            after={"revoked_at": link.revoked_at.isoformat()},
            reason=text,
        )
    return link


def invite_link_join(*, user: AbstractBaseUser, token: str) -> Membership:
    """A signed-in user opens a valid invite link and joins its league as a coach (once: again is a no-op).
    A link stops working when the commissioner who made it no longer runs the league, or revokes it. A member
    the commissioner removed is refused (403): a link is for whoever opens it, and he comes back only at the
    commissioner's word about him (an invitation, an approved request)."""
    if not user.is_authenticated:
        raise NotPermitted("Sign in (or sign up) to join a league.")
    with transaction.atomic():
        link = invite_link_read(token=token, lock=True)  # under the row's lock: a revoke waits, or went first
        league = League.objects.select_for_update().filter(pk=link.league_id).first()
        issuer_runs = Membership.objects.filter(
            league_id=link.league_id, user_id=link.created_by_id, role=Membership.Role.COMMISSIONER
        ).exists()
        if league is None or not issuer_runs:
            raise RuleViolation(
                "This invite link is no longer valid: ask the commissioner for a new one.", field="token"
            )
        if not policy.may_join_unasked(user, league):
            # A link is for whoever opens it, not the commissioner's word about a member he removed.
            raise NotPermitted(gettext(REMOVED))
        membership, created = Membership.objects.get_or_create(league=league, user=user, role=Membership.Role.COACH)
        if created:
            InviteLink.objects.filter(pk=link.pk).update(uses=F("uses") + 1)
            JoinRequest.objects.filter(league=league, user=user, state=JoinRequest.State.PENDING).update(
                state=JoinRequest.State.APPROVED, decided_at=timezone.now(), decided_by_id=link.created_by_id
            )
            audit_record(
                league=league,
                actor=user,
                action="member_joined",
                target=f"user {user.pk} ({user.get_username()})",
                after={
                    "role": Membership.Role.COACH,
                    "via": "invite link",
                    "link": link.pk,
                    "issued_by": link.created_by_id,
                },
            )
    return membership


def join_request_create(*, user: AbstractBaseUser, league: League, message: object = "") -> JoinRequest:
    """A signed-in user asks to coach in an invite-only league (an open one he simply joins, unless its
    commissioner removed him: then he asks too). Asking again while his request waits returns it."""
    if not user.is_authenticated:
        raise NotPermitted("Sign in to ask to join a league.")
    text = message.strip() if isinstance(message, str) else ""
    if len(text) > MESSAGE_MAX:
        raise RuleViolation(f"A message is at most {MESSAGE_MAX} characters.", field="message")
    # A member the commissioner removed may not join an open league directly: he asks, as in an invite-only one.
    if league.open_registration and policy.may_join_unasked(user, league):
        raise RuleViolation("This league is open: join it directly, no request needed.")
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league.pk).values_list("pk", flat=True).get()
        if Membership.objects.filter(league=league, user=user, role=Membership.Role.COACH).exists():
            raise JoinConflict("You already coach in this league.")
        pending = JoinRequest.objects.filter(league=league, user=user, state=JoinRequest.State.PENDING).first()
        if pending is not None:
            return pending  # asked again: the commissioners were told the first time
        join = JoinRequest.objects.create(league=league, user=user, message=text)
        notices.join_request(join, league=league, actor=user)
        return join


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
        # The commissioner's word about this very user: a removal no longer keeps him out.
        removal_clear(league_id=join.league_id, user_id=join.user_id)
        _decide(join, JoinRequest.State.APPROVED, user)
    return membership


def join_request_refuse(*, user: AbstractBaseUser, request_id: int, reason: object = "") -> JoinRequest:
    """The commissioner refuses (a reason is optional, kept in the audit); the user may ask again later."""
    text = reason_text(reason)
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
