"""The player page and the league's leaders, records and memorial pages: public, no JavaScript,
reads of league/players (each within the pages' query budget, tests/web/test_query_counts.py)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from core.pages import refusals
from core.paging import page_number
from dugout.players.career import player_career, player_row
from dugout.players.leaders import all_leaders, league_row, parse_season, team_boards
from dugout.players.records import league_records
from matches.selectors import league_memorial, player_injuries
from teams.identity.views import absolute


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """`/players/<id>/`: a player's card, career, seasons and match history (paged), what he gained when, his
    injuries. Dead, retired and fired players keep theirs."""
    player = player_row(pk)
    if player is None:
        raise Http404("No such player.")
    page = request.GET.get("page", "1")
    doc = player_career(player, page=page_number(page))
    rules = player.team.league.rules
    keys = [spec.key for spec in rules.player_stats]
    for row in [doc["career"], *doc["seasons"], *doc["history"]]:
        row["cells"] = [row[k] for k in keys]
    context = {
        "player": player,
        "team": player.team,
        "league": player.team.league,
        "stats": rules.player_stats,
        "doc": doc,
        "injuries": player_injuries(player=player),
        # Sharing: a pasted link shows the player, his team and its logo.
        "og_title": f"{player.name} — {player.team.name}",
        "og_description": f"{player.position.name} of {player.team.name} · {player.team.league.name}",
        "og_url": absolute(request, reverse("player-detail", args=[player.pk])),
        "og_image": absolute(request, reverse("team-logo", args=[player.team.pk, player.team.logo_key, 256]))
        if player.team.logo_key
        else "",
    }
    return render(request, "league/player.html", context)


def _league_or_404(pk: int):
    league = league_row(pk)
    if league is None:
        raise Http404("No such league.")
    return league


def league_leaders(request: HttpRequest, pk: int) -> HttpResponse:
    """`/leagues/<id>/leaders/?season=N|all`: the top 10 of every stat of the ruleset, and the teams'
    leaderboards the ruleset has. An unknown season is answered as the open one, with a word."""
    league = _league_or_404(pk)
    notice = ""
    with refusals() as refused:
        season = parse_season(league, request.GET.get("season"))
    if refused:
        season, notice = league.season, refused.message
    tables = all_leaders(league, season)
    context = {
        "league": league,
        "season": season,
        "seasons": list(range(league.season, 0, -1)),
        "notice": notice,
        "tables": [(spec, tables[spec.key]) for spec in league.rules.player_stats],
        "boards": team_boards(league, season),
    }
    return render(request, "league/leaders.html", context)


def league_records_page(request: HttpRequest, pk: int) -> HttpResponse:
    """`/leagues/<id>/records/`: records and hall of fame (the season champions)."""
    league = _league_or_404(pk)
    return render(request, "league/records.html", {"league": league, "records": league_records(league)})


def league_memorial_page(request: HttpRequest, pk: int) -> HttpResponse:
    """`/leagues/<id>/memorial/`: the league's dead (and, in ElfBall, careers ended), each linking to his page."""
    league = _league_or_404(pk)
    return render(request, "league/memorial.html", {"league": league, "fallen": league_memorial(league=league)})
