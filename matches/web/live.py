"""The live match sheet page (`/matches/{id}/live/`) and the service worker that keeps it working without a
signal (`/sw.js`, served from the site's root so its scope covers /matches/).

The page is a shell: the ruleset declares what it offers (Ruleset.live_events), static/js/live.js keeps the
events (on the server through the draft API, in the phone's storage while there is no signal)."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from matches import drafts, lifecycle, policy
from matches.models import Match
from matches.waiting import waiting_for
from matches.waiting_reads import waiting_queryset
from matches.web.waiting import waiting_banner
from teams.models import Player


@login_required
def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(waiting_queryset(), pk=pk)  # with what it waits for: the warning as it opens
    rules, hr = match.league.rules, match.league.house_rules
    if not rules.has_live_sheet:
        raise Http404("This game has no live sheet.")
    if not policy.may_enter_result(request.user, match):
        message = "Only a coach of a team in this match or the commissioner can keep its live sheet."
        return render(request, "matches/refused.html", {"message": message}, status=403)
    if match.status == Match.Status.VOID:  # a final match's sheet still shows (closed); a void one has none
        return render(request, "matches/refused.html", {"message": lifecycle.VOID_REFUSAL}, status=409)
    sides = list(match.sides.select_related("team").order_by("order"))
    teams = drafts.draft_teams(match)
    players = {p.pk: p for p in Player.objects.filter(pk__in=[p for ids in teams.values() for p in ids])}
    kinds = rules.live_events(hr, event=match.event, teams=len(sides))
    return render(
        request,
        "matches/live.html",
        {
            "match": match,
            "sides": [
                {
                    "team": side.team,
                    "players": [players[p] for p in teams[side.team_id]],
                    "kinds": [k for k in kinds if k.pick == "team" and not k.final],
                    "final_kinds": [k for k in kinds if k.pick == "team" and k.final],
                }
                for side in sides
            ],
            "scored": any(k.score for k in kinds),
            "player_kinds": [k for k in kinds if k.pick != "team" and not k.final],
            "final_kinds": [k for k in kinds if k.pick != "team" and k.final],
            "option_kinds": [k for k in kinds if k.options],
            "declared": json.dumps([k.as_data() for k in kinds]),
            "api": reverse("api-match-draft", args=[match.pk]),
            "closed": not lifecycle.allowed(match.status, lifecycle.Action.SUBMIT),  # no result to enter now
            # Someone else's step holds the result up: the sheet says so as it opens, naming who and linking to it.
            "waiting": waiting_banner(request.user, waiting_for(match), may_enter_result=True),
        },
    )


@require_GET
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js from the root: a worker's scope is at most the folder it is served from."""
    found = finders.find("js/sw.js")
    if not found:
        raise Http404("No service worker.")
    with open(found, encoding="utf-8") as fh:
        response = HttpResponse(fh.read(), content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response
