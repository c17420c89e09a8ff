"""What the page tests of the campaign games share: reading rendered HTML and the pages' URLs."""

from __future__ import annotations

import html
import re

from django.urls import reverse

from matches.models import Match
from teams.models import Player, Team

HTMX = {"HX-Request": "true"}


def text(response) -> str:
    return html.unescape(response.content.decode())


def plain(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def element(page: str, element_id: str) -> str:
    """The element with that id, up to its own closing tag (nested elements of the same name included)."""
    found = re.search(rf'<(\w+)\b[^>]*\bid="{element_id}"[^>]*>', page)
    assert found, f"#{element_id} is not on the page"
    tag, depth = found.group(1), 0
    for mark in re.finditer(rf"<(/?){tag}\b[^>]*>", page[found.start() :]):
        depth += -1 if mark.group(1) else 1
        if depth == 0:
            return page[found.start() : found.start() + mark.end()]
    raise AssertionError(f"#{element_id} is not closed")


def player_row(page: str, name: str) -> str:
    # The name links to the player's page (issue 14).
    name_cell = rf"<td>(?:<a [^>]*>)?{re.escape(name)}(?:</a>)?</td>"
    found = re.search(rf"<tr><td>[^<]*</td>{name_cell}.*?</tr>", page, flags=re.S)
    assert found, f"{name}'s row is not on the sheet"
    return found.group(0)


def cell(row: str, cls: str) -> str:
    found = re.search(rf'<td class="[^"]*\b{cls}\b[^"]*"[^>]*>(.*?)</td>', row, flags=re.S)
    assert found, f"no {cls} cell"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def by_number(team: Team) -> dict[int, Player]:
    return {p.number: p for p in Player.objects.filter(team=team, left_at__isnull=True)}


def result_url(match: Match) -> str:
    return reverse("match-result", args=[match.pk])


def report_url(match: Match) -> str:
    return reverse("match-detail", args=[match.pk])


def walk_url(match: Match, team: Team) -> str:
    return reverse("match-aftermath", args=[match.pk, team.pk])


def sheet_url(team: Team) -> str:
    return reverse("team-detail", args=[team.pk])
