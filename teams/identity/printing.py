"""`/teams/<id>/roster.pdf`: the team sheet printed — the roster columns the ruleset declares (the same
`sheet_context` the page uses, never restated), the team value, colours and logo."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.text import slugify

from teams.web.sheet import sheet_context

from .pdf import logo_data_uri, pdf_response


def team_roster_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    context = sheet_context(request, pk)
    team = context["team"]
    context["logo_uri"] = logo_data_uri(team)
    return pdf_response(request, "teams/print/roster.html", context, f"{slugify(team.name) or 'team'}-roster.pdf")
