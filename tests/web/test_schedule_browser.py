"""The commissioner generates a round robin in a real browser (issue 13, "Schedules"): the form, a preview of
its rounds (nothing published), then Publish — the rounds appear on the schedule page and on the league's
fixtures with their dates. Once at desktop width, once at a phone's (390 px, no sideways scrolling).

Playwright's sync API drives Debian's Chromium against pytest-django's live server (fixtures in conftest.py).
"""

from __future__ import annotations

import pytest

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from matches.models import Match  # noqa: E402
from tests.dugout.schedules.helpers import five_teams  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
def test_the_commissioner_previews_and_publishes_a_round_robin(log_in, league, commissioner, js_errors, width):
    five_teams(league)
    page = log_in(commissioner.username)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"/leagues/{league.pk}/")
    page.locator("#schedule-link").click()
    page.select_option("#id_format", "round_robin")
    page.select_option("#id_legs", "2")
    page.fill("#id_start", "2027-01-04")
    page.fill("#id_days_per_round", "7")
    page.get_by_role("button", name="Preview").click()

    preview = page.locator("#preview-rounds tbody tr")
    expect(preview).to_have_count(10)
    expect(preview.first).to_contain_text("Team A v Team D")
    expect(preview.first).to_contain_text("Team E")  # resting in round 1
    assert Match.objects.count() == 0  # a preview publishes nothing
    if width < 500:
        assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.get_by_role("button", name="Publish").click()
    expect(page.locator(".messages")).to_contain_text("Published: 10 round(s), 20 match(es).")
    expect(page.locator("#schedule-round_robin tbody tr")).to_have_count(10)
    assert Match.objects.filter(league=league, round__isnull=False).count() == 20

    page.goto(f"/leagues/{league.pk}/fixtures/")
    expect(page.locator("#fixtures")).to_contain_text("Round 1: 2027-01-04")
    if width < 500:
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert js_errors == []
