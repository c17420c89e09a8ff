"""The divisions panel in a real browser (issue 13, "Divisions"): the commissioner creates a division and
places a team from the dashboard, in place (htmx), and the dashboard does not scroll sideways at phone width."""

from __future__ import annotations

import pytest

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from league.models import Division  # noqa: E402
from teams.models import Team  # noqa: E402
from tests.dugout.schedules.helpers import ready_teams  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 740}


def test_issue13_divisions_the_commissioner_splits_the_league_from_the_dashboard_at_phone_width(
    log_in, js_errors, commissioner, league
):
    (a,) = ready_teams(league, 1, prefix="A very long team name that could push the page sideways on a phone")
    page = log_in(commissioner.username)
    page.set_viewport_size(PHONE)
    page.goto(f"/commissioner/{league.pk}/")
    panel = page.locator("#divisions")
    expect(panel.locator("#division-create")).to_be_visible()  # came in by htmx
    page.evaluate("window.__sameDocument = true")
    panel.get_by_label("New division").fill("North")
    panel.get_by_role("button", name="Create").click()
    expect(page.locator("#divisions [role=status]")).to_contain_text("Division North created.")
    page.locator("#assign-teams").select_option(str(a))
    page.locator("#divisions").get_by_role("button", name="Place").click()
    expect(page.locator("#divisions [role=status]")).to_contain_text("1 team(s) placed.")
    assert page.evaluate("window.__sameDocument === true"), "the panel's forms reloaded the page"
    assert Team.objects.get(pk=a).division == Division.objects.get(league=league, name="North")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the dashboard scrolls sideways at phone width ({width}px)"
    assert js_errors == []
