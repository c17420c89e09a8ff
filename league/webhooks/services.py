"""The commissioner's webhook writes (each takes the acting `user`, is gated by the policy, audited with a
reason) and the reads the dashboard and the API share."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import OuterRef, Subquery

from campaigns.errors import NotPermitted, RuleViolation
from league.audit import audit_record
from league.models import League
from league.models.webhooks import EVENTS, URL_LENGTH, Webhook, WebhookDelivery
from league.policy import may_run_league
from league.webhooks.guard import url_check

#: A league's hooks (a typo guard: each event is posted to every one).
MAX_HOOKS = 10
REASON_MAX = 255


def _league(league_id: int, user: AbstractBaseUser) -> League:
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise RuleViolation("No such league.", field="league")
    if not may_run_league(user, league):
        raise NotPermitted("Only the league's commissioner manages its webhooks.")
    return league


def _hook(league: League, hook_id: object) -> Webhook:
    if isinstance(hook_id, bool) or not isinstance(hook_id, int):
        raise RuleViolation("Name the webhook by its id.", field="hook")
    hook = Webhook.objects.filter(league=league, pk=hook_id).first()
    if hook is None:
        raise RuleViolation("No such webhook in this league.", field="hook")
    return hook


def _events(events: object) -> list[str]:
    if not isinstance(events, list | tuple) or not events or not all(isinstance(e, str) for e in events):
        raise RuleViolation(f"List the events, from {', '.join(EVENTS)}.", field="events")
    unknown = sorted(set(events) - set(EVENTS))
    if unknown:
        raise RuleViolation(f"Unknown event(s) {', '.join(unknown)}: from {', '.join(EVENTS)}.", field="events")
    return [e for e in EVENTS if e in events]


def _reason(reason: object, default: str) -> str:
    if reason is None or reason == "":
        return default
    if not isinstance(reason, str) or not reason.strip() or len(reason.strip()) > REASON_MAX:
        raise RuleViolation(f"A reason is text of at most {REASON_MAX} characters.", field="reason")
    return reason.strip()


def webhook_create(
    *, user: AbstractBaseUser, league_id: int, url: object, kind: object, events: object, reason: object = None
) -> Webhook:
    """A new hook (its secret made here, shown once); the URL must be public (guard.url_check)."""
    with transaction.atomic():
        league = _league(league_id, user)
        if kind not in Webhook.Kind.values:
            raise RuleViolation("The kind is one of discord, slack, json.", field="kind")
        if isinstance(url, str) and len(url.strip()) > URL_LENGTH:
            raise RuleViolation(f"A webhook URL is at most {URL_LENGTH} characters.", field="url")
        chosen = _events(events)
        checked = url_check(url)
        if Webhook.objects.filter(league=league).count() >= MAX_HOOKS:
            raise RuleViolation(f"A league has at most {MAX_HOOKS} webhooks.", field="url")
        hook = Webhook.objects.create(
            league=league, url=checked, kind=kind, events=chosen, secret=secrets.token_hex(32)
        )
        audit_record(
            league=league,
            actor=user,
            action="webhook",
            target=f"webhook {hook.pk}",
            after={"url": hook.url, "kind": hook.kind, "events": chosen},
            reason=_reason(reason, "webhook added"),
        )
    return hook


def webhook_delete(*, user: AbstractBaseUser, league_id: int, hook_id: object, reason: object = None) -> None:
    with transaction.atomic():
        league = _league(league_id, user)
        hook = _hook(league, hook_id)
        audit_record(
            league=league,
            actor=user,
            action="webhook",
            target=f"webhook {hook.pk}",
            before={"url": hook.url, "kind": hook.kind, "events": hook.events},
            reason=_reason(reason, "webhook deleted"),
        )
        hook.delete()


def webhook_set_enabled(
    *, user: AbstractBaseUser, league_id: int, hook_id: object, enabled: object, reason: object = None
) -> Webhook:
    """Disable or re-enable a hook (re-enabling clears its 404/410 streak): `webhook_update` of `enabled`."""
    return webhook_update(user=user, league_id=league_id, hook_id=hook_id, enabled=enabled, reason=reason)


#: A field `webhook_update` was not given (None is a value a caller may send, and is refused).
UNCHANGED: object = object()


def webhook_update(
    *,
    user: AbstractBaseUser,
    league_id: int,
    hook_id: object,
    url: object = UNCHANGED,
    kind: object = UNCHANGED,
    events: object = UNCHANGED,
    enabled: object = UNCHANGED,
    reason: object = None,
) -> Webhook:
    """Change what is given of a hook, the rest as it is (the API's PATCH), each field checked as when a hook is
    made — the URL by the same guard. A new URL starts the hook afresh: its 404/410 streak is cleared (the old
    receiver's answers say nothing of the new one), as re-enabling clears it. Audited with the fields that
    changed, before and after; when nothing differs nothing is written. Bad input changes nothing."""
    if enabled is not UNCHANGED and not isinstance(enabled, bool):
        raise RuleViolation("`enabled` is true or false.", field="enabled")
    with transaction.atomic():
        league = _league(league_id, user)
        hook = _hook(league, hook_id)
        given = {}
        if url is not UNCHANGED:
            if isinstance(url, str) and len(url.strip()) > URL_LENGTH:
                raise RuleViolation(f"A webhook URL is at most {URL_LENGTH} characters.", field="url")
            given["url"] = url_check(url)
        if kind is not UNCHANGED:
            if kind not in Webhook.Kind.values:
                raise RuleViolation("The kind is one of discord, slack, json.", field="kind")
            given["kind"] = kind
        if events is not UNCHANGED:
            given["events"] = _events(events)
        if enabled is not UNCHANGED:
            given["enabled"] = enabled
        changed = {field: value for field, value in given.items() if getattr(hook, field) != value}
        text = _reason(reason, _update_words(changed))
        fresh = "url" in changed or given.get("enabled") is True
        if not changed and not (fresh and hook.gone_streak):
            return hook
        before = {field: getattr(hook, field) for field in changed}
        for field, value in changed.items():
            setattr(hook, field, value)
        if fresh:
            hook.gone_streak = 0
        hook.save(update_fields=[*changed, *(["gone_streak"] if fresh else [])])
        if changed:
            audit_record(
                league=league,
                actor=user,
                action="webhook",
                target=f"webhook {hook.pk}",
                before=before,
                after=changed,
                reason=text,
            )
    return hook


def _update_words(changed: dict) -> str:
    if set(changed) == {"enabled"}:
        return "webhook enabled" if changed["enabled"] else "webhook disabled"
    return "webhook changed"


def league_webhooks(*, league: League) -> list[Webhook]:
    """The league's hooks with their last delivery's status and code (one query)."""
    last = WebhookDelivery.objects.filter(hook=OuterRef("pk")).order_by("-created_at", "-id")
    return list(
        Webhook.objects.filter(league=league)
        .annotate(last_status=Subquery(last.values("status")[:1]), last_code=Subquery(last.values("response_code")[:1]))
        .order_by("created_at", "id")
    )


def hook_deliveries(*, hook: Webhook):
    """The hook's deliveries, newest first (a queryset: the API pages it)."""
    return WebhookDelivery.objects.filter(hook=hook).order_by("-created_at", "-id")
