"""Inducement shopping in a real browser: the match is scheduled, its weather and fans rolled with the dice the
coaches entered, and the superior team has closed its shopping; the underdog's coach goes from the match page to
the pre-match sequence and on to his inducement page, sees the budget and the four-minute countdown ticking,
buys a Keg and a Mercenary (htmx swapping the shop, the clock running on), and finds them on the match page.

Playwright's sync API drives Debian's Chromium against pytest-django's live server.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from django.conf import settings  # noqa: E402

from matches import services  # noqa: E402
from matches.models import Inducement, Prematch  # noqa: E402
from matches.prematch import prematch_post  # noqa: E402
from teams.selectors import team_treasury  # noqa: E402
from tests.factories import LeagueFactory, UserFactory  # noqa: E402
from tests.matches.conftest import full_team  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = Path(settings.BASE_DIR) / "var" / "inducements.png"
REPORT_SCREENSHOT = Path(settings.BASE_DIR) / "var" / "prematch-report.png"


def buy(page, button) -> None:
    """Click a buy button and expect htmx to swap the shop in place (no page load)."""
    page.evaluate("window.__sameDocument = true")
    with page.expect_response(lambda r: "/inducements/" in r.url and r.request.method == "POST") as posted:
        button.click()
    assert posted.value.status == 200
    assert posted.value.request.headers.get("hx-request") == "true"
    expect(page.locator("#shop-notice")).to_be_visible()
    expect(page.locator("#shop [role=alert]")).to_have_count(0)
    assert page.evaluate("window.__sameDocument === true"), "buying reloaded the page instead of swapping the shop"


def test_the_underdog_buys_a_keg_and_a_mercenary_with_the_clock_running(log_in, js_errors):
    commissioner = UserFactory(username="commish")
    league = LeagueFactory(name="Gil Cup", ruleset="blitzbowl", created_by=commissioner)
    humes = full_team(league, UserFactory(username="alice"), "Alice's Humes")  # 11 Linemen: TV 55,000
    goblins = full_team(league, UserFactory(username="bob"), "Bob's Goblins", roster="goblin", position="goblin")
    match = services.match_schedule(user=humes.coach, league=league, team_ids=[humes.pk, goblins.pk])
    # Weather and fans with the dice rolled at the table; the Humes (higher TV) shop first and buy nothing.
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    prematch_post(
        user=goblins.coach,
        match_id=match.pk,
        step="fans",
        rolls={"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}},
    )
    prematch_post(user=humes.coach, match_id=match.pk, step="inducements_superior", choices={"done": True})
    assert Prematch.objects.get(match=match).induced[str(goblins.pk)] == 11_000
    treasury = team_treasury(team=goblins)

    # Bob goes from the match page to the pre-match sequence, and on to his shopping.
    bob = log_in("bob")
    bob.goto(f"/matches/{match.pk}/")
    expect(bob.locator("#weather")).to_have_text("Perfect Conditions")
    bob.get_by_role("link", name="Walk the pre-match sequence").click()
    expect(bob.locator("#step-title")).to_have_text("Step 4 of 4: Inducements: the underdog")
    bob.get_by_role("link", name="Shop for Bob's Goblins").click()
    expect(bob.get_by_role("heading", level=1)).to_contain_text("Inducements: Bob's Goblins")

    # The budget: 11,000 of inducement gil, and the treasury behind it.
    expect(bob.locator("#induced")).to_have_attribute("data-value", "11000")
    expect(bob.locator("#induced")).to_have_text("11,000 gil")
    expect(bob.locator("#treasury")).to_have_attribute("data-value", str(treasury))
    expect(bob.locator("#spendable")).to_have_attribute("data-value", str(11_000 + treasury))

    # The four-minute countdown starts at 4:00 and ticks below it.
    countdown = bob.locator("#countdown")
    expect(countdown).to_have_text(re.compile(r"^(4:00|3:5\d)$"))
    expect(countdown).to_have_text(re.compile(r"^3:5\d$"))

    # A Keg from the list.
    buy(bob, bob.locator("#item-keg").get_by_role("button", name="Buy Blitzweiser Kegs"))
    expect(bob.locator("#shop-notice")).to_have_text("Bought: Blitzweiser Keg for 5,000 gil.")
    expect(bob.locator("#item-keg td").nth(1)).to_have_text("1")

    # A Mercenary Goblin with Catch: 4,000 + 3,000 + 5,000.
    merc = bob.locator("#mercenary-form")
    merc.get_by_label("Position").select_option(label="Goblin — 7,000 gil")
    merc.get_by_label(re.compile("^Extra skill")).select_option("Catch")
    buy(bob, merc.get_by_role("button", name="Hire the mercenary"))
    expect(bob.locator("#shop-notice")).to_have_text("Bought: Mercenary Goblin with Catch for 12,000 gil.")

    expect(bob.locator("#bought tbody tr")).to_have_count(2)
    expect(bob.locator("#spent")).to_have_attribute("data-value", "17000")
    expect(bob.locator("#from-treasury")).to_have_attribute("data-value", "6000")
    # The swaps left the clock running: it did not start again at 4:00.
    expect(countdown).to_have_text(re.compile(r"^3:[0-5]\d$"))
    SCREENSHOT.parent.mkdir(exist_ok=True)
    bob.screenshot(path=str(SCREENSHOT), full_page=True)
    assert sorted(Inducement.objects.filter(match=match).values_list("item", flat=True)) == ["keg", "mercenary"]

    # The match page shows them.
    bob.goto(f"/matches/{match.pk}/")
    row = bob.locator(f"#prematch-team-{goblins.pk}")
    expect(row).to_contain_text("Blitzweiser Keg (5,000 gil)")
    expect(row).to_contain_text("Mercenary Goblin with Catch (12,000 gil)")
    expect(row).to_contain_text("17,000 gil in all")
    expect(bob.locator("#gate")).to_have_text("14,000 fans")
    bob.screenshot(path=str(REPORT_SCREENSHOT), full_page=True)
    assert js_errors == []
