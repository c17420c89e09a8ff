"""The commissioner's audit trail: every ruling — a house-rule change, a membership change, a
correction, a rejection, a forfeit, a schedule, a season, a gil adjustment — is written here by the service that
makes it, in its own transaction, with who, when, the state before and after, and the reason."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from campaigns import house_rules
from campaigns.errors import RuleViolation
from league.models import AuditEntry, League

#: A commissioner's optional reason for an action (the API takes it as strict text, core/api/fields.py).
REASON_MAX = 500
#: The reason of every act of the league clock (its entries have no actor): matches/clock.py.
LEAGUE_CLOCK = "league clock"


def reason_text(reason: object, *, limit: int = REASON_MAX) -> str:
    """A commissioner's optional reason, stripped; RuleViolation for anything but text of at most `limit` characters."""
    if reason is None:
        return ""
    if not isinstance(reason, str):
        raise RuleViolation("A reason is text.", field="reason")
    text = reason.strip()
    if len(text) > limit:
        raise RuleViolation(f"A reason is at most {limit} characters.", field="reason")
    return text


def reason_with(automatic: str, given: str) -> str:
    """An audit entry's reason when the service says what happened itself: its words, then the commissioner's."""
    return f"{automatic.rstrip('.')}: {given}" if given else automatic


def audit_record(
    *,
    league: League,
    actor: AbstractBaseUser | None,
    action: str,
    target: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEntry:
    """Record one commissioner action (call inside the acting service's transaction, after its checks). `actor`
    None: the league's own clock acted (its reason says so, `LEAGUE_CLOCK`)."""
    return AuditEntry.objects.create(
        league=league,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        target=target,
        before=before,
        after=after,
        reason=reason,
    )


def audit_house_rules(
    *, league: League, actor: AbstractBaseUser, before: dict, target: str, reason: str = ""
) -> AuditEntry | None:
    """Record a change of the league's house rules from the overrides `before` to the league's overrides now
    (saved or not yet): the rules whose values in force changed, with their values before and after (not the
    overrides, which say nothing of what a rule was). No entry when no value in force changed."""
    defaults = league.rules.default_house_rules()
    old, new = house_rules.changes(
        house_rules.merge(defaults, before), house_rules.merge(defaults, league.house_rules_overrides)
    )
    if not old and not new:
        return None
    return audit_record(
        league=league, actor=actor, action="house_rules", target=target, before=old, after=new, reason=reason
    )


def league_audit(*, league: League):
    """The league's audit entries, newest first, with their actors (a queryset: the API pages it)."""
    return AuditEntry.objects.filter(league=league).select_related("actor").order_by("-at", "-id")
