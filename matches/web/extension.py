"""`/matches/<id>/extension/`: a coach's request for more time. The match page loads it as a panel (htmx) while
the match is undecided and has a deadline; without JavaScript it is a page of its own. It shows the request that
waits for the commissioner, or (to a coach of the match) a small form — the new deadline, read in the league's
time zone, and the reason."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core.pages import refusals
from matches import extensions, lifecycle, policy
from matches.models import Match
from matches.web.common import refused


def _local(value: str, tz: str) -> datetime | None:
    """A `datetime-local` field ("2026-12-05T19:30") as an aware moment in the league's time zone."""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo(tz))


def _match(pk: int) -> Match:
    return get_object_or_404(Match.objects.select_related("league").prefetch_related("sides__team"), pk=pk)


def match_extension(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    error, status = "", 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("login")
        until = _local(request.POST.get("until", ""), match.league.timezone)
        with refusals(forbidden_page=True) as outcome:
            extensions.extension_request(
                user=request.user, match_id=match.pk, until=until, reason=request.POST.get("reason", "")
            )
            messages.success(request, _("Request sent: the commissioner approves or refuses it."))
        if outcome.forbidden:
            return refused(request, outcome.message)
        error, status = outcome.message, outcome.status
        if not error and not request.htmx:
            return redirect("match-detail", pk=pk)
    pending = extensions.match_pending_extension(match=match)
    context = {
        "match": match,
        "tz": match.league.timezone,
        "pending": pending,
        "may_ask": pending is None
        and match.status in lifecycle.OPEN
        and match.deadline is not None
        and policy.may_request_extension(request.user, match),
        "error": error,
        "values": request.POST if error else {},
    }
    template = "matches/_extension.html" if request.htmx else "matches/extension.html"
    return render(request, template, context, status=status)
