"""The commissioner closes a season in a real browser (issue 13; docs/decisions/ 2026-12-02 "The season turn"):
from the dashboard to the seasons page, the turn, season 2 open, and season 1's page with its champion. At desktop
width with the default `carry`; at a phone's (390 px, no sideways scrolling) with a redraft set "from next
season", which the page announces before the turn and confirms after it.

Playwright's sync API drives Debian's Chromium against pytest-django's live server (fixtures in conftest.py).
"""

from __future__ import annotations

import pytest

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from dugout.seasons import league_set_next_season_rules  # noqa: E402
from league.models import Season  # noqa: E402
from teams.models import Team  # noqa: E402
from tests.bulk_league import bulk_league  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _no_sideways_scroll(page, width: int) -> None:
    if width < 500:
        assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize(("width", "rollover"), [(1280, "carry"), (390, "redraft")], ids=["desktop", "phone"])
def test_the_commissioner_closes_the_season_and_finds_season_one_with_its_champion(log_in, js_errors, width, rollover):
    league = bulk_league(teams=4)
    if rollover == "redraft":
        league_set_next_season_rules(
            user=league.created_by, league_id=league.pk, overrides={"season_rollover": "redraft"}
        )
    page = log_in(league.created_by.username)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"/leagues/{league.pk}/")
    page.get_by_role("link", name="Commissioner's dashboard").click()
    expect(page.locator("h1")).to_contain_text("commissioner's dashboard")
    page.locator("#seasons-link").click()
    hint = page.locator("#season-rollover")
    if rollover == "redraft":
        expect(hint).to_contain_text("this league redrafts")
        expect(hint).to_contain_text("100,000 gil")
    else:
        expect(hint).to_contain_text("teams keep their treasuries, rosters, SPP, fan factor")
    _no_sideways_scroll(page, width)

    page.fill("#season-name", "Season two")
    page.get_by_role("button", name="Close and open the next").click()

    expect(page.locator(".messages")).to_contain_text("Season two is open.")
    if rollover == "redraft":
        expect(page.locator(".messages")).to_contain_text("Every team was redrafted")
    first = Season.objects.get(league=league, number=1)
    champion = Team.objects.get(pk=first.champion_id)
    seasons = page.locator("#seasons li")
    expect(seasons).to_have_count(2)
    expect(seasons.nth(0)).to_contain_text(f"champion: {champion.name}")
    expect(seasons.nth(1)).to_contain_text("Season two — open since")
    _no_sideways_scroll(page, width)

    seasons.nth(0).get_by_role("link", name="Season 1").click()
    expect(page.locator("main")).to_contain_text("the final table.")
    expect(page.locator("main")).to_contain_text(f"Champion: {champion.name}")
    expect(page.locator("table tbody tr")).to_have_count(4)
    _no_sideways_scroll(page, width)
    still_on_roster = champion.players.filter(left_at__isnull=True).exists()
    assert still_on_roster is (rollover == "carry")
    assert js_errors == []
