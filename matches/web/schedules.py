"""`/leagues/<id>/schedule/` (the commissioner generates a schedule: the form, a preview of its rounds, then
publish) and `/leagues/<id>/bracket/` (the season's knockout, public)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from core.pages import refusals
from league.models import League
from matches import policy, schedules
from matches.web.common import refused
from matches.web.forms.generate import GenerateForm
from teams.models import Team


@login_required
def league_schedule(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the form and the season's published schedules. POST `action=preview`: the rounds the form would
    make, nothing written, with a Publish button; `action=publish`: the schedule is made."""
    league = get_object_or_404(League, pk=pk)
    if not policy.may_publish_schedule(request.user, league):
        return refused(request, "Only the commissioner generates the league's schedules.")
    divisions = list(league.divisions.values_list("pk", "name"))
    form = GenerateForm(request.POST or None, divisions=divisions)
    preview, status = None, 200
    if request.method == "POST" and not form.is_valid():
        status = 400  # the form again with its errors: nothing previewed, nothing published
    elif request.method == "POST":
        publish = request.POST.get("action") == "publish"
        with refusals(form=form) as outcome:
            answer = schedules.schedule_generate(
                user=request.user, league_id=league.pk, preview=not publish, **form.service_kwargs()
            )
            if publish:
                matches = sum(len(r["matches"]) for r in answer["rounds"])
                messages.success(request, f"Published: {len(answer['rounds'])} round(s), {matches} match(es).")
                return redirect("league-schedule", pk=league.pk)
            preview = _named(league, answer["rounds"])
        status = outcome.status
    context = {
        "league": league,
        "form": form,
        "preview": preview,
        "published": schedules.league_schedules(league=league),
    }
    return render(request, "matches/league_schedule.html", context, status=status)


def _named(league: League, rounds: list[dict]) -> list[dict]:
    """A preview's rounds with team names in place of ids (one query)."""
    names = dict(Team.objects.filter(league=league).values_list("pk", "name"))
    return [
        {
            **rnd,
            "pairs": [[names.get(t, t) for t in m["teams"]] for m in rnd["matches"]],
            "resting": [names.get(t, t) for t in rnd["byes"]],
        }
        for rnd in rounds
    ]


def league_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """The open season's knockout, round by round, winners marked, and its champion once the final is played."""
    league = get_object_or_404(League, pk=pk)
    bracket = schedules.league_bracket(league=league)
    names = bracket["names"]
    rounds = [
        {
            **rnd,
            "matches": [
                {**m, "sides": [{"id": t, "name": names.get(t, ""), "won": t == m["winner"]} for t in m["teams"]]}
                for m in rnd["matches"]
            ],
            "resting": [names.get(t, "") for t in rnd["byes"]],
        }
        for rnd in bracket["rounds"]
    ]
    context = {"league": league, "rounds": rounds, "champion": names.get(bracket["champion"])}
    return render(request, "matches/bracket.html", context)
