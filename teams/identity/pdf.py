"""Printable PDFs (the roster, the match sheet) from HTML templates under templates/*/print/, by
WeasyPrint. WeasyPrint needs Pango and friends from the system; without them (a newcomer's laptop) it cannot be
imported, and a PDF link answers a clear 503 page while the rest of the site works (docs/deploy.md)."""

from __future__ import annotations

import base64

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string

from .images import logo_read


def _weasyprint():
    """The WeasyPrint module, or None when it or its system libraries are missing."""
    try:
        import weasyprint
    except (ImportError, OSError):
        return None
    return weasyprint


def logo_data_uri(team, size: int = 64) -> str:
    """The team's logo inlined (the PDF renderer fetches nothing over the network); empty when it has none."""
    png = logo_read(team.pk, team.logo_key, size) if team.logo_key else None
    return "data:image/png;base64," + base64.b64encode(png).decode() if png else ""


def pdf_response(request: HttpRequest, template: str, context: dict, filename: str) -> HttpResponse:
    """The template rendered to a PDF shown inline, or the 503 page saying why there is none."""
    weasyprint = _weasyprint()
    if weasyprint is None:
        return render(request, "print_unavailable.html", {"what": filename}, status=503)
    html = render_to_string(template, context, request=request)
    pdf = weasyprint.HTML(
        string=html, base_url=request.build_absolute_uri("/"), url_fetcher=_data_only_fetcher(weasyprint)
    ).write_pdf()
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, no-cache"
    return response


def _data_only_fetcher(weasyprint):
    """WeasyPrint's own URL fetcher, allowed the data: scheme only: the logo is inlined as a data: URL, and a PDF
    never fetches from the network or the disk (any other URL is refused by the fetcher and left out of the PDF
    with a warning). WeasyPrint takes an instance of its `URLFetcher` class, not a plain function."""
    return weasyprint.URLFetcher(allowed_protocols={"data"}, allow_redirects=False, fail_on_errors=False)
