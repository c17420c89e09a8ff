"""The season pages: a league's seasons with their champions, and one season with its final table
(frozen when it closed; the open season shows the live table)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from core.pages import refusals
from dugout.seasons import league_seasons, next_turn, season_of, season_start_next
from dugout.web.views import LIST_PAGE, list_page
from league.models import League
from league.policy import may_run_league
from matches.selectors import league_standings


def league_season_list(request: HttpRequest, pk: int) -> HttpResponse:
    """`/leagues/<id>/seasons/`: every season, oldest first, with its dates and champion (two queries). POST (the
    commissioner): close the open season and open the next, or say in words why it cannot close yet."""
    league = get_object_or_404(League, pk=pk)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        turn = next_turn(league=league)
        with refusals(request):  # not the commissioner's, or the season cannot close yet: said in words
            season = season_start_next(
                user=request.user,
                league_id=league.pk,
                name=request.POST.get("name", ""),
                reason=request.POST.get("reason", ""),
            )
            redraft = " Every team was redrafted: its coach rebuilds it." if turn["rollover"] == "redraft" else ""
            messages.success(request, f"{season} is open. The previous season's table and champion are kept.{redraft}")
        return redirect("league-seasons", pk=league.pk)
    context = {
        "league": league,
        "seasons": league_seasons(league=league),
        "carries": league.rules.season_carries,
        "turn": next_turn(league=league),
        "is_commissioner": may_run_league(request.user, league),
    }
    return render(request, "league/seasons.html", context)


def league_season_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """`/leagues/<id>/seasons/<n>/`: a season and its table — the final one, as it closed, or the open season's
    live table — in pages of `LIST_PAGE` rows."""
    league = get_object_or_404(League, pk=pk)
    season = season_of(league=league, number=number)
    if season is None:
        raise Http404("No such season.")
    if season.status == season.Status.CLOSED:
        rows = season.final_table
    else:
        standings = league_standings(league=league)
        rows = standings if any(row["played"] for row in standings) else []
    page = list_page(request, Paginator(rows, LIST_PAGE))
    context = {"league": league, "season": season, "page": page, "standings": page.object_list}
    return render(request, "league/season.html", context)
