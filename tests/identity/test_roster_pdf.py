"""The printable roster (issue 14, "printable roster"): `/teams/<id>/roster.pdf` by WeasyPrint, the columns the
ruleset declares (as the team sheet), read back as text; without WeasyPrint a clear 503 and the site works
(docs/decisions/ 2026-12-02 "PDFs without WeasyPrint")."""

from __future__ import annotations

import io
import sys

import pytest
from pypdf import PdfReader

from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db


def pdf_text(response) -> str:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)


def test_the_roster_pdf_lists_the_players_numbers_and_team_value(client, league, coach):
    team = full_team(league, coach, "Printed Humes", n=3)

    text = pdf_text(client.get(f"/teams/{team.pk}/roster.pdf"))

    assert "Printed Humes" in text
    for number in (1, 2, 3):
        assert f"Printed Humes {number}" in text
    assert "Lineman" in text
    assert "Team value" in text and "gil" in text
    header = client.get(f"/teams/{team.pk}/").content.decode()
    assert f'href="/teams/{team.pk}/roster.pdf"' in header


def test_the_roster_pdf_columns_are_the_ruleset_s(client, league, coach):
    """The sheet's own declared columns (league.rules.sheet_columns), not a restated list."""
    team = full_team(league, coach, "Columns", n=1)
    headers = [c.header for c in league.rules.sheet_columns(league.house_rules)]

    text = pdf_text(client.get(f"/teams/{team.pk}/roster.pdf"))

    for header in headers:
        if header:
            assert header in text


def test_without_weasyprint_the_pdf_is_a_clear_503_and_the_team_page_still_works(client, monkeypatch, team):
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # `import weasyprint` now raises ImportError

    response = client.get(f"/teams/{team.pk}/roster.pdf")

    assert response.status_code == 503
    assert "cannot make PDFs" in response.content.decode()
    assert client.get(f"/teams/{team.pk}/").status_code == 200


def test_the_roster_pdf_of_no_team_is_a_404(client, db):
    assert client.get("/teams/999999/roster.pdf").status_code == 404
