"""`/matches/<id>/card.png` (URL name `match-card`): the share card, public like the report. Two queries (the
match with its league, its sides with their teams); the PNG is cached under the hash of everything it shows,
so a correction, a confirmation or a new logo draws a new card, and the hash is the ETag."""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.urls import reverse

from matches.models import Match
from teams.identity.images import logo_read
from teams.identity.views import absolute

from .card import SIZE, CardSide, card_key, draw_card

CARD_SECONDS = 7 * 24 * 3600


def card_values(match: Match) -> tuple[str, str, list[CardSide]]:
    """The card's headline, status line and sides (scores only once the result is final)."""
    final = match.status == Match.Status.FINAL
    sides = [
        CardSide(
            name=s.team.name,
            primary=s.team.primary_colour,
            secondary=s.team.secondary_colour,
            score=s.score if final else None,
            logo_key=s.team.logo_key,
        )
        for s in match.sides.all()
    ]
    return match.league.name, match.get_status_display(), sides


def match_card_key(match: Match) -> str:
    headline, status, sides = card_values(match)
    return card_key(match_id=match.pk, headline=headline, status=status, sides=sides)


def _png(match: Match, key: str) -> bytes:
    cached = cache.get(f"match-card:{match.pk}:{key}")
    if cached is not None:
        return cached
    headline, status, sides = card_values(match)
    team_ids = {s.team.logo_key: s.team_id for s in match.sides.all() if s.team.logo_key}
    logos = {k: png for k, team_id in team_ids.items() if (png := logo_read(team_id, k, 256))}
    png = draw_card(headline=headline, status=status, sides=sides, logos=logos)
    cache.set(f"match-card:{match.pk}:{key}", png, CARD_SECONDS)
    return png


def card_match(pk: int) -> Match:
    return get_object_or_404(Match.objects.select_related("league").prefetch_related("sides__team"), pk=pk)


def match_card(request: HttpRequest, pk: int) -> HttpResponse:
    match = card_match(pk)
    key = match_card_key(match)
    etag = f'"{key}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(_png(match, key), content_type="image/png")
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=300"
    return response


def match_share_tags(request: HttpRequest, match: Match, sides) -> dict:
    """The report's OpenGraph/Twitter values (no query: the report has read the match and its sides)."""
    names = " v ".join(s.team.name for s in sides)
    final = match.status == Match.Status.FINAL
    score = " – ".join("" if s.score is None else str(s.score) for s in sides) if final else ""
    return {
        "og_title": f"{names}{f' {score}' if score else ''}",
        "og_description": f"{match.league.name} · {match.get_status_display()}",
        "og_url": absolute(request, reverse("match-detail", args=[match.pk])),
        "og_image": absolute(request, reverse("match-card", args=[match.pk])),
        "og_image_width": SIZE[0],
        "og_image_height": SIZE[1],
        "og_type": "article",
    }
