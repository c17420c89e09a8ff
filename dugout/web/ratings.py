"""`/leagues/<id>/ratings/`: the league's Elo ratings of teams and coaches, and a chart of the highest
rated teams' ratings over their matches (dugout/ratings.py; drawn on the server, no JavaScript). The chart's SVG
is cached with the ratings' table version, so a page of an unchanged league draws nothing."""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe

from dugout.ratings import KEY_FORMAT, TIMEOUT, league_ratings, rating_chart
from league.models import League


def league_ratings_page(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League, pk=pk)
    body = league_ratings(league)
    key = f"ratings-chart:{KEY_FORMAT}:{league.pk}:{league.table_version}"
    chart = cache.get(key)
    if chart is None:
        chart = rating_chart(body, title=f"{league.name}: Elo rating after each match")
        cache.set(key, chart, TIMEOUT)
    context = {
        "league": league,
        "ratings": body,
        # Drawn by core.charts from escaped XML (names are text nodes and attributes the writer escaped).
        "chart": mark_safe(chart),  # noqa: S308
    }
    return render(request, "league/ratings.html", context)
