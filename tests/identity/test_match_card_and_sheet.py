"""Sharing a match (issue 14, "share card" and "printable match sheet"; docs/decisions/ 2026-12-02 "Team
identity, printable PDFs and share cards"): `/matches/<id>/card.png` (URL name `match-card`) is a 1200×630 PNG,
cached by what it shows, so a commissioner's correction changes it; the report carries OpenGraph/Twitter tags
with the card as its absolute og:image; `/matches/<id>/sheet.pdf` prints both rosters and the score."""

from __future__ import annotations

import io
import sys

import pytest
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from matches.corrections import match_correct
from matches.services import match_confirm, match_schedule, match_submit_result

pytestmark = pytest.mark.django_db


def result_body(home, away, home_score, away_score) -> dict:
    scores = [(home, home_score), (away, away_score)]
    return {
        "teams": [{"team": team.pk, "score": score} for team, score in scores],
        "players": [
            {"player": team.players.order_by("number").first().pk, "touchdowns": score}
            for team, score in scores
            if score
        ],
    }


@pytest.fixture
def final(league, home, away, coach, commissioner):
    match = match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    match_submit_result(user=coach, match_id=match.pk, body=result_body(home, away, 2, 0))
    return match_confirm(user=commissioner, match_id=match.pk)


def png(response) -> Image.Image:
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    return Image.open(io.BytesIO(response.content))


def test_the_card_url_is_stable_and_named_match_card(final):
    assert reverse("match-card", args=[final.pk]) == f"/matches/{final.pk}/card.png"


def test_the_card_is_a_png_of_the_fixed_size_and_a_correction_changes_it(client, final, home, away, commissioner):
    first = client.get(f"/matches/{final.pk}/card.png")
    image = png(first)
    assert image.format == "PNG" and image.size == (1200, 630)
    assert first["ETag"] and "max-age" in first["Cache-Control"]
    assert client.get(f"/matches/{final.pk}/card.png", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    match_correct(user=commissioner, match_id=final.pk, body=result_body(home, away, 0, 1))
    second = client.get(f"/matches/{final.pk}/card.png")

    assert second["ETag"] != first["ETag"]
    assert second.content != first.content
    assert png(second).size == (1200, 630)


def test_a_team_s_new_colour_changes_the_card(client, api_as, final, coach):
    before = client.get(f"/matches/{final.pk}/card.png")
    home_team = final.sides.get(order=0).team
    patched = api_as(coach).patch(f"/api/v1/teams/{home_team.pk}/", {"primary_colour": "#ff0000"}, format="json")
    assert patched.status_code == 200

    after = client.get(f"/matches/{final.pk}/card.png")

    assert after["ETag"] != before["ETag"]
    assert png(after).getpixel((100, 300))[:3] == (255, 0, 0)


def test_the_card_of_no_match_is_a_404(client, db):
    assert client.get("/matches/999999/card.png").status_code == 404


def test_the_report_carries_share_tags_with_the_card_as_absolute_og_image(client, final):
    page = client.get(f"/matches/{final.pk}/").content.decode()

    assert '<meta property="og:title" content="Home v Away 2 – 0">' in page
    assert f'<meta property="og:image" content="http://testserver/matches/{final.pk}/card.png">' in page
    assert '<meta name="twitter:card" content="summary_large_image">' in page
    assert f'href="/matches/{final.pk}/sheet.pdf"' in page
    assert "style=" not in page


def test_share_tags_use_site_url_when_set(client, final, settings):
    settings.SITE_URL = "https://dugout.example.org"

    page = client.get(f"/matches/{final.pk}/").content.decode()

    assert f'content="https://dugout.example.org/matches/{final.pk}/card.png"' in page


def test_the_match_sheet_pdf_has_both_rosters_numbers_and_the_score(client, final):
    response = client.get(f"/matches/{final.pk}/sheet.pdf")

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    for name in ("Home 1", "Home 11", "Away 1", "Away 11"):
        assert name in text
    assert "Team value" in text and "Score" in text


def test_without_weasyprint_the_match_sheet_is_a_503_and_the_report_still_works(client, monkeypatch, final):
    monkeypatch.setitem(sys.modules, "weasyprint", None)

    assert client.get(f"/matches/{final.pk}/sheet.pdf").status_code == 503
    assert client.get(f"/matches/{final.pk}/").status_code == 200
    assert client.get(f"/matches/{final.pk}/card.png").status_code == 200


def test_the_card_costs_three_queries_and_none_more_once_cached(client, final, django_assert_num_queries):
    """The match with its league, its sides, their teams (common rule: no queries in loops)."""
    with django_assert_num_queries(3):
        client.get(f"/matches/{final.pk}/card.png")
    with django_assert_num_queries(3):
        client.get(f"/matches/{final.pk}/card.png")
