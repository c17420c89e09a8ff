"""The identity files as the pages use them: a team's logo PNGs, read from the default storage by
this view in development and production alike (docs/deploy.md), and its colours as a tiny stylesheet of CSS
custom properties — the CSP refuses inline styles, so a page links this instead of writing a style attribute."""

from __future__ import annotations

import hashlib

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404

from teams.models import Team

from .images import logo_read, logo_sizes


def _etag(text: str) -> str:
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:20] + '"'


def team_logo(request: HttpRequest, pk: int, key: str, size: int) -> HttpResponse:
    """One rendition; its name holds the content's hash, so it may be cached for ever."""
    if size not in logo_sizes():
        raise Http404("No such logo size.")
    png = logo_read(pk, key, size)
    if png is None:
        raise Http404("No such logo.")
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def colours_css(team: Team) -> str:
    return (
        f".team-{team.pk}{{--team-primary:{team.primary_colour};--team-secondary:{team.secondary_colour}}}\n"
        f".team-{team.pk} .team-band,.team-band.team-{team.pk}{{background:{team.primary_colour};"
        f"border-color:{team.secondary_colour}}}\n"
    )


def team_colours(request: HttpRequest, pk: int) -> HttpResponse:
    """`.team-<id>` sets --team-primary and --team-secondary (one query; revalidated by its ETag)."""
    team = get_object_or_404(Team.objects.only("pk", "primary_colour", "secondary_colour"), pk=pk)
    body = colours_css(team)
    etag = _etag(body)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="text/css; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=60"
    return response


def absolute(request: HttpRequest, path: str) -> str:
    """An absolute URL for a share tag, by dugout/reports/services.py `site_url`'s rule (SITE_URL, else the
    request's own host); restated here because the team pages sit below the wiring that module belongs to."""
    from django.conf import settings

    return (settings.SITE_URL + path) if settings.SITE_URL else request.build_absolute_uri(path)


def team_share_tags(request: HttpRequest, team: Team) -> dict:
    """The team page's OpenGraph/Twitter values: its name, roster and league; its 256 px logo when it has one."""
    from django.urls import reverse

    image = reverse("team-logo", args=[team.pk, team.logo_key, 256]) if team.logo_key else ""
    return {
        "og_description": f"{team.roster.name} · {team.league.name}",
        "og_url": absolute(request, reverse("team-detail", args=[team.pk])),
        "og_image": absolute(request, image) if image else "",
    }
