"""`/matches/<id>/sheet.pdf`: the printable match sheet — the match, the score (or boxes to fill in while it is
not final) and each side's roster with the ruleset's sheet columns (the team sheet's own context)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from matches.models import Match
from teams.identity.pdf import logo_data_uri, pdf_response
from teams.web.sheet import sheet_context

from .views import card_match


def match_sheet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    match = card_match(pk)
    final = match.status == Match.Status.FINAL
    sides = []
    for side in match.sides.all():
        sheet = sheet_context(request, side.team_id)
        sides.append(
            {
                "side": side,
                "team": sheet["team"],
                "players": sheet["players"],
                "columns": sheet["columns"],
                "team_value": sheet["team_value"],
                "economy": sheet["economy"],
                "logo_uri": logo_data_uri(sheet["team"]),
                "score": side.score if final else None,
            }
        )
    context = {"match": match, "league": match.league, "sides": sides, "final": final}
    return pdf_response(request, "matches/print/sheet.html", context, f"match-{match.pk}-sheet.pdf")
