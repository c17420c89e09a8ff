"""The league pages: opening a league, its page (teams, standings, fixtures, results, reports), joining it,
and its weekly reports. The front door is auth.py, the commissioner's desk dashboard.py, the Challenge roller
challenge.py; the team pages live with their domain (teams/web/)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import InvalidPage, Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from core.pages import refusals
from dugout.reports.services import report_body_html, report_queue_now
from dugout.web.forms import LeagueForm
from league import services as league_services
from league.models import League, LeagueReport
from league.policy import may_coach_in_league, may_run_league
from league.selectors import league_for_viewer, report_list, report_queryset
from matches.policy import may_schedule_match
from matches.selectors import (
    division_standings,
    league_fixtures,
    league_panels,
    league_results,
    league_standings,
    match_lines,
)
from matches.standings import cached_document, table_tag
from teams.models import Team
from teams.selectors import roster_players, team_list_queryset, team_state


@login_required
def league_create(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        league = league_services.league_create(user=request.user, **form.cleaned_data)
        messages.success(request, f"{league.name} is open. You are its commissioner.")
        return redirect("league-detail", pk=league.pk)
    status = 400 if request.method == "POST" else 200  # the form again with its errors: no league was opened
    return render(request, "league/league_form.html", {"form": form}, status=status)


#: The league page's panels are bounded: the first teams and the top of the table, the next
#: fixtures and the latest results; the rest are on their own pages of `LIST_PAGE`.
PANEL_SIZE, PANEL_TEAMS, LIST_PAGE = 10, 50, 50


def team_rows(league: League, teams) -> list[tuple]:
    """The teams list's rows: (team, players on the roster, team value) — the value the ruleset computes."""
    rules, hr = league.rules, league.house_rules
    return [(team, len(roster_players(team=team)), rules.team_value(team_state(team=team), hr)) for team in teams]


def _viewer_teams(user, league: League, listed: list) -> list:
    """The viewer's own teams in the league, for `may_schedule_match` and the "your teams" line: from the listed
    ones when he has one there, else one query — only for a coach of the league."""
    if not may_coach_in_league(user, league):
        return []
    own = [team for team in listed if team.coach_id == user.pk]
    return own or list(Team.objects.filter(league=league, coach=user).only("pk", "name", "league_id", "coach_id"))


def _anchor(division_id: int | None) -> str:
    """The id of a division's table on the page."""
    return f"standings-division-{division_id}" if division_id is not None else "standings-no-division"


def _table_panel(league: League) -> str:
    """The league page's table panel as HTML — the top of the table, with links to the whole table and all the
    teams — or "" before the first final result. Rendered once per table version and kept (matches/standings.py):
    a page view that finds it reads no table and renders no row of it."""

    def render() -> bytes:
        tables = division_standings(league=league)
        if tables:  # one table per division, the top of each
            if not any(row["played"] for table in tables for row in table["rows"]):
                return b""
            each = max(3, PANEL_TEAMS // len(tables))
            shown = [{**table, "rows": table["rows"][:each], "anchor": _anchor(table["id"])} for table in tables]
            total = sum(len(table["rows"]) for table in tables)
            context = {"league": league, "divisions": shown, "team_total": total}
            context["more_table"] = any(len(table["rows"]) > each for table in tables)
            return render_to_string("league/_table_panel.html", context).encode()
        standings = league_standings(league=league)
        if not any(row["played"] for row in standings):
            return b""
        context = {"league": league, "standings": standings[:PANEL_TEAMS], "team_total": len(standings)}
        context["more_table"] = len(standings) > PANEL_TEAMS
        return render_to_string("league/_table_panel.html", context).encode()

    tag = table_tag(league_id=league.pk, ruleset=league.ruleset, table_version=league.table_version)
    return cached_document(tag=tag, name="league-page-table", render=render).decode()


#: Raise when the activity panels' templates or context change: the panels the previous release kept are then
#: never read.
PANELS_FORMAT = 1


def _activity_panels(league: League) -> tuple[str, str]:
    """The league page's fixtures panel and its reports and results panels as HTML. Rendered once per activity
    version (`League.activity_version`, which every write able to change what they show replaces in its own
    transaction) and kept like the table panel (matches/standings.py `cached_document`): a page view that finds
    them reads no match, side or report and renders no row of them. Nothing in them depends on the viewer; the
    key also names the language and time zone the dates are rendered in."""

    def render() -> bytes:
        fixtures, results = league_panels(league=league, fixtures=PANEL_SIZE, results=PANEL_SIZE)
        context = {
            "league": league,
            "fixtures": fixtures,
            "more_fixtures": len(fixtures) == PANEL_SIZE,
            "results": results,
            "reports": report_list(league=league, limit=PANEL_SIZE),
        }
        first = render_to_string("league/_fixtures_panel.html", context).encode()
        second = render_to_string("league/_activity_panel.html", context).encode()
        return b"%d\n%b%b" % (len(first), first, second)  # one document, its first part's length ahead

    where = f"{translation.get_language()}-{timezone.get_current_timezone_name()}"
    tag = f"{PANELS_FORMAT}-{league.pk}-{league.activity_version}-{where}"
    head, _, body = cached_document(tag=tag, name="league-page-activity", render=render).partition(b"\n")
    return body[: int(head)].decode(), body[int(head) :].decode()


def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The league page, in a fixed number of queries and size whatever the league's size and history: the top of
    its table (or, before the first result, its first teams), the next fixtures and the latest results, its
    latest weekly reports (each with a link to all of them). The table panel and the fixtures, results and
    reports panels are documents kept per table and activity version (`_table_panel`, `_activity_panels`); what
    is the viewer's own (his teams, the links he may follow, the CSRF token, his messages) is rendered for him."""
    user = request.user
    league = league_for_viewer(pk=pk, user=user)
    if league is None:
        raise Http404("No such league.")
    table_panel = _table_panel(league)
    # Before the first result the teams list stands in for the table: their rosters, values and treasuries.
    teams = [] if table_panel else list(team_list_queryset().filter(league=league)[: PANEL_TEAMS + 1])
    fixtures_panel, activity_panel = _activity_panels(league)
    rules = league.rules
    own = _viewer_teams(user, league, teams)
    context = {
        "league": league,
        "table_panel": mark_safe(table_panel),  # noqa: S308 (our own template's output, rendered above)
        "rows": team_rows(league, teams[:PANEL_TEAMS]),
        "more_teams": len(teams) > PANEL_TEAMS,
        "own_teams": own,
        "is_coach": may_coach_in_league(user, league),
        "is_commissioner": may_run_league(user, league),  # answered from the viewer's memberships, no query
        "economy": rules.economy,
        "has_challenge_roller": rules.has_challenge_roller,
        "fixtures_panel": mark_safe(fixtures_panel),  # noqa: S308 (our own templates' output, as above)
        "activity_panel": mark_safe(activity_panel),  # noqa: S308
        "may_schedule": may_schedule_match(user, league, own),
    }
    return render(request, "league/league_detail.html", context)


def list_page(request: HttpRequest, paginator: Paginator):
    """The `?page=` of a list, or a 404 page for a page that is not one (not a number, 0, past the end)."""
    try:
        return paginator.page(request.GET.get("page") or 1)
    except InvalidPage:
        raise Http404("No such page.") from None


def league_matches(request: HttpRequest, pk: int, *, played: bool) -> HttpResponse:
    """`/leagues/<id>/results/` (latest first) and `/leagues/<id>/fixtures/` (soonest first), in pages of
    `LIST_PAGE`: four queries for any page of any league."""
    league = get_object_or_404(League.objects.only("pk", "name", "ruleset"), pk=pk)
    matches = league_results(league=league) if played else league_fixtures(league=league)
    page = list_page(request, Paginator(matches, LIST_PAGE))
    context = {"league": league, "page": page, "matches": match_lines(page.object_list), "played": played}
    return render(request, "league/matches.html", context)


def league_teams(request: HttpRequest, pk: int) -> HttpResponse:
    """`/leagues/<id>/teams/`: the league's teams with their rosters, coaches, values and treasuries, by name,
    in pages of `LIST_PAGE` (five queries for any page)."""
    league = get_object_or_404(League, pk=pk)
    page = list_page(request, Paginator(team_list_queryset().filter(league=league), LIST_PAGE))
    context = {"league": league, "page": page, "rows": team_rows(league, page.object_list)}
    return render(request, "league/teams.html", {**context, "economy": league.rules.economy})


def league_table(request: HttpRequest, pk: int) -> HttpResponse:
    """`/leagues/<id>/table/`: the whole league table in pages of `LIST_PAGE` rows (the table is read whole:
    it is one cached computation, not a query per page)."""
    league = get_object_or_404(League, pk=pk)
    tables = division_standings(league=league)
    if tables:  # the divisions' tables one after the other, paged as one list of rows
        rows = [{**row, "division": (table["name"], _anchor(table["id"]))} for table in tables for row in table["rows"]]
    else:
        rows = league_standings(league=league)
    rows = rows if any(row["played"] for row in rows) else []
    page = list_page(request, Paginator(rows, LIST_PAGE))
    context = {"league": league, "page": page, "standings": page.object_list, "table": True}
    if tables:  # this page's rows, by division
        groups: list[dict] = []
        for row in page.object_list:
            if not groups or groups[-1]["anchor"] != row["division"][1]:
                groups.append({"name": row["division"][0], "anchor": row["division"][1], "rows": []})
            groups[-1]["rows"].append(row)
        context["divisions"] = groups
    return render(request, "league/teams.html", context)


def league_all_results(request: HttpRequest, pk: int) -> HttpResponse:
    return league_matches(request, pk, played=True)


def league_all_fixtures(request: HttpRequest, pk: int) -> HttpResponse:
    return league_matches(request, pk, played=False)


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
    page = list_page(request, Paginator(report_queryset(league=league), LIST_PAGE))
    context = {
        "league": league,
        "reports": page.object_list,
        "page": page,
        "is_commissioner": may_run_league(request.user, league),
    }
    return render(request, "league/reports.html", context)


def league_report(request: HttpRequest, pk: int, week: str) -> HttpResponse:
    """`/leagues/<id>/reports/<week>/`: one weekly report, as the members received it, its links on this host."""
    report = get_object_or_404(
        LeagueReport.objects.select_related("league").defer("chart_png"), league_id=pk, week=week
    )
    body = report_body_html(report, request=request)
    return render(request, "league/report.html", {"league": report.league, "report": report, "body": body})


@login_required
def league_join(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League, pk=pk)
    if request.method != "POST":
        return redirect("league-detail", pk=pk)
    with refusals(request):
        league_services.league_join(league=league, user=request.user)
        messages.success(request, f"You coach in {league.name} now: create your team.")
    return redirect("league-detail", pk=pk)
