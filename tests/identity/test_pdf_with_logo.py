"""A team with a logo prints: the roster PDF and the match sheet PDF inline its 64 px logo as a data: URL, which
the renderer reads through WeasyPrint's own URL fetcher (restricted to data: URLs), and the PDF carries the
logo's pixels. Any other URL in a printed page is never fetched."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from matches.services import match_confirm, match_schedule, match_submit_result
from teams.identity.pdf import pdf_response
from teams.identity.services import team_set_logo

from .conftest import image_bytes

pytestmark = pytest.mark.django_db

LOGO_RED = (200, 30, 30)
LOGO_BLUE = (30, 30, 200)


def pdf_reader(response) -> PdfReader:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return PdfReader(io.BytesIO(response.content))


def logos_in(reader: PdfReader) -> list[tuple[int, int, int]]:
    """The colours of the PDF's embedded 64×64 images (the logos, each one plain colour)."""
    return [
        picture.getpixel((32, 32))
        for page in reader.pages
        for picture in (image.image.convert("RGB") for image in page.images)
        if picture.size == (64, 64)
    ]


def text_of(reader: PdfReader) -> str:
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_roster_pdf_of_a_team_with_a_logo_prints_the_logo(client, coach, home):
    team_set_logo(team_id=home.pk, user=coach, data=image_bytes(colour=LOGO_RED))

    reader = pdf_reader(client.get(f"/teams/{home.pk}/roster.pdf"))

    assert "Home 1" in text_of(reader)
    assert logos_in(reader) == [LOGO_RED]


def test_the_match_sheet_of_teams_with_logos_prints_both_logos(
    client, league, home, away, coach, other_coach, commissioner
):
    team_set_logo(team_id=home.pk, user=coach, data=image_bytes(colour=LOGO_RED))
    team_set_logo(team_id=away.pk, user=other_coach, data=image_bytes(colour=LOGO_BLUE))
    match = match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    body = {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}], "players": []}
    match_submit_result(user=coach, match_id=match.pk, body=body)
    match_confirm(user=commissioner, match_id=match.pk)

    reader = pdf_reader(client.get(f"/matches/{match.pk}/sheet.pdf"))

    text = text_of(reader)
    assert "Home 1" in text and "Away 1" in text
    assert sorted(logos_in(reader)) == sorted([LOGO_RED, LOGO_BLUE])


def test_a_printed_page_fetches_nothing_but_data_urls(rf, monkeypatch, tmp_path):
    """An image by file: or http: URL is left out of the PDF (a warning), never read, never a 500."""
    secret = tmp_path / "secret.png"
    secret.write_bytes(image_bytes(size=(64, 64), colour=LOGO_RED))
    html = f'<img src="{secret.as_uri()}"><img src="http://127.0.0.1:9/x.png"><p>Printed</p>'
    monkeypatch.setattr("teams.identity.pdf.render_to_string", lambda *args, **kwargs: html)

    response = pdf_response(rf.get("/"), "unused.html", {}, "x.pdf")

    reader = pdf_reader(response)
    assert "Printed" in text_of(reader)
    assert logos_in(reader) == []
