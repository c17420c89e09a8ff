"""The commissioner's dashboard (`/commissioner/<league id>/`): members and invitations, house rules,
stadiums and the weekly report's settings."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from core.pages import refusals
from dugout.web.forms import HouseRulesForm, MemberForm, ReportSettingsForm, StadiumForm
from dugout.web.views import list_page
from league import joining
from league import services as league_services
from league.policy import may_invite, may_run_league
from league.selectors import league_for_viewer, league_invitations_pending, league_members, report_list

#: Members a page of the dashboard lists.
MEMBERS_PAGE = 50


@login_required
def commissioner_dashboard(request: HttpRequest, league_id: int) -> HttpResponse:
    """The commissioner's desk: members, house rules and stadiums (the Commissioner's word is LAW)."""
    league = league_for_viewer(pk=league_id, user=request.user)  # its stadiums and the viewer's roles, one query
    if league is None:
        raise Http404("No such league.")
    if not may_run_league(request.user, league):
        return HttpResponseForbidden("Only a commissioner of this league may open its dashboard.")
    member_form = MemberForm(prefix="member")
    rules_form = HouseRulesForm(prefix="rules", initial={"overrides": league.house_rules_overrides})
    stadium_form = StadiumForm(prefix="stadium")
    report_form = ReportSettingsForm(prefix="report", instance=league)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        with refusals(request) as outcome:
            if action == "member":
                member_form = MemberForm(request.POST, prefix="member")
                if member_form.is_valid():
                    league_services.invitation_create(user=request.user, league=league, **member_form.cleaned_data)
                    messages.success(
                        request, f"{member_form.cleaned_data['username']} invited: a member once he accepts."
                    )
                    return redirect("commissioner-dashboard", league_id=league.pk)
            elif action == "rules":
                rules_form = HouseRulesForm(request.POST, prefix="rules")
                if rules_form.is_valid():
                    league_services.league_replace_overrides(
                        user=request.user,
                        league_id=league.pk,
                        overrides=rules_form.cleaned_data["overrides"],
                        reason=rules_form.cleaned_data["reason"],
                    )
                    messages.success(request, "House rules saved.")
                    return redirect("commissioner-dashboard", league_id=league.pk)
            elif action == "report":
                report_form = ReportSettingsForm(request.POST, prefix="report", instance=league)
                if report_form.is_valid():
                    league_services.league_update(
                        user=request.user, league_id=league.pk, report_settings=report_form.cleaned_data
                    )
                    messages.success(request, "Report settings saved.")
                    return redirect("commissioner-dashboard", league_id=league.pk)
            elif action == "stadium":
                stadium_form = StadiumForm(request.POST, prefix="stadium")
                if stadium_form.is_valid():
                    league_services.stadium_create(user=request.user, league=league, **stadium_form.cleaned_data)
                    messages.success(request, f"{stadium_form.cleaned_data['name']} added.")
                    return redirect("commissioner-dashboard", league_id=league.pk)
            else:
                messages.error(request, gettext("Unknown action: nothing was changed."))
        # The dashboard again, its form's errors (or the refusal) in words, means nothing was changed: 400 for the
        # input, else the refusal's own status (409 the league's state, 403 not his to do).
        status = outcome.status if outcome else 400
    members = list_page(request, Paginator(league_members(league=league), MEMBERS_PAGE))
    context = {
        "league": league,
        "members": members.object_list,
        "page": members,
        "invitations": league_invitations_pending(league=league),
        "may_invite": may_invite(user=request.user, league=league),
        "member_form": member_form,
        "rules_form": rules_form,
        "stadium_form": stadium_form,
        "report_form": report_form,
        "reports": report_list(league=league, limit=5),
        "effective_rules": json.dumps(league.house_rules, indent=2),
        # The link made last (dugout/web/desk.py), shown once.
        "invite_link": request.session.pop("invite_link", None),
        "invite_link_days": joining.link_ttl().days,
    }
    return render(request, "league/dashboard.html", context, status=status)
