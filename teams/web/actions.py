"""The team sheet's coach-only forms: founding a team in a league, hiring, firing, buying, declaring the team
ready, an ElfBall player learning an ability, cancelling a home stadium. Each is a plain POST (or htmx),
answered with the sheet (teams/web/sheet.py); the services check who may (teams/policy.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render

from core.pages import refusals
from league.models import League
from teams import services
from teams.models import Position, Roster
from teams.policy import may_found_team
from teams.web.forms import HireForm, PurchaseForm, TeamForm, price_unit
from teams.web.sheet import own_team, sheet_response, team_write


@login_required
def team_create(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League, pk=pk)
    if not may_found_team(request.user, league):
        messages.error(request, "Join the league as a coach before creating a team.")
        return redirect("league-detail", pk=pk)
    form = TeamForm(request.POST or None, rosters=Roster.objects.filter(ruleset=league.ruleset))
    status = 200
    if request.method == "POST":
        status = 400  # the form again with its errors: no team was founded
        if form.is_valid():
            with refusals(form=form) as outcome:
                team = services.team_create(
                    user=request.user,
                    league=league,
                    name=form.cleaned_data["name"],
                    roster_key=form.cleaned_data["roster"],
                )
                messages.success(request, f"{team.name} is founded. Hire your first players.")
                return redirect("team-detail", pk=team.pk)
            status = outcome.status
    return render(request, "league/team_form.html", {"form": form, "league": league}, status=status)


@team_write
def team_ready(request: HttpRequest, pk: int) -> HttpResponse:
    if own_team(request, pk) is None:
        return HttpResponseForbidden("Only this team's coach may declare it ready.")
    with refusals() as outcome:
        services.team_close_creation(team_id=pk, user=request.user)
    if outcome:
        return sheet_response(request, pk, errors=[outcome.message], status=outcome.status)
    return sheet_response(request, pk, notice="The team is ready: creation prices no longer apply.")


@team_write
def team_hire(request: HttpRequest, pk: int) -> HttpResponse:
    team = own_team(request, pk)
    if team is None:
        return HttpResponseForbidden("Only this team's coach may hire for it.")
    rules = team.league.rules
    positions = Position.objects.filter(roster_id=team.roster_id)
    form = HireForm(request.POST, positions=positions, roles=rules.roles, unit=price_unit(rules))
    errors: list[str] = []
    if form.is_valid():
        data = form.cleaned_data
        with refusals() as outcome:
            player = services.team_hire_player(
                team_id=pk,
                user=request.user,
                position=data["position"],
                name=data["name"],
                number=data.get("number"),
                role=data.get("role") or "",
            )
        if not outcome:
            return sheet_response(request, pk, notice=f"Hired {player.name}.")
        errors.append(outcome.message)
        status = outcome.status
    else:
        errors.extend(f"{field}: {' '.join(msgs)}" for field, msgs in form.errors.items())
        status = 400
    return sheet_response(request, pk, errors=errors, hire_form=form, status=status)


@team_write
def team_fire(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    if own_team(request, pk) is None:
        return HttpResponseForbidden("Only this team's coach may fire its players.")
    with refusals() as outcome:
        player = services.team_fire_player(team_id=pk, player_id=player_id, user=request.user)
    if outcome:
        return sheet_response(request, pk, errors=[outcome.message], status=outcome.status)
    return sheet_response(request, pk, notice=f"{player.name} is fired.")


@team_write
def team_buy(request: HttpRequest, pk: int) -> HttpResponse:
    team = own_team(request, pk)
    if team is None:
        return HttpResponseForbidden("Only this team's coach may buy for it.")
    form = PurchaseForm(request.POST, items=team.league.rules.purchase_items)
    if not form.is_valid():
        return sheet_response(request, pk, errors=["Choose an item and a quantity of at least 1."], status=400)
    with refusals() as outcome:
        services.team_purchase(team_id=pk, user=request.user, **form.cleaned_data)
    if outcome:
        return sheet_response(request, pk, errors=[outcome.message], status=outcome.status)
    return sheet_response(request, pk, notice="Bought.")


@team_write
def team_learn_ability(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """ElfBall: the coach has a player learn an ability he is entitled to (every full 10 Goal Points)."""
    team = own_team(request, pk)
    if team is None:
        return HttpResponseForbidden("Only this team's coach may have its players learn abilities.")
    ability = request.POST.get("ability", "")
    if not ability:
        return sheet_response(request, pk, errors=["Choose the ability to learn."], status=400)
    with refusals() as outcome:
        player = services.team_learn_ability(team_id=pk, player_id=player_id, user=request.user, ability=ability)
    if outcome:
        return sheet_response(request, pk, errors=[outcome.message], status=outcome.status)
    return sheet_response(request, pk, notice=f"{player.name} learned {team.league.rules.words.humanise(ability)}.")


@team_write
def team_cancel_residency(request: HttpRequest, pk: int) -> HttpResponse:
    """R (Blitz Bowl): a home stadium can be cancelled at any time for 5,000 gil (H `residency.cancel_cost`)."""
    if own_team(request, pk) is None:
        return HttpResponseForbidden("Only this team's coach may cancel its home stadium.")
    with refusals() as outcome:  # a Conflict too: nothing to cancel any more, or the team owns the stadium
        services.team_cancel_residency(team_id=pk, user=request.user)
    if outcome:
        return sheet_response(request, pk, errors=[outcome.message], status=outcome.status)
    return sheet_response(request, pk, notice="The home stadium is cancelled.")
