"""The standings' public read (`?season=N`): the cached
document of a league's table with its tag as ETag, a closed season's frozen table, and the shortcut that answers
an anonymous read without DRF's per-request machinery when none of it can change the answer. The league
viewset (dugout/api/views.py) routes its `standings` action here."""

from __future__ import annotations

import json
from functools import cache as memoise

from django.http import Http404, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.renderers import JSONRenderer

from campaigns.errors import RuleViolation
from core.api.lookup import path_id
from core.api.permissions import IsCommissionerOrReadOnly
from dugout.api.players import csv_response
from league.models import League, Season
from matches.selectors import division_standings, league_standings
from matches.standings import cached_document, current_tag


def season_standings_answer(request, league_id: int, query: dict) -> HttpResponse | None:
    """`?season=N`: the open season's table as `standings_answer` gives it, or a closed season's final
    table as it was frozen (its ETag names the season: a closed season's table never changes). None when there
    is no such league or season."""
    league = League.objects.filter(pk=league_id).only("pk", "season").first()
    if league is None:
        return None
    number = query.get("season", league.season)
    if number == league.season:
        return standings_answer(request, league_id, query.get("division"))
    if query.get("division") is not None:
        raise RuleViolation(
            "A closed season's table is the league's only: ask for a division's without season.", field="division"
        )
    season = Season.objects.filter(league=league, number=number, status=Season.Status.CLOSED).first()
    if season is None:
        return None
    etag = f'"season-{league.pk}-{season.number}-{season.closed_at.timestamp():.6f}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        body = {"league": league.pk, "season": season.number, "rows": season.final_table}
        response = HttpResponse(JSONRenderer().render(body), content_type="application/json")
    response["ETag"] = etag
    patch_cache_control(response, public=True, no_cache=True)
    return response


def standings_answer(request, league_id: int, division: int | None = None) -> HttpResponse | None:
    """The standings of a league as the database has them now (one read of its row for the table's tag), with
    the tag as ETag: 304 to a client holding it, else the cached document. None when there is no such league.

    `division`: that division's table instead, cached and tagged the same way (its ETag
    names the division; every division write renews the table version). None when the league has no such
    division."""
    tag = current_tag(league_id)
    if tag is None:
        return None
    etag = f'"{tag}"' if division is None else f'"{tag}-d{division}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:

        def render() -> bytes:
            # The league loaded whole only here, when the table's document is not cached yet (its house rules'
            # tie-breakers; the version re-read with them is at least as new as the tag's).
            league = League.objects.get(pk=league_id)
            if division is None:
                return JSONRenderer().render({"league": league.pk, "rows": league_standings(league=league)})
            table = next((d for d in division_standings(league=league) if d["id"] == division), None)
            if table is None:
                raise Http404("No such division of this league.")
            body = {"league": league.pk, "division": division, "name": table["name"], "rows": table["rows"]}
            return JSONRenderer().render(body)

        name = "api-json" if division is None else f"api-json-division-{division}"
        response = HttpResponse(cached_document(tag=tag, name=name, render=render))
        response["Content-Type"] = "application/json"
    response["ETag"] = etag
    # Public, and revalidated on every use: a client or proxy keeps the body and asks with If-None-Match.
    patch_cache_control(response, public=True, no_cache=True)
    return response


#: Permission classes that let every safe request through (`has_permission`), whoever asks.
_PUBLIC_READS = frozenset({AllowAny, IsAuthenticatedOrReadOnly, IsCommissionerOrReadOnly})


@memoise
def _negotiable(renderer_classes: tuple) -> frozenset[str]:
    """The Accept types DRF's negotiation satisfies with these renderers, as it compares them (parameters and q
    aside): each renderer's type, its main type's wildcard, and */*."""
    types = {renderer.media_type for renderer in renderer_classes}
    return frozenset({"*/*", *types, *(media.split("/")[0] + "/*" for media in types)})


def standings_shortcut(view, request, kwargs) -> HttpResponse | None:
    """The standings answer without DRF's per-request machinery, when it would make no difference: a GET or HEAD
    with no credentials (no token to check: the table is public and the same for everyone; a session user is
    not needed), no format asked for (suffix or `?format=`), an Accept header DRF's negotiation accepts, and a
    league that exists; and only while the viewset's permissions let every read through and it has no throttle
    or versioning (a change there takes the shortcut away, never DRF's check). None otherwise, and the request
    goes through DRF as every other does (its 401, 404, 406). The answer carries the headers DRF's and the
    session's middleware give it there (Allow; Vary: Accept, Cookie), so both ways answer alike."""
    meta = request.META
    if "HTTP_AUTHORIZATION" in meta or "format" in kwargs:
        return None
    if (
        view.throttle_classes
        or view.versioning_class is not None
        or not _PUBLIC_READS.issuperset(view.permission_classes)
    ):
        return None
    accept = meta.get("HTTP_ACCEPT")
    if accept is not None:
        negotiable = _negotiable(tuple(view.renderer_classes))
        if not any(part.split(";", 1)[0].strip() in negotiable for part in accept.split(",")):
            return None
    if meta.get("QUERY_STRING") and any(name in request.GET for name in ("format", "season", "division")):
        return None  # (a season's or a division's table is asked through DRF: its number is validated there)
    try:
        league_id = path_id(kwargs.get("pk"))
    except Http404:
        return None
    response = standings_answer(request, league_id)
    if response is None:
        return None
    headers = view.default_response_headers
    patch_vary_headers(response, [vary for vary in (headers.pop("Vary", None), "Cookie") if vary])
    for name, value in headers.items():
        response[name] = value
    return response


def standings_csv(response: HttpResponse, league_id: int) -> HttpResponse:
    """`?format=csv`: the same table as `text/csv` with a header row (the JSON rows' keys; a list or
    an object in a cell as its JSON). A 304 stays a 304."""
    if response.status_code != 200:
        return response
    rows = json.loads(response.content)["rows"]
    flat = [{k: v if not isinstance(v, (list, dict)) else json.dumps(v) for k, v in r.items()} for r in rows]
    header = list(flat[0]) if flat else ["position", "team", "team_name", "played", "won", "drawn", "lost", "points"]
    return csv_response(header, flat, f"standings-{league_id}.csv")
