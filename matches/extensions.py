"""Requests for more time: a coach of a match still to be decided asks for a later deadline, with a reason; the
commissioner approves it (the match's deadline moves to the date asked, in the league's audit) or refuses it.
One request waits per match at a time. The league clock leaves a match alone while its request waits
(matches/clock_acts.py), and a moved deadline is simply the match's deadline: reminders, overdue and the clock's
forfeit all read it."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.errors import Conflict, NotPermitted, RuleViolation
from league.audit import audit_record, reason_text
from league.models import Membership, league_activity_changed
from notifications.writer import notify

from . import lifecycle, policy
from .models import Extension, Match

#: A request's reason: words, long enough to say why, short enough for the queue.
REASON_MAX = 2000


def _locked(match_id: int) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("league")
        .prefetch_related("sides__team")
        .get(pk=match_id)
    )


def _names(match: Match) -> str:
    return " v ".join(side.team.name for side in match.sides.all())


def _local(moment: datetime, tz: str) -> str:
    return f"{moment.astimezone(ZoneInfo(tz)):%Y-%m-%d %H:%M} ({tz})"


def match_pending_extension(*, match: Match) -> Extension | None:
    """The match's request for more time waiting for the commissioner, with who asked, or None (one query)."""
    return Extension.objects.filter(match=match, state=Extension.State.PENDING).select_related("requested_by").first()


def extension_request(*, user: AbstractBaseUser, match_id: int, until: object, reason: object) -> Extension:
    """A coach of the match asks for its deadline to move to `until` (later than the deadline now), saying why:
    refused for a match that is final or has no deadline, and while another request waits (a Conflict). The
    league's commissioners are told."""
    text = reason_text(reason, limit=REASON_MAX)
    if not text:
        raise RuleViolation(_("Say why you need more time."), field="reason")
    if not isinstance(until, datetime) or timezone.is_naive(until):
        raise RuleViolation(_("Give the new deadline as a date and time."), field="until")
    with transaction.atomic():
        match = _locked(match_id)
        if not policy.may_request_extension(user, match):
            raise NotPermitted(_("Only a coach of this match can ask for more time."))
        if match.status not in lifecycle.OPEN:
            raise RuleViolation(_("This match is decided: its deadline no longer matters."))
        if match.deadline is None:
            raise RuleViolation(_("This match has no deadline to move."), field="until")
        if until <= match.deadline:
            raise RuleViolation(
                _("The new deadline must be after the current one, %(deadline)s.")
                % {"deadline": _local(match.deadline, match.league.timezone)},
                field="until",
            )
        if Extension.objects.filter(match=match, state=Extension.State.PENDING).exists():
            raise Conflict(_("A request for more time already waits for the commissioner."))
        extension = Extension.objects.create(match=match, requested_by=user, until=until, reason=text)
        commissioners = Membership.objects.filter(league_id=match.league_id, role=Membership.Role.COMMISSIONER)
        notify(
            "extension_requested",
            recipients=commissioners.values_list("user_id", flat=True),
            actor=user,
            text=_("%(league)s: %(user)s asks for more time for %(teams)s, until %(until)s: %(reason)s")
            % {
                "league": match.league.name,
                "user": user.get_username(),
                "teams": _names(match),
                "until": _local(until, match.league.timezone),
                "reason": text,
            },
            url=reverse("desk-queue", args=[match.league_id]),
            league=match.league,
            match=match,
        )
    return extension


def extension_approve(*, user: AbstractBaseUser, match_id: int, reason: object = "") -> Extension:
    """The commissioner approves the match's waiting request: its deadline moves to the date asked (audited,
    with his optional reason); the coaches are told."""
    return _decide(user=user, match_id=match_id, reason=reason, approve=True)


def extension_refuse(*, user: AbstractBaseUser, match_id: int, reason: object = "") -> Extension:
    """The commissioner refuses the match's waiting request (audited, with his optional reason); the coach who
    asked is told."""
    return _decide(user=user, match_id=match_id, reason=reason, approve=False)


def _decide(*, user: AbstractBaseUser, match_id: int, reason: object, approve: bool) -> Extension:
    text = reason_text(reason, limit=REASON_MAX)
    with transaction.atomic():
        match = _locked(match_id)
        if not policy.may_decide_extension(user, match):
            raise NotPermitted(_("Only the commissioner decides a request for more time."))
        extension = (
            Extension.objects.select_for_update(of=("self",))
            .filter(match=match, state=Extension.State.PENDING)
            .select_related("requested_by")
            .first()
        )
        if extension is None:
            raise Conflict(_("No request for more time waits for this match: it was decided already."))
        before = match.deadline
        if approve:
            if match.status not in lifecycle.OPEN:
                raise Conflict(_("This match is decided: refuse the request, its deadline no longer matters."))
            if before is not None and extension.until <= before:
                raise Conflict(_("The match's deadline is already later than the date asked: refuse the request."))
            match.deadline = extension.until
            match.save(update_fields=["deadline"])
            league_activity_changed(match.league_id)  # the fixture's deadline on the league page
        extension.state = Extension.State.APPROVED if approve else Extension.State.REFUSED
        extension.decided_by, extension.decided_at, extension.decision_reason = user, timezone.now(), text
        extension.save(update_fields=["state", "decided_by", "decided_at", "decision_reason"])
        audit_record(
            league=match.league,
            actor=user,
            action="extension",
            target=f"match {match.pk}",
            before={"deadline": before.isoformat() if before else None},
            after={"state": extension.state, "deadline": match.deadline.isoformat() if match.deadline else None},
            reason=text,
        )
        words = {
            "league": match.league.name,
            "user": user.get_username(),
            "teams": _names(match),
            "until": _local(extension.until, match.league.timezone),
        }
        if approve:
            recipients = [side.team.coach_id for side in match.sides.all()] + [extension.requested_by_id]
            said = _("%(league)s: %(user)s gave %(teams)s more time: the deadline is now %(until)s.") % words
        else:
            recipients = [extension.requested_by_id]
            said = _("%(league)s: %(user)s refused more time for %(teams)s (until %(until)s).") % words
        notify(
            "extension_decided",
            recipients=recipients,
            actor=user,
            text=said,
            url=reverse("match-detail", args=[match.pk]),
            league=match.league,
            match=match,
        )
    return extension
