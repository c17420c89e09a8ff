"""`/matches/<id>/result/`: entering a match's result, on the form of the kind its ruleset declares."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import F, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from core.pages import refusals
from league.selectors import hold_viewer_roles, viewer_roles
from matches import lifecycle, policy, services
from matches.available import available
from matches.models import Match, MatchTeam
from matches.web.common import refused
from matches.web.forms import RESULT_FORMS
from teams.models import Player, Team
from teams.selectors import player_race, team_races


@login_required
def match_result(request: HttpRequest, pk: int) -> HttpResponse:
    """`/matches/<id>/result/`: a coach of the match or the commissioner enters the result."""
    match = get_object_or_404(
        Match.objects.select_related("league")
        .annotate(**viewer_roles(user=request.user, league="league_id"))
        .prefetch_related(Prefetch("sides", queryset=MatchTeam.objects.select_related("team").order_by("order"))),
        pk=pk,
    )
    league = match.league
    hold_viewer_roles(league=league, user=request.user, annotated=match)  # the policy asks them: no query
    teams = [s.team for s in match.sides.all()]
    if not policy.may_enter_result(request.user, match):
        return refused(request, "Only a coach of a team in this match or the commissioner can enter its result.")
    if not available(request.user, match).submit:  # he may enter results, but not in this status
        messages.error(request, lifecycle.refusal(match.status, lifecycle.Action.SUBMIT))
        return redirect("match-detail", pk=pk)
    players: dict[int, list[Player]] = {t.pk: [] for t in teams}
    able = Player.objects.filter(
        team__in=teams, left_at__isnull=True, status__in=[Player.Status.ACTIVE, Player.Status.JOURNEYMAN]
    )
    for player in able.select_related("position", "team__roster").order_by(F("number").asc(nulls_last=True), "id"):
        players[player.team_id].append(player)
    form = _result_form(request, match, teams, players)
    status = 200
    if request.method == "POST":
        # The form again, with its errors in words, means nothing was entered: 400 for the input, or the
        # refusal's own status (409 not in this state, 403 not his to do).
        status = 400
        if form.is_valid():
            with refusals(form=form) as outcome:
                services.match_submit_result(user=request.user, match_id=match.pk, body=form.body())
                messages.success(
                    request, "Result entered. It becomes final when the other coach or the commissioner confirms it."
                )
                return redirect("match-detail", pk=pk)
            status = outcome.status
    missing = Player.objects.filter(team__in=teams, left_at__isnull=True, status=Player.Status.MISS_NEXT_MATCH)
    context = {"match": match, "league": league, "form": form, "missing": list(missing.order_by("team_id", "name"))}
    return render(request, getattr(form, "template", "matches/result.html"), context, status=status)


def _result_form(request: HttpRequest, match: Match, teams: list[Team], players: dict[int, list[Player]]):
    """The result form of the kind the league's ruleset declares (`Ruleset.result_form`), with the choices the
    ruleset offers under the league's house rules, filled with the result waiting for confirmation (if any)."""
    rules, hr = match.league.rules, match.league.house_rules
    form_class = RESULT_FORMS[rules.result_form]
    # What a form may need from the match, computed only when its kind asks for it.
    context = {
        "hr": lambda: hr,
        "tests_to_win": lambda: match.tests_to_win,
        "event": lambda: match.event,
        "templates": lambda: _health_templates(teams, players, hr),
        "row_fields": lambda: rules.result_row_fields,
    }
    return form_class(
        request.POST or None,
        teams=teams,
        players=players,
        choices=rules.result_choices(hr),
        result=match.result if match.status in lifecycle.WAITING else None,
        **{need: context[need]() for need in form_class.needs},
    )


def _health_templates(teams: list[Team], players: dict[int, list[Player]], hr) -> dict[int, dict]:
    """Per player his race's health template (the body diagram's boxes), when the league plays advanced wounds."""
    templates: dict[int, dict] = {}
    if hr.get("advanced_wounds") and teams:
        races = team_races(team=teams[0])
        for player in (p for roster in players.values() for p in roster):
            race = races.get(player_race(player=player))
            templates[player.pk] = race.extra.get("health_template", {}) if race else {}
    return templates
