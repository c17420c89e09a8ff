"""`/matches/<id>/aftermath/<team_id>/`: walking a team's post-match sequence step by step. The page asks only
for the dice the step can use for this team after this match (`Step.usable_rolls`) and offers only the optional
choices the team's situation allows (`Step.options`, `campaigns.engine.team_situation`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from campaigns.engine import team_situation
from core.pages import refusals, show_on_form
from matches import policy
from matches.aftermath import StepConflict, aftermath_post, aftermath_views
from matches.models import Aftermath, Match
from matches.web.common import already_run, dice_words, refused
from matches.web.forms.common import words
from matches.web.forms.step import StepForm
from teams.models import Player, Sponsorship, Team
from teams.selectors import team_queryset, team_state


def _step_form(aftermath: Aftermath, team: Team, *, data=None) -> StepForm | None:
    if aftermath.complete:
        return None
    league = aftermath.match.league
    rules, hr = league.rules, league.house_rules
    step = rules.postmatch_steps[aftermath.step_index]
    pending = aftermath.pending or None
    catalogue = rules.roll_catalogue(hr)
    team_view, match_view = aftermath_views(aftermath.match, team)
    # Only the dice the step can use for this team after this match (no stadium dice without a stadium).
    keys = step.usable_rolls(team_view, match_view, hr)
    rolled = {r["key"] for r in (pending or {}).get("rolls", [])}
    roll_keys = [(k, dice_words(k, catalogue, hr)) for k in keys if k in catalogue and k not in rolled]
    names: dict[str, dict[int, str]] = {}
    if pending:
        names["players"] = dict(Player.objects.filter(team=team).values_list("pk", "name"))
        names["sponsorships"] = {
            pk: name or f"Sponsorship #{pk}"
            for pk, name in Sponsorship.objects.filter(team=team).values_list("pk", "name")
        }
    situation = team_situation(team_view)
    optional = [] if pending else [(name, kind, label) for name, kind, label, when in step.options if situation[when]]
    # Dice entered before a pause that no roll has taken yet: the service keeps them for the resumed step.
    kept = {f"roll_{k}": ", ".join(map(str, v)) for k, v in (pending or {}).get("entered", {}).items()}
    return StepForm(
        data,
        step=step.key,
        pending=pending,
        roll_keys=roll_keys,
        names=names,
        optional=optional,
        rules=rules,
        hr=hr,
        initial=kept,
    )


def _answer(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def _step_state(aftermath: Aftermath, index: int) -> str:
    if aftermath.complete or index < aftermath.step_index:
        return "done"
    return "current" if index == aftermath.step_index else "todo"


def _walk_context(aftermath: Aftermath, team_id: int, *, form: StepForm | None, error: str = "") -> dict:
    match, league = aftermath.match, aftermath.match.league
    rules, hr = league.rules, league.house_rules
    steps = list(rules.postmatch_steps)
    team = team_queryset().get(pk=team_id)
    pending = aftermath.pending or {}
    answered = {k: v for k, v in pending.get("choices", {}).items() if k != pending.get("decision")}
    return {
        "match": match,
        "league": league,
        "team": team,
        "aftermath": aftermath,
        "steps": [{"title": s.title, "state": _step_state(aftermath, i)} for i, s in enumerate(steps)],
        "step_number": aftermath.step_index + 1,
        "current": None if aftermath.complete else steps[aftermath.step_index],
        "pending": pending,
        "answered": [(words(k), _answer(v)) for k, v in answered.items()],
        "form": form,
        "error": error,
        "economy": rules.economy,
        "team_value": rules.team_value(team_state(team=team), hr),
    }


@login_required
def aftermath_walk(request: HttpRequest, pk: int, team_id: int) -> HttpResponse:
    """`/matches/<id>/aftermath/<team_id>/`: the team's coach (or the commissioner) runs the current step, answers
    its pending decision, and enters the dice rolled at the table. htmx swaps the step panel; without
    JavaScript the form posts and the page reloads."""
    match = get_object_or_404(Match.objects.select_related("league"), pk=pk)
    team = get_object_or_404(Team.objects.filter(match_sides__match=match), pk=team_id)
    if not policy.may_act_for_side(request.user, match, team):
        return refused(request, "Only this team's coach or the commissioner can walk its post-match sequence.")
    aftermath = Aftermath.objects.select_related("match__league").filter(match=match, team=team).first()
    if aftermath is None:
        messages.error(request, "The post-match sequence opens when the result is final.")
        return redirect("match-detail", pk=pk)
    error, status = "", 200
    steps = match.league.rules.postmatch_steps
    if request.method == "POST":
        # Whatever the panel says again after a POST, nothing was run: 409 for a step no longer the current one,
        # 400 for the input, else the refusal's own status.
        form = _step_form(aftermath, team, data=request.POST)
        if form is None:
            error, status = "The post-match sequence is complete: nothing was changed.", 409
        elif request.POST.get("step") != steps[aftermath.step_index].key:
            # A page left open on an earlier step: say so rather than ask for this step's decision.
            error, status = already_run(f"at {steps[aftermath.step_index].title}"), 409
            form = _step_form(aftermath, team)
        elif not form.is_valid():
            status = 400
        else:
            with refusals() as outcome:
                aftermath = aftermath_post(
                    user=request.user,
                    match_id=pk,
                    team_id=team_id,
                    step=form.cleaned_data["step"],
                    choices=form.choices(),
                    rolls=form.rolls(),
                )
                team.refresh_from_db()  # the step may have changed its stadium
                if request.htmx:
                    context = _walk_context(aftermath, team_id, form=_step_form(aftermath, team))
                    return render(request, "matches/_aftermath.html", context)
                return redirect("match-aftermath", pk=pk, team_id=team_id)
            if outcome.forbidden:
                return refused(request, outcome.message)
            status = outcome.status
            if isinstance(outcome.error, StepConflict):  # another tab or coach ran it meanwhile
                aftermath.refresh_from_db()
                now = "complete" if aftermath.complete else f"at {steps[aftermath.step_index].title}"
                error = already_run(now)
                form = _step_form(aftermath, team)
            else:
                show_on_form(form, outcome.refusal)
    else:
        form = _step_form(aftermath, team)
    context = _walk_context(aftermath, team_id, form=form, error=error)
    template = "matches/_aftermath.html" if request.htmx else "matches/aftermath.html"
    return render(request, template, context, status=status)
