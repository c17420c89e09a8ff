"""The commissioner's desk on the pages (issue 13): the queue panel with each item's actions in place (the
dashboard's first panel, loaded by htmx and a page of its own without it), the audit, invite links, requests to
join, removing a member, reassigning a team and gil adjustments. Thin views over the services."""

from __future__ import annotations

import functools
import json
import re

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from campaigns.errors import RuleViolation
from league import joining
from league.audit import league_audit
from league.models import InviteLink, League
from league.policy import may_run_league
from league.queue import league_queue
from league.reports import report_resend
from league.selectors import league_for_viewer
from matches import disputes
from matches import services as match_services
from matches.models import Match
from teams import adjustments, members
from teams import transfers as team_transfers
from teams.models import Team

from .views import list_page

#: Audit entries a page of the audit shows, and the dashboard's latest.
AUDIT_PAGE = 25
AUDIT_LATEST = 10


def commissioner_page(view):
    """A desk page: signed in, and a commissioner of the league in the path (404 for no such league, 403 for
    anyone else); the view gets the league (with the viewer's roles) in place of its id."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, league_id: int, **kwargs) -> HttpResponse:
        league = league_for_viewer(pk=league_id, user=request.user)
        if league is None:
            raise Http404("No such league.")
        if not may_run_league(request.user, league):
            return HttpResponseForbidden("Only a commissioner of this league may open its desk.")
        return view(request, league, **kwargs)

    return login_required(wrapper)


def queue_context(league: League) -> dict:
    return {
        "league": league,
        "queue": league_queue(league=league),
        "coachless": list(Team.objects.filter(league=league, coach__isnull=True).order_by("name", "id")),
    }


@commissioner_page
def desk_queue(request: HttpRequest, league: League) -> HttpResponse:
    """GET: the queue (the dashboard's panel for htmx, a page otherwise). POST: one item's action, then the
    panel again (htmx) or back to the dashboard."""
    if request.method == "POST":
        try:
            notice = _act(request, league)
            messages.success(request, notice)
        except RuleViolation as exc:
            messages.error(request, exc.message)
        if not request.htmx:
            return redirect("commissioner-dashboard", league_id=league.pk)
    template = "league/_queue.html" if request.htmx else "league/queue.html"
    return render(request, template, queue_context(league))


def _reason(request: HttpRequest) -> str:
    return request.POST.get("reason", "")


def _int(request: HttpRequest, name: str) -> int:
    value = request.POST.get(name, "")
    if not (value.isascii() and value.isdigit()) or len(value) > 18:
        raise RuleViolation(f"Choose the {name.replace('_', ' ')}.", field=name)
    return int(value)


def _match(request: HttpRequest, league: League) -> Match:
    match = Match.objects.filter(pk=_int(request, "match"), league=league).first()
    if match is None:
        raise RuleViolation("No such match in this league.", field="match")
    return match


def _act(request: HttpRequest, league: League) -> str:
    """Carry out the queue item's action the form names; its words for the message."""
    action, user = request.POST.get("action", ""), request.user
    if action in ("confirm", "correct", "reject"):
        match = _match(request, league)
        if match.status == Match.Status.DISPUTED:
            body = None
            if action == "correct":
                try:
                    body = json.loads(request.POST.get("result", ""))
                except ValueError as exc:
                    raise RuleViolation("The corrected result is not valid JSON.", field="result") from exc
            disputes.match_rule_dispute(user=user, match_id=match.pk, ruling=action, reason=_reason(request), body=body)
            return {
                "confirm": "Result confirmed as is.",
                "correct": "Result corrected and confirmed.",
                "reject": "Result rejected: the match is to be played again.",
            }[action]
        if action == "confirm":
            match_services.match_confirm(user=user, match_id=match.pk)
            return "Result confirmed."
        if action == "reject":
            match_services.match_reject(user=user, match_id=match.pk, reason=_reason(request))
            return "Result rejected: the match is to be played again."
        raise RuleViolation("Only a disputed result is corrected from the queue.")
    if action == "resend_report":
        delivery = _int(request, "delivery")
        claimed = request.POST.get("claimed", "")
        if report_resend(user=user, league=league, delivery_id=delivery, claimed=claimed):
            return gettext("The report was mailed again.")
        return gettext("Nothing to resend: that mail was resent or delivered already.")
    if action == "forfeit":
        match = _match(request, league)
        disputes.match_forfeit(user=user, match_id=match.pk, team_id=_int(request, "team"), reason=_reason(request))
        return "Forfeit recorded."
    if action in ("approve_transfer", "refuse_transfer"):
        transfer_id = _int(request, "transfer")
        if not team_transfers.Transfer.objects.filter(pk=transfer_id, from_team__league=league).exists():
            raise RuleViolation("No such transfer in this league.", field="transfer")
        if action == "approve_transfer":
            team_transfers.transfer_approve(user=user, transfer_id=transfer_id)
            return "Transfer approved: the player has moved."
        team_transfers.transfer_refuse(user=user, transfer_id=transfer_id)
        return "Transfer refused."
    if action in ("approve_join", "refuse_join"):
        request_id = _int(request, "join_request")
        if not league.join_requests.filter(pk=request_id).exists():
            raise RuleViolation("No such request in this league.", field="join_request")
        if action == "approve_join":
            membership = joining.join_request_approve(user=user, request_id=request_id)
            return f"{membership.user.username} coaches in the league now."
        joining.join_request_refuse(user=user, request_id=request_id, reason=_reason(request))
        return "Request refused."
    if action == "reassign":
        team = Team.objects.filter(pk=_int(request, "team"), league=league).first()
        if team is None:
            raise RuleViolation("No such team in this league.", field="team")
        username = request.POST.get("coach", "").strip()
        coach = get_user_model().objects.filter(username=username).first()
        if coach is None:
            raise RuleViolation(f"No user called {username!r}.", field="coach")
        members.team_reassign(user=user, team_id=team.pk, coach_id=coach.pk, reason=_reason(request))
        return f"{team.name} is coached by {coach.username} now."
    raise RuleViolation("Unknown action.", field="action")


@commissioner_page
def desk_audit(request: HttpRequest, league: League) -> HttpResponse:
    """The league's audit, newest first, in pages (`?latest` for htmx: the dashboard's panel of the latest)."""
    if request.htmx and "latest" in request.GET:
        entries = list(league_audit(league=league)[:AUDIT_LATEST])
        return render(request, "league/_audit_latest.html", {"league": league, "entries": entries})
    page = list_page(request, Paginator(league_audit(league=league), AUDIT_PAGE))
    return render(request, "league/audit.html", {"league": league, "entries": page.object_list, "page": page})


@require_POST
@commissioner_page
def desk_member_remove(request: HttpRequest, league: League, user_id: int) -> HttpResponse:
    try:
        teams = members.member_remove(
            user=request.user, league_id=league.pk, member_id=user_id, reason=_reason(request)
        )
        left = f" {len(teams)} team(s) wait for a new coach (see the queue)." if teams else ""
        messages.success(request, f"Member removed.{left}")
    except RuleViolation as exc:
        messages.error(request, exc.message)
    return redirect("commissioner-dashboard", league_id=league.pk)


@require_POST
@commissioner_page
def desk_invite_link(request: HttpRequest, league: League) -> HttpResponse:
    try:
        link = joining.invite_link_create(user=request.user, league=league, reason=_reason(request))
    except RuleViolation as exc:
        messages.error(request, exc.message)
        return redirect("commissioner-dashboard", league_id=league.pk)
    url = request.build_absolute_uri(reverse("join-by-link", args=[link.token]))
    request.session["invite_link"] = {"url": url, "expires_at": link.expires_at.isoformat()}
    messages.success(request, f"Invite link made, valid until {link.expires_at:%Y-%m-%d %H:%M} UTC.")
    return redirect("commissioner-dashboard", league_id=league.pk)


#: The newest invite links the dashboard's members panel lists; the page lists them all, in pages.
INVITE_LINKS_SHOWN = 10


@commissioner_page
def desk_invite_links(request: HttpRequest, league: League) -> HttpResponse:
    """The league's invite links, newest first, with their uses and a Revoke button: the dashboard's members
    panel loads the newest by htmx (the dashboard's own queries stay within its budget), a page lists them all."""
    links = league.invite_links.select_related("created_by").order_by("-created_at", "-id")
    if request.htmx:
        shown = list(links[: INVITE_LINKS_SHOWN + 1])
        context = {
            "league": league,
            "invite_links": shown[:INVITE_LINKS_SHOWN],
            "more": len(shown) > INVITE_LINKS_SHOWN,
        }
        return render(request, "league/_invite_links.html", context)
    page = list_page(request, Paginator(links, AUDIT_PAGE))
    return render(
        request, "league/invite_links.html", {"league": league, "invite_links": page.object_list, "page": page}
    )


@require_POST
@commissioner_page
def desk_invite_link_revoke(request: HttpRequest, league: League, link_id: int) -> HttpResponse:
    get_object_or_404(InviteLink, pk=link_id, league=league)
    try:
        joining.invite_link_revoke(user=request.user, link_id=link_id, reason=_reason(request))
        messages.success(request, "Invite link revoked: it joins nobody now.")
    except RuleViolation as exc:
        messages.error(request, exc.message)
    return redirect("commissioner-dashboard", league_id=league.pk)


def join_by_link(request: HttpRequest, token: str) -> HttpResponse:
    """The page an invite link opens: the league and a Join button (sign in or up first)."""
    try:
        link = joining.invite_link_read(token=token)
    except RuleViolation as exc:
        return render(request, "league/join_link.html", {"error": exc.message}, status=400)
    league = League.objects.filter(pk=link.league_id).first()
    if league is None:
        return render(request, "league/join_link.html", {"error": "This league no longer exists."}, status=404)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        try:
            joining.invite_link_join(user=request.user, token=token)
        except RuleViolation as exc:
            return render(request, "league/join_link.html", {"error": exc.message, "league": league}, status=400)
        messages.success(request, f"Welcome to {league.name}: create your team.")
        return redirect("league-detail", pk=league.pk)
    return render(request, "league/join_link.html", {"league": league, "link": link})


@login_required
@require_POST
def ask_to_join(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League, pk=pk)
    try:
        joining.join_request_create(user=request.user, league=league, message=request.POST.get("message", ""))
        messages.success(request, "Request sent: the commissioner will answer it.")
    except RuleViolation as exc:
        messages.error(request, exc.message)
    return redirect("league-detail", pk=league.pk)


@login_required
@require_POST
def team_adjust(request: HttpRequest, pk: int) -> HttpResponse:
    """The commissioner's gil adjustment from the team page."""
    team = get_object_or_404(Team, pk=pk)
    amount = request.POST.get("amount", "").strip()
    try:
        if not re.fullmatch(r"-?[0-9]{1,12}", amount):
            raise RuleViolation("amount is a whole number of gil (negative takes gil away).", field="amount")
        entry = adjustments.team_adjust(user=request.user, team_id=team.pk, amount=int(amount), reason=_reason(request))
        messages.success(request, f"Adjusted by {entry.amount:+,} gil: the treasury holds {entry.balance_after:,}.")
    except RuleViolation as exc:
        messages.error(request, exc.message)
    return redirect("team-detail", pk=team.pk)
