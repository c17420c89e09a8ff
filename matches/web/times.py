"""`/matches/<id>/times/`: the match's agreed time and the coaches' proposals. The
match page loads it as a panel (htmx); without JavaScript it is a page of its own. The form's date and time
are read in the league's time zone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from core.pages import refusals
from matches import policy, times
from matches.models import Match, TimeProposal
from matches.web.common import refused


def _local(value: str, tz: str) -> datetime | None:
    """A `datetime-local` field ("2026-12-05T19:30") as an aware moment in the league's time zone."""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo(tz))


def _post(request: HttpRequest, match: Match) -> str | None:
    """Run the form's action; the message to show, or None (the action done)."""
    if request.POST.get("action") == "accept":
        proposal = request.POST.get("proposal", "")
        if not proposal.isascii() or not proposal.isdigit():
            return "Choose a proposal to accept."
        times.match_time_accept(user=request.user, match_id=match.pk, proposal_id=int(proposal))
        messages.success(request, "Time agreed: it is the match's scheduled time.")
        return None
    at = _local(request.POST.get("at", ""), match.league.timezone)
    if at is None:
        return "Give a date and time."
    times.match_time_propose(user=request.user, match_id=match.pk, at=at)
    messages.success(request, "Time proposed: the other coach accepts it or proposes another.")
    return None


def match_times(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("league").prefetch_related("sides__team"), pk=pk)
    error = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("login")
        with refusals(forbidden_page=True) as outcome:
            error = _post(request, match)
        if outcome.forbidden:
            return refused(request, outcome.message)
        error = outcome.message or error
        if error is None and not request.htmx:
            return redirect("match-detail", pk=pk)
        match = get_object_or_404(Match.objects.select_related("league").prefetch_related("sides__team"), pk=pk)
    proposals = times.match_time_proposals(match=match)
    open_one = next((p for p in proposals if p.state == TimeProposal.State.OPEN), None)
    playable = match.status == Match.Status.SCHEDULED
    context = {
        "match": match,
        "tz": match.league.timezone,
        "proposals": proposals,
        "open": open_one,
        "may_propose": playable and policy.may_propose_time(request.user, match),
        "may_accept": playable
        and open_one is not None
        and policy.may_accept_time(request.user, match, open_one.team_id),
        "error": error,
        "names": {side.team_id: side.team.name for side in match.sides.all()},
    }
    return render(
        request, "matches/_times.html" if request.htmx else "matches/times.html", context, status=400 if error else 200
    )
