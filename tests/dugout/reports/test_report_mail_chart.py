"""The weekly report's e-mail carries its chart as a PNG (issue 14, brief I): mail clients drop inline SVG, so the
HTML part shows `<img src="cid:…">` and the PNG travels as an inline part of a multipart/related message; the
text part is unchanged and the report's page keeps the SVG."""

from __future__ import annotations

import io

import pytest
from django.core import mail
from PIL import Image

from dugout.reports.services import CHART_CID, report_generate, report_mail
from league.models import LeagueReport
from tests.dugout.reports.test_report_chart import _league


@pytest.mark.django_db
def test_the_mail_is_related_html_with_a_cid_png_and_the_text_part_unchanged(api_as, client):
    league = _league(api_as, 2, "M")
    report = report_generate(league_id=league.pk)
    assert "<svg" in report.html and bytes(report.chart_png)[:8] == b"\x89PNG\r\n\x1a\n"
    assert report_mail(report_id=report.pk) >= 1
    message = mail.outbox[0].message()
    assert message.get_content_type() == "multipart/related"
    alternative, image = message.get_payload()
    assert alternative.get_content_type() == "multipart/alternative"
    text, html = alternative.get_payload()
    assert text.get_content_type() == "text/plain" and text.get_payload(decode=True).decode() == report.text
    body = html.get_payload(decode=True).decode()
    assert f'src="cid:{CHART_CID}"' in body and "<svg" not in body
    assert 'alt="Chart M: team value over the season: M 0 55,000 to 56,000 gil' in body
    assert image.get_content_type() == "image/png" and image["Content-ID"] == f"<{CHART_CID}>"
    assert image["Content-Disposition"].startswith("inline")
    picture = Image.open(io.BytesIO(image.get_payload(decode=True)))
    assert picture.format == "PNG" and picture.size[0] == 640
    # The page keeps the SVG (the stored body is unchanged).
    assert LeagueReport.objects.get(pk=report.pk).html == report.html


@pytest.mark.django_db
def test_a_report_without_a_chart_is_mailed_as_before(api_as):
    league = _league(api_as, 2, "N")
    report = report_generate(league_id=league.pk)
    LeagueReport.objects.filter(pk=report.pk).update(chart_png=b"")
    report_mail(report_id=report.pk)
    message = mail.outbox[0].message()
    assert message.get_content_type() == "multipart/alternative"
    assert "<svg" in message.get_payload()[1].get_payload(decode=True).decode()
