"""What the pre-match pages' tests share: the URLs, reading the prematch record and its log, posting, and
walking the weather and fans steps through the service."""

from __future__ import annotations

import re

from django.urls import reverse

from matches.models import Inducement, Match, Prematch, Roll
from matches.prematch import prematch_post
from teams.models import LedgerEntry, Team
from tests.web.pages import HTMX

# --- helpers ------------------------------------------------------------------------------------


def prematch_url(match: Match) -> str:
    return reverse("match-prematch", args=[match.pk])


def shop_url(match: Match, team: Team) -> str:
    return reverse("match-inducements", args=[match.pk, team.pk])


def data_value(page: str, element_id: str) -> int:
    found = re.search(rf'id="{element_id}" data-value="(-?\d+)"', page)
    assert found, f"#{element_id} with a data-value is not on the page"
    return int(found.group(1))


def log_lines(match: Match) -> list[str]:
    return [line for entry in Prematch.objects.get(match=match).log for line in entry["lines"]]


def record(match: Match) -> dict:
    """What a refused POST must leave alone."""
    prematch = Prematch.objects.filter(match=match).first()
    return {
        "step": prematch and (prematch.step_index, prematch.complete, prematch.log),
        "rolls": Roll.objects.filter(match=match).count(),
        "inducements": sorted(Inducement.objects.filter(match=match).values_list("id", "item", "quantity", "price")),
        "ledger": LedgerEntry.objects.count(),
    }


def post(client, url, data, *, htmx=False):
    return client.post(url, data, headers=HTMX if htmx else {}, follow=not htmx)


def run_weather_and_fans(match: Match, humes: Team, goblins: Team) -> None:
    """Weather 3 + 4; fans Humes 5 + 6, Goblins 2 + 1 — through the service."""
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    prematch_post(
        user=humes.coach,
        match_id=match.pk,
        step="fans",
        rolls={"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}},
    )


def induced(match: Match, team: Team) -> int:
    return Prematch.objects.get(match=match).induced[str(team.pk)]
