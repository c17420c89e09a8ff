"""The commissioner's desk on the pages: the queue panel with each item's actions in place, each action a view
of its own (the dashboard's first panel, loaded by htmx and a page of its own without it), the audit, invite
links, requests to join, removing a member, reassigning a team and gil adjustments. Thin views over the
services."""

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
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.errors import RuleViolation
from core.pages import refusals
from dugout.queue import league_queue
from dugout.reports.services import report_resend
from dugout.web.views import list_page
from league import joining, policy
from league.audit import league_audit
from league.models import InviteLink, League
from league.policy import may_run_league
from league.selectors import league_for_viewer
from league.services import REMOVED
from matches import disputes, extensions
from matches import services as match_services
from matches.models import Match
from teams import adjustments, members
from teams import transfers as team_transfers
from teams.models import Team

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


def queue_answer(request: HttpRequest, league: League, status: int = 200) -> HttpResponse:
    """After a queue item's action: the panel again (htmx) — answered with the refusal's `status` when the action
    was refused, nothing changed — or back to the dashboard."""
    if request.htmx:
        return render(request, "league/_queue.html", queue_context(league), status=status)
    return redirect("commissioner-dashboard", league_id=league.pk)


@commissioner_page
def desk_queue(request: HttpRequest, league: League) -> HttpResponse:
    """GET: the queue (the dashboard's panel for htmx, a page otherwise), each item's actions posting to a view
    of their own. A POST naming its `action` (a form from a page opened before the actions had URLs of their
    own) is carried out by that action, then the panel again (htmx) or back to the dashboard."""
    if request.method == "POST":
        with refusals(request) as outcome:
            act = QUEUE_ACTIONS.get(request.POST.get("action", ""))
            if act is None:
                raise RuleViolation(_("Unknown action."), field="action")
            messages.success(request, act(request, league))
        return queue_answer(request, league, outcome.status)
    template = "league/_queue.html" if request.htmx else "league/queue.html"
    return render(request, template, queue_context(league))


def _reason(request: HttpRequest) -> str:
    return request.POST.get("reason", "")


def _int(request: HttpRequest, name: str) -> int:
    value = request.POST.get(name, "")
    if not (value.isascii() and value.isdigit()) or len(value) > 18:
        raise RuleViolation(_("Choose the %(name)s.") % {"name": name.replace("_", " ")}, field=name)
    return int(value)


def _match(request: HttpRequest, league: League) -> Match:
    match = Match.objects.filter(pk=_int(request, "match"), league=league).first()
    if match is None:
        raise RuleViolation(_("No such match in this league."), field="match")
    return match


def _transfer(request: HttpRequest, league: League) -> int:
    transfer_id = _int(request, "transfer")
    if not team_transfers.Transfer.objects.filter(pk=transfer_id, from_team__league=league).exists():
        raise RuleViolation(_("No such transfer in this league."), field="transfer")
    return transfer_id


def _join_request(request: HttpRequest, league: League) -> int:
    request_id = _int(request, "join_request")
    if not league.join_requests.filter(pk=request_id).exists():
        raise RuleViolation(_("No such request in this league."), field="join_request")
    return request_id


def queue_action(act):
    """A queue item's action as a view of its own: POST only, by a commissioner of the league (404 for no such
    league, 403 for anyone else); `act` does its one thing and returns its words, flashed — or the refusal,
    in words, with nothing changed — then the panel again (htmx) or back to the dashboard."""

    @require_POST
    @commissioner_page
    @functools.wraps(act)
    def view(request: HttpRequest, league: League) -> HttpResponse:
        with refusals(request) as outcome:
            messages.success(request, act(request, league))
        return queue_answer(request, league, outcome.status)

    return view


def confirm(request: HttpRequest, league: League) -> str:
    """Confirm a result: a disputed one as is (a ruling, with its reason), or one waiting for confirmation."""
    match = _match(request, league)
    if match.status == Match.Status.DISPUTED:
        disputes.match_rule_dispute(
            user=request.user, match_id=match.pk, ruling="confirm", reason=_reason(request), body=None
        )
        return _("Result confirmed as is.")
    match_services.match_confirm(user=request.user, match_id=match.pk)
    return _("Result confirmed.")


def correct(request: HttpRequest, league: League) -> str:
    """Rule on a disputed result by correcting it: the corrected result body (JSON, as the API takes it)."""
    match = _match(request, league)
    if match.status != Match.Status.DISPUTED:
        raise RuleViolation(_("Only a disputed result is corrected from the queue."))
    try:
        body = json.loads(request.POST.get("result", ""))
    except ValueError as exc:
        raise RuleViolation(_("The corrected result is not valid JSON."), field="result") from exc
    disputes.match_rule_dispute(
        user=request.user, match_id=match.pk, ruling="correct", reason=_reason(request), body=body
    )
    return _("Result corrected and confirmed.")


def reject(request: HttpRequest, league: League) -> str:
    """Reject a result, disputed (a ruling) or waiting for confirmation: the match is to be played again."""
    match = _match(request, league)
    if match.status == Match.Status.DISPUTED:
        disputes.match_rule_dispute(
            user=request.user, match_id=match.pk, ruling="reject", reason=_reason(request), body=None
        )
    else:
        match_services.match_reject(user=request.user, match_id=match.pk, reason=_reason(request))
    return _("Result rejected: the match is to be played again.")


def forfeit(request: HttpRequest, league: League) -> str:
    """Record an overdue match as forfeited by the team at fault."""
    match = _match(request, league)
    disputes.match_forfeit(user=request.user, match_id=match.pk, team_id=_int(request, "team"), reason=_reason(request))
    return _("Forfeit recorded.")


def approve_transfer(request: HttpRequest, league: League) -> str:
    team_transfers.transfer_approve(user=request.user, transfer_id=_transfer(request, league))
    return _("Transfer approved: the player has moved.")


def refuse_transfer(request: HttpRequest, league: League) -> str:
    team_transfers.transfer_refuse(user=request.user, transfer_id=_transfer(request, league))
    return _("Transfer refused.")


def approve_join(request: HttpRequest, league: League) -> str:
    membership = joining.join_request_approve(user=request.user, request_id=_join_request(request, league))
    return _("%(username)s coaches in the league now.") % {"username": membership.user.username}


def refuse_join(request: HttpRequest, league: League) -> str:
    joining.join_request_refuse(user=request.user, request_id=_join_request(request, league), reason=_reason(request))
    return _("Request refused.")


def approve_extension(request: HttpRequest, league: League) -> str:
    """Approve a coach's request for more time: the match's deadline moves to the date asked."""
    extensions.extension_approve(user=request.user, match_id=_match(request, league).pk, reason=_reason(request))
    return _("More time given: the match's deadline has moved.")


def refuse_extension(request: HttpRequest, league: League) -> str:
    extensions.extension_refuse(user=request.user, match_id=_match(request, league).pk, reason=_reason(request))
    return _("Request for more time refused.")


def reassign(request: HttpRequest, league: League) -> str:
    """Give a team left without coach to a coach of the league (named by username)."""
    team = Team.objects.filter(pk=_int(request, "team"), league=league).first()
    if team is None:
        raise RuleViolation(_("No such team in this league."), field="team")
    username = request.POST.get("coach", "").strip()
    coach = get_user_model().objects.filter(username=username).first()
    if coach is None:
        raise RuleViolation(_("No user called %(username)r.") % {"username": username}, field="coach")
    members.team_reassign(user=request.user, team_id=team.pk, coach_id=coach.pk, reason=_reason(request))
    return _("%(team)s is coached by %(coach)s now.") % {"team": team.name, "coach": coach.username}


def resend_report(request: HttpRequest, league: League) -> str:
    """Mail again a weekly report whose delivery a killed worker left claimed: only if the row still holds the
    claim the commissioner saw, so a second tap mails nothing."""
    claimed = request.POST.get("claimed", "")
    if report_resend(user=request.user, league=league, delivery_id=_int(request, "delivery"), claimed=claimed):
        return _("The report was mailed again.")
    return _("Nothing to resend: that mail was resent or delivered already.")


#: The queue's actions by the `action` value the forms used to post to the queue itself (see `desk_queue`).
QUEUE_ACTIONS = {
    "confirm": confirm,
    "correct": correct,
    "reject": reject,
    "forfeit": forfeit,
    "approve_transfer": approve_transfer,
    "refuse_transfer": refuse_transfer,
    "approve_join": approve_join,
    "refuse_join": refuse_join,
    "approve_extension": approve_extension,
    "refuse_extension": refuse_extension,
    "reassign": reassign,
    "resend_report": resend_report,
}

#: Each queue action's view (one URL each, dugout/web/urls.py).
queue_confirm = queue_action(confirm)
queue_correct = queue_action(correct)
queue_reject = queue_action(reject)
queue_forfeit = queue_action(forfeit)
queue_approve_transfer = queue_action(approve_transfer)
queue_refuse_transfer = queue_action(refuse_transfer)
queue_approve_join = queue_action(approve_join)
queue_refuse_join = queue_action(refuse_join)
queue_approve_extension = queue_action(approve_extension)
queue_refuse_extension = queue_action(refuse_extension)
queue_reassign = queue_action(reassign)
queue_resend_report = queue_action(resend_report)


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
    with refusals(request):
        teams = members.member_remove(
            user=request.user, league_id=league.pk, member_id=user_id, reason=_reason(request)
        )
        left = f" {len(teams)} team(s) wait for a new coach (see the queue)." if teams else ""
        messages.success(request, f"Member removed.{left}")
    return redirect("commissioner-dashboard", league_id=league.pk)


@require_POST
@commissioner_page
def desk_invite_link(request: HttpRequest, league: League) -> HttpResponse:
    with refusals(request) as refused:
        link = joining.invite_link_create(user=request.user, league=league, reason=_reason(request))
    if refused:
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
    with refusals(request):
        joining.invite_link_revoke(user=request.user, link_id=link_id, reason=_reason(request))
        messages.success(request, "Invite link revoked: it joins nobody now.")
    return redirect("commissioner-dashboard", league_id=league.pk)


def join_by_link(request: HttpRequest, token: str) -> HttpResponse:
    """The page an invite link opens: the league and a Join button (sign in or up first)."""
    with refusals() as refused:
        link = joining.invite_link_read(token=token)
    if refused:
        return render(request, "league/join_link.html", {"error": refused.message}, status=400)
    league = League.objects.filter(pk=link.league_id).first()
    if league is None:
        return render(request, "league/join_link.html", {"error": "This league no longer exists."}, status=404)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        with refusals() as refused:
            joining.invite_link_join(user=request.user, token=token)
        if refused:
            context = {"error": refused.message, "league": league}
            return render(request, "league/join_link.html", context, status=403 if refused.forbidden else 400)
        messages.success(request, f"Welcome to {league.name}: create your team.")
        return redirect("league-detail", pk=league.pk)
    if request.user.is_authenticated and not policy.may_join_unasked(request.user, league):
        # A member the commissioner removed is told at once, not offered a Join button that refuses him.
        return render(request, "league/join_link.html", {"error": gettext(REMOVED), "league": league}, status=403)
    return render(request, "league/join_link.html", {"league": league, "link": link})


@login_required
@require_POST
def ask_to_join(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League, pk=pk)
    with refusals(request):
        joining.join_request_create(user=request.user, league=league, message=request.POST.get("message", ""))
        messages.success(request, "Request sent: the commissioner will answer it.")
    return redirect("league-detail", pk=league.pk)


@login_required
@require_POST
def team_adjust(request: HttpRequest, pk: int) -> HttpResponse:
    """The commissioner's gil adjustment from the team page."""
    team = get_object_or_404(Team, pk=pk)
    amount = request.POST.get("amount", "").strip()
    with refusals(request):
        if not re.fullmatch(r"-?[0-9]{1,12}", amount):
            raise RuleViolation("amount is a whole number of gil (negative takes gil away).", field="amount")
        entry = adjustments.team_adjust(user=request.user, team_id=team.pk, amount=int(amount), reason=_reason(request))
        messages.success(request, f"Adjusted by {entry.amount:+,} gil: the treasury holds {entry.balance_after:,}.")
    return redirect("team-detail", pk=team.pk)
