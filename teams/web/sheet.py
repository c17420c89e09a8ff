"""The team sheet (`/teams/<id>/`): the roster table the league's ruleset declares, the team's facts, and the
sheet's answer after one of its coach-only forms (teams/web/actions.py)."""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from league.selectors import viewer_roles
from teams.history import history_annotations
from teams.identity.views import team_share_tags
from teams.models import Player, Team
from teams.policy import may_coach_team
from teams.selectors import (
    player_injuries,
    player_race,
    player_view,
    race_rosters,
    roster_players,
    team_sheet_queryset,
    team_state,
)

from .forms import HireForm, PurchaseForm, price_unit
from .history import history_context


def player_shown(player: Player, rules, races: dict) -> dict:
    """A player's own fields as the sheet shows them, whatever the game; the ruleset adds its own values."""
    words = rules.words
    race = races.get(player_race(player=player)) if races else None
    return {
        "number": "" if player.number is None else player.number,
        "name": player.name,
        "position": player.position.name,
        "attributes": rules.ordered_attributes(player.attributes),
        "skills": ", ".join([*player.skills, *(words.humanise(a) for a in player.abilities)]),
        "spp": player.spp,
        "goal_points": player.goal_points,
        "value": player.value,
        "status": player.get_status_display(),
        "race": race.name if race else "",
    }


def player_cells(player: Player, rules, hr, races: dict, columns) -> list[dict]:
    """The player's row: one cell per declared column ({column, text, note, title, data})."""
    view = player_view(player, races=races)
    summary = rules.player_summary(view, hr) or {}
    shown = player_shown(player, rules, races)
    values = rules.sheet_values(view, shown=shown, summary=summary, injuries=player_injuries(player=player), hr=hr)
    player.learnable = values.get("learnable", [])
    return [
        {
            "column": c,
            "text": values.get(c.key, ""),
            "note": values.get(c.note, "") if c.note else "",
            "title": values.get(c.title, "") if c.title else "",
            "data": values.get(c.data) if c.data else None,
        }
        for c in columns
    ]


def sheet_context(request: HttpRequest, team_id: int, **extra) -> dict:
    # The viewer's roles in the team's league ride along (the commissioner's adjustment form asks, no query).
    team = get_object_or_404(
        team_sheet_queryset().annotate(**viewer_roles(user=request.user, league="league_id"), **history_annotations()),
        pk=team_id,
    )
    rules, hr = team.league.rules, team.league.house_rules
    is_coach = may_coach_team(request.user, team)
    players = roster_players(team=team)
    tracks_races = "health_template" in rules.player_fields or "race" in rules.player_fields
    races = race_rosters(ruleset=team.league.ruleset) if tracks_races else {}
    columns = rules.sheet_columns(hr)
    for player in players:
        player.cells = player_cells(player, rules, hr, races, columns)
    return {
        "team": team,
        "players": players,
        "columns": columns,
        "sheet_hint": rules.sheet_hint(hr),
        "team_value": rules.team_value(team_state(team=team), hr),
        "points_budget": rules.points_budget(hr),
        "economy": rules.economy,
        "is_coach": is_coach,
        "hire_form": extra.pop("hire_form", None)
        or HireForm(positions=team.roster.positions.all(), roles=rules.roles, unit=price_unit(rules)),
        "purchase_form": extra.pop("purchase_form", None) or PurchaseForm(items=rules.purchase_items),
        "staff": [(item, rules.staff_label(item), count) for item, count in sorted(team.staff.items())],
        # Only rulesets with residencies show a home stadium (and its cancel button).
        "residency_cancel_cost": rules.residency_cancel_cost(hr) if rules.has_residencies else None,
        "ledger": list(team.ledger.order_by("-id")[:20]) if rules.economy == "gil" else [],
        **extra,
    }


def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return render(request, "teams/team_detail.html", team_page_context(request, pk))


def team_page_context(request: HttpRequest, pk: int) -> dict:
    """The whole team page's context: the sheet, its history, share tags and which forms the viewer gets (also
    for a form on the page answered again with its errors)."""
    context = sheet_context(request, pk)
    team = context["team"]
    # The commissioner's gil adjustment form (Blitz Bowl's treasury), from the roles annotated on the team.
    context["runs_league"] = context["economy"] == "gil" and getattr(team, "viewer_is_commissioner", False)
    context.update(history_context(team, page=request.GET.get("page", 1)))
    context.update(team_share_tags(request, team))
    context["may_dress"] = context["is_coach"] or getattr(team, "viewer_is_commissioner", False)
    return context


def sheet_response(request: HttpRequest, pk: int, *, status: int = 200, **extra) -> HttpResponse:
    """After a write: the sheet fragment for htmx — answered with `status`, the refusal's (400 the input, 409 the
    state) when the write changed nothing, so a refused form never reads as a success — or a redirect for a
    plain form post."""
    if request.htmx:
        return render(request, "teams/_sheet.html", sheet_context(request, pk, **extra), status=status)
    for error in extra.get("errors", []):
        messages.error(request, error)
    if extra.get("notice"):
        messages.success(request, extra["notice"])
    return redirect("team-detail", pk=pk)


def team_write(view):
    """Coach-only POST endpoints of the team sheet. A GET (e.g. back from the log-in page) shows the sheet."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, pk: int, **kwargs) -> HttpResponse:
        if request.method != "POST":
            return redirect("team-detail", pk=pk)
        return view(request, pk, **kwargs)

    return login_required(wrapper)


def own_team(request: HttpRequest, pk: int) -> Team | None:
    """The team, when the signed-in user coaches it (404 for no such team; None for someone else's)."""
    team = get_object_or_404(Team, pk=pk)
    return team if may_coach_team(request.user, team) else None
