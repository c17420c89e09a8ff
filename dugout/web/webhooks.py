"""The commissioner's webhooks panel: the dashboard loads it by htmx (a page of its own without it);
it lists the league's hooks with their last delivery's status and offers the forms to add, disable, re-enable
and delete them. Thin views over league/webhooks/services.py (gated by the policy there and by the desk)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from campaigns.errors import RuleViolation
from core.pages import refusals
from dugout.web.desk import commissioner_page
from league.models import League, Webhook
from league.models.webhooks import EVENTS
from league.webhooks import services


def _number(value: str | None) -> int | None:
    return int(value) if value and value.isascii() and value.isdigit() and len(value) < 19 else None


def _act(request: HttpRequest, league: League) -> str:
    post, action = request.POST, request.POST.get("action")
    if action == "create":
        hook = services.webhook_create(
            user=request.user,
            league_id=league.pk,
            url=post.get("url", ""),
            kind=post.get("kind", ""),
            events=post.getlist("events"),
        )
        suffix = f" Its signing secret (shown once): {hook.secret}" if hook.kind == Webhook.Kind.JSON else ""
        return f"Webhook added.{suffix}"
    hook_id = _number(post.get("hook"))
    if action in ("disable", "enable"):
        services.webhook_set_enabled(
            user=request.user, league_id=league.pk, hook_id=hook_id, enabled=action == "enable"
        )
        return f"Webhook {action}d."
    if action == "delete":
        services.webhook_delete(user=request.user, league_id=league.pk, hook_id=hook_id)
        return "Webhook deleted."
    raise RuleViolation("Unknown action.", field="action")


@commissioner_page
def desk_webhooks(request: HttpRequest, league: League) -> HttpResponse:
    """GET: the webhooks panel (htmx) or page. POST: one of its forms, then the panel again or the dashboard."""
    status = 200
    if request.method == "POST":
        with refusals(request) as outcome:
            messages.success(request, _act(request, league))
        if not request.htmx:
            return redirect("commissioner-dashboard", league_id=league.pk)
        status = outcome.status  # the panel again: with the refusal in words, nothing was changed
    context = {
        "league": league,
        "hooks": services.league_webhooks(league=league),
        "kinds": Webhook.Kind.choices,
        "events": EVENTS,
    }
    template = "league/_webhooks.html" if request.htmx else "league/webhooks.html"
    return render(request, template, context, status=status)
