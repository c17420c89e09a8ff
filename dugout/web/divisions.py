"""The commissioner's divisions panel: the dashboard loads it by htmx (a page of its own
without it); it lists the divisions with their teams and, for whom the policy lets manage them, the forms to
create, rename, delete and place teams. Thin views over teams/divisions.py."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from campaigns.errors import RuleViolation
from core.pages import refusals
from dugout.web.desk import commissioner_page
from league.models import League
from league.policy import may_manage_divisions
from teams import divisions
from teams.models import Team


def _number(value: str | None) -> int | None:
    return int(value) if value and value.isascii() and value.isdigit() and len(value) < 19 else None


def _act(request: HttpRequest, league: League) -> str:
    action, post = request.POST.get("action"), request.POST
    division = _number(post.get("division"))
    if action == "create":
        made = divisions.division_create(user=request.user, league_id=league.pk, name=post.get("name", ""))
        return f"Division {made.name} created."
    if action == "rename":
        made = divisions.division_rename(
            user=request.user, league_id=league.pk, division_id=division, name=post.get("name", "")
        )
        return f"Division renamed {made.name}."
    if action == "delete":
        divisions.division_delete(user=request.user, league_id=league.pk, division_id=division)
        return "Division deleted: its teams are in no division now."
    if action == "assign":
        teams = [_number(t) for t in post.getlist("teams")]
        if not teams or None in teams:
            raise RuleViolation("Pick the teams to place.", field="teams")
        target = None if post.get("division") == "none" else division
        if target is None and post.get("division") != "none":
            raise RuleViolation("Pick a division (or none).", field="division")
        moved = divisions.division_assign(user=request.user, league_id=league.pk, division_id=target, team_ids=teams)
        return f"{len(moved)} team(s) placed."
    raise RuleViolation("Unknown action.", field="action")


@commissioner_page
def desk_divisions(request: HttpRequest, league: League) -> HttpResponse:
    """GET: the divisions panel (the dashboard's, for htmx; a page otherwise). POST: one of its forms, then the
    panel again (htmx) or back to the dashboard."""
    status = 200
    if request.method == "POST":
        with refusals(request) as outcome:
            messages.success(request, _act(request, league))
        if not request.htmx:
            return redirect("commissioner-dashboard", league_id=league.pk)
        status = outcome.status  # the panel again: with the refusal in words, nothing was changed
    listed = divisions.league_divisions(league=league)
    names = {d["id"]: d["name"] for d in listed}
    teams = [
        {"id": pk, "name": name, "division": names.get(division_id, "")}
        for pk, name, division_id in Team.objects.filter(league=league)
        .order_by("name", "id")
        .values_list("pk", "name", "division_id")
    ]
    context = {
        "league": league,
        "divisions": listed,
        "teams": teams,
        "team_names": {t["id"]: t["name"] for t in teams},
        "may_manage": may_manage_divisions(request.user, league),
    }
    template = "league/_divisions.html" if request.htmx else "league/divisions.html"
    return render(request, template, context, status=status)
