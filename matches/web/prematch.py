"""`/matches/<id>/prematch/`: walking the pre-match sequence, and what it settled in words (shown on the report)."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from campaigns.errors import RuleViolation
from core.pages import refusals, show_on_form
from matches import lifecycle, policy
from matches.aftermath import StepConflict
from matches.models import Inducement, Match, MatchTeam, Prematch
from matches.prematch import prematch_post, prematch_state
from matches.web.common import already_run, dice_words, refused
from matches.web.forms.common import words
from matches.web.forms.prematch import PrematchStepForm


def inducement_words(inducement: Inducement, stars: Mapping[str, str]) -> str:
    """ "2 × Blitzweiser Keg", "Mercenary Lineman with Block", "Star Player Rolf Stormhand"."""
    if inducement.item == Inducement.Item.MERCENARY and inducement.position_id:
        what = f"Mercenary {inducement.position.name}" + (f" with {inducement.skill}" if inducement.skill else "")
    elif inducement.item == Inducement.Item.STAR_PLAYER:
        what = f"Star Player {stars.get(inducement.star) or words(inducement.star)}"
    else:
        what = inducement.get_item_display()
    return f"{inducement.quantity} × {what}" if inducement.quantity > 1 else what


def _shared_stars(inducements: list[Inducement]) -> set[str]:
    """R: a Star Player induced by both teams plays for neither (and keeps both fees)."""
    teams_of: dict[str, set[int]] = {}
    for i in inducements:
        if i.item == Inducement.Item.STAR_PLAYER and i.star:
            teams_of.setdefault(i.star, set()).add(i.team_id)
    return {star for star, teams in teams_of.items() if len(teams) > 1}


def prematch_summary(
    match: Match, sides: list[MatchTeam], prematch: Prematch | None, inducements: list[Inducement], hr: Mapping
) -> dict:
    """What the pre-match sequence settled, in words: weather, gate and Aggressor; per team its fans, FAME,
    Team Value, inducement gil, inducements and terrain. Reads only what it is given (no query)."""
    rules = match.league.rules
    steps = list(rules.prematch_steps)
    stars = {s["key"]: s["name"] for s in hr.get("star_players", [])}
    shared = _shared_stars(inducements)
    started = prematch is not None and prematch.pk is not None
    p = prematch if started else Prematch(match=match)
    names = {s.team_id: s.team.name for s in sides}
    teams = []
    for side in sides:
        key = str(side.team_id)
        bought = [i for i in inducements if i.team_id == side.team_id]
        terrain = p.terrain.get(key)
        teams.append(
            {
                "team": side.team,
                "fans": p.fans.get(key),
                "fame": p.fame.get(key),
                "team_value": p.team_values.get(key),
                "induced": p.induced.get(key),
                "role": "shops first"
                if p.superior_id == side.team_id
                else ("underdog" if p.underdog_id == side.team_id else ""),
                "inducements": [
                    {
                        "words": inducement_words(i, stars),
                        "price": i.price,
                        "shared": i.item == Inducement.Item.STAR_PLAYER and i.star in shared,
                    }
                    for i in bought
                ],
                "spent": sum(i.price for i in bought),
                "terrain": rules.terrain_words(terrain) if isinstance(terrain, Mapping) and "pieces" in terrain else "",
            }
        )
    current = None if p.complete or not steps or p.step_index >= len(steps) else steps[p.step_index]
    return {
        "started": started,
        "complete": p.complete,
        "current": current.title if current else "",
        "weather": rules.weather_words(p.weather) if p.weather else "",
        "gate": sum(p.fans.values()) if p.fans else None,
        "aggressor": names.get(p.aggressor_id, ""),
        "teams": teams,
        "fans": bool(p.fans),
        "team_values": bool(p.team_values),
        "shopping": bool(p.induced) or bool(inducements),
        "terrain": any(t["terrain"] for t in teams),
        "shared": sorted(stars.get(s) or words(s) for s in shared),
    }


def prematch_match(pk: int) -> tuple[Match, list[MatchTeam]]:
    match = get_object_or_404(Match.objects.select_related("league", "stadium"), pk=pk)
    sides = list(match.sides.select_related("team__coach", "team__roster").order_by("order"))
    return match, sides


def _prematch_form(match: Match, state: Mapping, sides: list[MatchTeam], *, data=None) -> PrematchStepForm | None:
    if state["complete"] or not state["step"]:
        return None
    rules, hr = match.league.rules, match.league.house_rules
    step = {s.key: s for s in rules.prematch_steps}[state["step"]]
    catalogue = rules.roll_catalogue(hr)
    return PrematchStepForm(
        data,
        step=step.key,
        roll_keys=[(k, dice_words(k, catalogue, hr)) for k in step.rolls if k in catalogue],
        teams=[(s.team_id, s.team.name) for s in sides],
        per_team=step.per_team,
        shopping=step.turn is not None,
    )


def _prematch_context(match: Match, sides: list[MatchTeam], user, *, form, error: str = "") -> dict:
    rules, hr = match.league.rules, match.league.house_rules
    steps = list(rules.prematch_steps)
    state = prematch_state(match)
    index = len(steps) if state["complete"] else state["steps"].index(state["step"])
    current = None if state["complete"] else steps[index]
    teams = {s.team_id: s.team for s in sides}
    shopper = teams.get(state["shopping"]) if state["shopping"] else None
    prematch = Prematch.objects.filter(match=match).first()
    inducements = list(match.inducements.select_related("position").order_by("id"))
    return {
        "match": match,
        "league": match.league,
        "sides": sides,
        "steps": [
            {"title": s.title, "state": "done" if i < index else ("current" if i == index else "todo")}
            for i, s in enumerate(steps)
        ],
        "step_number": index + 1,
        "current": current,
        "step_hint": rules.prematch_hints.get(current.key, "") if current else "",
        "form": form,
        "error": error,
        "closed": not lifecycle.allowed(match.status, lifecycle.Action.PREMATCH),
        "summary": prematch_summary(match, sides, prematch, inducements, hr),
        "log": state["log"],
        "shopper": shopper,
        "budget": state["budgets"].get(str(shopper.pk)) if shopper else None,
        "may_close": shopper is not None and policy.may_act_for_side(user, match, shopper),
    }


def _step_title(match: Match, key: str | None) -> str:
    return {s.key: s.title for s in match.league.rules.prematch_steps}.get(key or "", "")


@login_required
def prematch_walk(request: HttpRequest, pk: int) -> HttpResponse:
    """`/matches/<id>/prematch/`: a coach of the match or the commissioner runs the current pre-match step with
    the dice rolled at the table (empty: the server rolls); in a shopping turn, the page sends the team to its
    inducement page and its coach closes the turn with "Done shopping". htmx swaps the step panel; without
    JavaScript the form posts and the page reloads."""
    match, sides = prematch_match(pk)
    league = match.league
    if not policy.may_run_prematch(request.user, match):
        return refused(request, "Only a coach of this match or the commissioner can run its pre-match sequence.")
    if not league.rules.prematch_steps:
        messages.error(request, f"{league.rules.name} has no pre-match sequence.")
        return redirect("match-detail", pk=pk)
    state = prematch_state(match)
    error, status = "", 200
    form = _prematch_form(match, state, sides)
    if request.method == "POST":
        # Whatever the panel says again after a POST, nothing was run: 409 for a step no longer the current one,
        # 400 for the input, else the refusal's own status.
        if form is None:
            error, status = "The pre-match sequence is complete: nothing was changed.", 409
        elif request.POST.get("step") != state["step"]:
            # A page left open on an earlier step.
            error, status = already_run(f"at {_step_title(match, state['step'])}"), 409
        else:
            form = _prematch_form(match, state, sides, data=request.POST)
            status = 400
            if form.is_valid():
                with refusals() as outcome:
                    prematch_post(
                        user=request.user,
                        match_id=pk,
                        step=form.cleaned_data["step"],
                        choices=form.choices(),
                        rolls=form.rolls(),
                    )
                    if request.htmx:
                        form = _prematch_form(match, prematch_state(match), sides)
                        context = _prematch_context(match, sides, request.user, form=form)
                        return render(request, "matches/_prematch.html", context)
                    return redirect("match-prematch", pk=pk)
                if outcome.forbidden:
                    return refused(request, outcome.message)
                status = outcome.status
                if isinstance(outcome.error, StepConflict):  # another tab or coach ran it meanwhile
                    state = prematch_state(match)
                    now = "complete" if state["complete"] else f"at {_step_title(match, state['step'])}"
                    error = already_run(now)
                    form = _prematch_form(match, state, sides)
                elif isinstance(outcome.error, RuleViolation):
                    form.add_service_error(outcome.error, league.rules.roll_catalogue(league.house_rules))
                else:
                    show_on_form(form, outcome.refusal)
    context = _prematch_context(match, sides, request.user, form=form, error=error)
    template = "matches/_prematch.html" if request.htmx else "matches/prematch.html"
    return render(request, template, context, status=status)
