"""`/matches/new/`: scheduling a match."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from core.pages import refusals
from league.models import League
from league.policy import may_run_league
from matches import policy, services
from matches.web.common import parse_id, refused
from matches.web.forms.schedule import ScheduleForm
from teams.models import Team


@login_required
def match_schedule(request: HttpRequest) -> HttpResponse:
    """`/matches/new/?league=<id>`: the commissioner schedules any match, a coach one his team plays in."""
    league = get_object_or_404(League.objects.prefetch_related("stadiums"), pk=parse_id(request.GET.get("league")))
    is_commissioner = may_run_league(request.user, league)
    teams = list(Team.objects.filter(league=league).select_related("coach").order_by("name", "id"))
    own = [t for t in teams if t.coach_id == request.user.pk]
    if not policy.may_schedule_match(request.user, league, teams):
        return refused(request, "Only the commissioner or a coach with a team in this league can schedule its matches.")
    initial = {"home": own[0].pk} if own and not is_commissioner else {}
    rules, hr = league.rules, league.house_rules
    form = ScheduleForm(
        request.POST or None,
        teams=teams,
        stadiums=league.stadiums.all(),
        initial=initial,
        events=[event for event in rules.teams_per_match if event],
        more_teams=any(most > 2 for _, most in rules.teams_per_match.values()),
        tests_to_win=hr.get("tests_to_win"),
    )
    status = 200
    if request.method == "POST":
        status = 400  # the form again with its errors: nothing was scheduled
        if form.is_valid():
            data = form.cleaned_data
            with refusals(form=form) as outcome:
                match = services.match_schedule(
                    user=request.user,
                    league=league,
                    team_ids=form.team_ids(),
                    kind=data["kind"],
                    stadium_id=data["stadium"],
                    event=data.get("event", ""),
                    tests_to_win=data.get("tests_to_win"),
                )
                messages.success(request, "The match is scheduled.")
                return redirect("match-detail", pk=match.pk)
            status = outcome.status  # 400 the input, 409 the state, 403 not his to do
    return render(request, "matches/schedule.html", {"league": league, "form": form}, status=status)
