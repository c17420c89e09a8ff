"""Web pages for people: the same services and selectors as the API, rendered with templates and htmx."""

from __future__ import annotations

import functools
import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render

from campaigns.errors import NotPermitted, RuleViolation
from league import services as league_services
from league.models import League, LeagueReport
from league.policy import may_coach_in_league, may_invite, may_run_league
from league.reports import report_body_html, report_queue_now
from league.selectors import (
    league_invitations_pending,
    league_queryset,
    report_list,
)
from matches import challenges
from matches.models import Match
from matches.policy import may_schedule_match
from matches.selectors import league_standings, match_queryset
from matches.web.forms.challenge import ChallengeForm
from teams import services as team_services
from teams.models import Player, Position, Roster, Team
from teams.policy import may_coach_team, may_found_team
from teams.selectors import (
    player_injuries,
    player_race,
    player_view,
    race_rosters,
    roster_players,
    team_queryset,
    team_state,
)

from .forms import (
    GuardedAuthenticationForm,
    HireForm,
    HouseRulesForm,
    LeagueForm,
    MemberForm,
    PurchaseForm,
    ReportSettingsForm,
    SignUpForm,
    StadiumForm,
    TeamForm,
)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"leagues": league_queryset()})


class ThrottledLoginView(auth_views.LoginView):
    """Log in through the same log-in guard as the API's token endpoint (league/logins.py): a waiting attempt
    is answered 429, saying when to try again, before its password is checked."""

    authentication_form = GuardedAuthenticationForm

    def form_invalid(self, form):
        if form.lockout is None:
            return super().form_invalid(form)
        response = render(self.request, "registration/throttled.html", {"lockout": form.lockout}, status=429)
        response["Retry-After"] = str(form.lockout.retry_after())
        return response


def signup(request: HttpRequest) -> HttpResponse:
    if not settings.OPEN_REGISTRATION:
        return render(request, "registration/closed.html", status=403)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, f"Welcome to Dugout, {user.username}!")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def league_create(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        league = league_services.league_create(user=request.user, **form.cleaned_data)
        messages.success(request, f"{league.name} is open. You are its commissioner.")
        return redirect("league-detail", pk=league.pk)
    return render(request, "league/league_form.html", {"form": form})


def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(league_queryset(), pk=pk)
    teams = list(team_queryset().filter(league=league))
    rules, hr = league.rules, league.house_rules
    rows = [(team, len(roster_players(team=team)), rules.team_value(team_state(team=team), hr)) for team in teams]
    user = request.user
    is_commissioner = may_run_league(user, league)  # answered from the prefetched memberships
    standings = league_standings(league=league)
    matches = list(match_queryset().filter(league=league).order_by("created_at", "id"))
    context = {
        "league": league,
        "rows": rows,
        "is_coach": may_coach_in_league(user, league),
        "is_commissioner": is_commissioner,
        "economy": rules.economy,
        # The table starts with the first final result; before it, the teams list above says it all.
        "standings": standings if any(row["played"] for row in standings) else [],
        "fixtures": [m for m in matches if m.status != Match.Status.FINAL],
        "results": [m for m in reversed(matches) if m.status == Match.Status.FINAL],
        "may_schedule": may_schedule_match(user, league, teams),
        "reports": report_list(league=league),
    }
    return render(request, "league/league_detail.html", context)


def league_reports(request: HttpRequest, pk: int) -> HttpResponse:
    """`/leagues/<id>/reports/`: the league's weekly reports, newest first (and "generate now" for its commissioner)."""
    league = get_object_or_404(League, pk=pk)
    if request.method == "POST":
        if not may_run_league(request.user, league):
            return HttpResponseForbidden("Only the commissioner can have the report written now.")
        week = report_queue_now(league=league)
        if week is None:
            messages.error(request, "The report queue is unavailable right now: nothing was queued. Try again later.")
        else:
            messages.success(request, f"This week's report ({week}) is queued: it appears here in a minute or so.")
        return redirect("league-reports", pk=league.pk)
    context = {
        "league": league,
        "reports": report_list(league=league),
        "is_commissioner": may_run_league(request.user, league),
    }
    return render(request, "league/reports.html", context)


def league_report(request: HttpRequest, pk: int, week: str) -> HttpResponse:
    """`/leagues/<id>/reports/<week>/`: one weekly report, as the members received it, its links on this host."""
    report = get_object_or_404(LeagueReport.objects.select_related("league"), league_id=pk, week=week)
    body = report_body_html(report, request=request)
    return render(request, "league/report.html", {"league": report.league, "report": report, "body": body})


@login_required
def league_join(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League, pk=pk)
    if request.method != "POST":
        return redirect("league-detail", pk=pk)
    try:
        league_services.league_join(league=league, user=request.user)
        messages.success(request, f"You coach in {league.name} now: create your team.")
    except RuleViolation as exc:
        messages.error(request, exc.message)
    return redirect("league-detail", pk=pk)


@login_required
def team_create(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League, pk=pk)
    if not may_found_team(request.user, league):
        messages.error(request, "Join the league as a coach before creating a team.")
        return redirect("league-detail", pk=pk)
    form = TeamForm(request.POST or None, rosters=Roster.objects.filter(ruleset=league.ruleset))
    if request.method == "POST" and form.is_valid():
        try:
            team = team_services.team_create(
                user=request.user,
                league=league,
                name=form.cleaned_data["name"],
                roster_key=form.cleaned_data["roster"],
            )
        except RuleViolation as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"{team.name} is founded. Hire your first players.")
            return redirect("team-detail", pk=team.pk)
    return render(request, "league/team_form.html", {"form": form, "league": league})


def _unit(rules) -> str:
    return {"gil": " gil", "points": " points"}.get(rules.economy, "")


def _words(key: str) -> str:
    return str(key).replace("_", " ").capitalize()


def _condition(condition) -> str:
    """A Bone Cruncher lasting condition in words: {"key": "incapacitated_leg", "side": "left"} → "Incapacitated
    left leg"; a severed arm says it never heals."""
    if not isinstance(condition, dict):
        return _words(condition)
    key, side = condition.get("key", ""), condition.get("side", "")
    state, _, limb = key.rpartition("_")
    text = f"{_words(state)} {side} {limb}" if side and state else _words(key)
    return f"{text} (never heals)" if key == "severed_arm" else text


def _equipment(equipment: dict) -> str:
    weapon = equipment.get("weapon") or "none"
    parts = [] if weapon == "none" else [_words(weapon)]
    if equipment.get("shield"):
        parts.append("Shield")
    return " + ".join(parts) or "—"


def _player_extras(player: Player, rules, hr, races: dict) -> None:
    """What the sheet shows of a player beyond his fields, by ruleset (the ruleset's `player_summary`)."""
    summary = rules.player_summary(player_view(player, races=races), hr) or {}
    player.summary = summary
    player.ability_names = [_words(a) for a in player.abilities]
    if rules.key == "elfball":
        player.entitlements = summary.get("entitlements", 0) or 0
        player.learnable = [(a, _words(a)) for a in summary.get("learnable", [])]
        player.lasting = [
            f"−1 {_words(i['detail'])}" if i["detail"] else "Lasting injury"
            for i in player_injuries(player=player)
            if i["injury"] == "lasting_injury"
        ]
    elif rules.key == "bonecruncher":
        player.wound_limit = summary.get("wound_limit") or getattr(player, "health", {}).get("total")
        player.armour_boxes = summary.get("armour_boxes")
        player.elite_now = summary.get("elite", player.elite)
        player.qualifies = bool(summary.get("qualifies_for_elite"))
        player.movement = summary.get("movement", player.attributes.get("move"))
        player.condition_list = [_condition(c) for c in summary.get("conditions", player.conditions) or []]
        player.equipment_text = _equipment(player.equipment or {})
        areas = (player.wound_areas or {}) if hr.get("advanced_wounds") else {}
        player.area_text = ", ".join(f"{_words(a)} {n}" for a, n in areas.items() if n)


def _sheet_context(request: HttpRequest, team_id: int, **extra) -> dict:
    team = get_object_or_404(team_queryset(), pk=team_id)
    rules, hr = team.league.rules, team.league.house_rules
    positions = team.roster.positions.all()
    is_coach = may_coach_team(request.user, team)
    players = roster_players(team=team)
    tracks_races = "health_template" in rules.player_fields or "race" in rules.player_fields
    races = race_rosters(ruleset=team.league.ruleset) if tracks_races else {}
    for player in players:
        player.attribute_list = rules.ordered_attributes(player.attributes)
        if races:
            race = races.get(player_race(player=player))
            player.race_name = race.name if race else ""
            player.health = race.extra.get("health_template", {}) if race else {}
        _player_extras(player, rules, hr, races)
    staff_words = {"magic_potion": "Magic Potions in stock"}
    return {
        "team": team,
        "players": players,
        "team_value": rules.team_value(team_state(team=team), hr),
        "points_budget": rules.points_budget(hr),
        "economy": rules.economy,
        "player_fields": rules.player_fields,
        "is_coach": is_coach,
        "hire_form": extra.pop("hire_form", None)
        or HireForm(positions=positions, roles=rules.roles, unit=_unit(rules)),
        "purchase_form": extra.pop("purchase_form", None) or PurchaseForm(items=rules.purchase_items),
        "staff": [
            (item, staff_words.get(item, item.replace("_", " ").capitalize()), count)
            for item, count in sorted(team.staff.items())
        ],
        "ruleset": rules.key,
        "bloody_blades": bool(hr.get("bloody_blades")),
        "advanced_wounds": bool(hr.get("advanced_wounds")),
        # Only rulesets with residencies show a home stadium (and its cancel button).
        "residency_cancel_cost": rules.residency_cancel_cost(hr) if rules.has_residencies else None,
        "ledger": list(team.ledger.order_by("-id")[:20]) if rules.economy == "gil" else [],
        **extra,
    }


def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return render(request, "teams/team_detail.html", _sheet_context(request, pk))


def _sheet_response(request: HttpRequest, pk: int, **extra) -> HttpResponse:
    """After a write: the sheet fragment for htmx, or a redirect for a plain form post."""
    if request.htmx:
        return render(request, "teams/_sheet.html", _sheet_context(request, pk, **extra))
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


@team_write
def team_ready(request: HttpRequest, pk: int) -> HttpResponse:
    if _own_team(request, pk) is None:
        return HttpResponseForbidden("Only this team's coach may declare it ready.")
    try:
        team_services.team_close_creation(team_id=pk, user=request.user)
        return _sheet_response(request, pk, notice="The team is ready: creation prices no longer apply.")
    except RuleViolation as exc:
        return _sheet_response(request, pk, errors=[exc.message])


def _own_team(request: HttpRequest, pk: int) -> Team | None:
    team = get_object_or_404(Team, pk=pk)
    return team if may_coach_team(request.user, team) else None


@team_write
def team_hire(request: HttpRequest, pk: int) -> HttpResponse:
    team = _own_team(request, pk)
    if team is None:
        return HttpResponseForbidden("Only this team's coach may hire for it.")
    positions = Position.objects.filter(roster_id=team.roster_id)
    form = HireForm(request.POST, positions=positions, roles=team.league.rules.roles, unit=_unit(team.league.rules))
    errors: list[str] = []
    if form.is_valid():
        data = form.cleaned_data
        try:
            player = team_services.team_hire_player(
                team_id=pk,
                user=request.user,
                position=data["position"],
                name=data["name"],
                number=data.get("number"),
                role=data.get("role") or "",
            )
            return _sheet_response(request, pk, notice=f"Hired {player.name}.")
        except RuleViolation as exc:
            errors.append(exc.message)
    else:
        errors.extend(f"{field}: {' '.join(msgs)}" for field, msgs in form.errors.items())
    return _sheet_response(request, pk, errors=errors, hire_form=form)


@team_write
def team_fire(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    if _own_team(request, pk) is None:
        return HttpResponseForbidden("Only this team's coach may fire its players.")
    try:
        player = team_services.team_fire_player(team_id=pk, player_id=player_id, user=request.user)
        return _sheet_response(request, pk, notice=f"{player.name} is fired.")
    except RuleViolation as exc:
        return _sheet_response(request, pk, errors=[exc.message])


@team_write
def team_buy(request: HttpRequest, pk: int) -> HttpResponse:
    team = _own_team(request, pk)
    if team is None:
        return HttpResponseForbidden("Only this team's coach may buy for it.")
    form = PurchaseForm(request.POST, items=team.league.rules.purchase_items)
    if not form.is_valid():
        return _sheet_response(request, pk, errors=["Choose an item and a quantity of at least 1."])
    try:
        team_services.team_purchase(team_id=pk, user=request.user, **form.cleaned_data)
        return _sheet_response(request, pk, notice="Bought.")
    except RuleViolation as exc:
        return _sheet_response(request, pk, errors=[exc.message])


@team_write
def team_learn_ability(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """ElfBall: the coach has a player learn an ability he is entitled to (every full 10 Goal Points)."""
    if _own_team(request, pk) is None:
        return HttpResponseForbidden("Only this team's coach may have its players learn abilities.")
    ability = request.POST.get("ability", "")
    if not ability:
        return _sheet_response(request, pk, errors=["Choose the ability to learn."])
    try:
        player = team_services.team_learn_ability(team_id=pk, player_id=player_id, user=request.user, ability=ability)
    except RuleViolation as exc:
        return _sheet_response(request, pk, errors=[exc.message])
    return _sheet_response(request, pk, notice=f"{player.name} learned {_words(ability)}.")


@login_required
def league_challenge(request: HttpRequest, pk: int) -> HttpResponse:
    """`/leagues/<id>/challenge/`: the Challenge roller (rules/elfball.md) — the server rolls, or scores the dice
    rolled at the table; every Challenge is logged like any other roll."""
    league = get_object_or_404(League, pk=pk)
    matches = list(match_queryset().filter(league=league).exclude(status=Match.Status.FINAL).order_by("-id")[:50])
    form = ChallengeForm(request.POST or None, matches=matches)
    rolled = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            roll, result = challenges.challenge_roll(
                user=request.user,
                league=league,
                dice_count=data["dice"],
                threshold=data["threshold"],
                values=data["values"] or None,
                match_id=data["match"],
            )
        except NotPermitted as exc:
            return render(request, "matches/refused.html", {"message": exc.message}, status=403)
        except RuleViolation as exc:
            form.add_service_error(exc)
        else:
            threshold = data["threshold"]
            faces = [
                {"value": v, "kind": "flop" if v == 1 else ("success" if v >= threshold or v == 6 else "")}
                for v in roll.values
            ]
            if threshold >= 7:  # successes are the 6s less the flops
                faces = [{**f, "kind": "success" if f["value"] == 6 else f["kind"]} for f in faces]
            rolled = {"roll": roll, "result": result, "faces": faces, "threshold": threshold}
    context = {
        "league": league,
        "form": form,
        "rolled": rolled,
        "recent": challenges.recent_challenges(league=league),
    }
    return render(request, "league/challenge.html", context)


@login_required
def commissioner_dashboard(request: HttpRequest, league_id: int) -> HttpResponse:
    """The commissioner's desk: members, house rules and stadiums (the Commissioner's word is LAW)."""
    league = get_object_or_404(league_queryset(), pk=league_id)
    if not may_run_league(request.user, league):
        return HttpResponseForbidden("Only a commissioner of this league may open its dashboard.")
    member_form = MemberForm(prefix="member")
    rules_form = HouseRulesForm(prefix="rules", initial={"overrides": league.house_rules_overrides})
    stadium_form = StadiumForm(prefix="stadium")
    report_form = ReportSettingsForm(prefix="report", instance=league)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
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
                        user=request.user, league_id=league.pk, overrides=rules_form.cleaned_data["overrides"]
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
        except RuleViolation as exc:
            messages.error(request, exc.message)
        except league_services.InvitationConflict as exc:
            messages.error(request, str(exc))
    context = {
        "league": league,
        "members": league.memberships.all(),
        "invitations": league_invitations_pending(league=league),
        "may_invite": may_invite(user=request.user, league=league),
        "member_form": member_form,
        "rules_form": rules_form,
        "stadium_form": stadium_form,
        "report_form": report_form,
        "reports": report_list(league=league, limit=5),
        "effective_rules": json.dumps(league.house_rules, indent=2),
    }
    return render(request, "league/dashboard.html", context)
