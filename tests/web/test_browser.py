"""The issue's acceptance, in a real browser: a stranger signs up, joins a Blitz Bowl league, founds a Hume
team and hires two players from the team sheet; htmx swaps the sheet and the treasury and team value move
by each position's cost.

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
expect, sync_playwright = sync_api.expect, sync_api.sync_playwright

from django.conf import settings  # noqa: E402

from teams.models import Player, Position, Team  # noqa: E402
from teams.selectors import team_treasury  # noqa: E402
from tests.factories import LeagueFactory, UserFactory  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = Path(settings.BASE_DIR) / "var" / "browser-team-sheet.png"
PASSWORD = "Kickoff-at-dawn-42"


@pytest.fixture
def page(new_page):
    """A fresh Chromium page whose relative URLs go to the live server."""
    return new_page()


def data_value(page, selector: str) -> int:
    return int(page.locator(selector).get_attribute("data-value"))


def hire_from_the_sheet(page, position: Position, name: str) -> None:
    """Hire through the sheet's form and expect the swap: treasury down and team value up by the position's
    cost, the player on the roster, and no page load (htmx swapped #sheet in place)."""
    treasury, team_value = data_value(page, "#treasury"), data_value(page, "#team-value")
    page.evaluate("window.__sameDocument = true")
    form = page.locator("#hire-form")
    form.locator("#id_position").select_option(position.key)
    form.locator("#id_name").fill(name)
    with page.expect_response(lambda r: r.url.endswith("/hire/") and r.request.method == "POST") as hired:
        form.get_by_role("button", name="Hire").click()
    assert hired.value.status == 200
    assert hired.value.request.headers.get("hx-request") == "true"

    expect(page.locator("#treasury")).to_have_attribute("data-value", str(treasury - position.cost))
    expect(page.locator("#team-value")).to_have_attribute("data-value", str(team_value + position.cost))
    expect(page.locator("#sheet [role=status]")).to_have_text(f"Hired {name}.")
    expect(page.locator("#roster tbody tr", has_text=name)).to_contain_text(position.name)
    assert page.evaluate("window.__sameDocument === true"), "the hire reloaded the page instead of swapping #sheet"


def a_refused_hire_is_swapped_in(page) -> None:
    """A refused hire is answered 400 with the sheet and the reason in words; #sheet is marked
    data-swap-refusals, so htmx swaps it in like a success: the coach reads why, on the same page, and the
    treasury has not moved."""
    treasury = data_value(page, "#treasury")
    page.evaluate("window.__sameDocument = true")
    # No name: the browser's own check is lifted so the server is the one to refuse.
    page.evaluate("document.querySelectorAll('#hire-form [required]').forEach((e) => e.removeAttribute('required'))")
    form = page.locator("#hire-form")
    form.locator("#id_name").fill("")
    with page.expect_response(lambda r: r.url.endswith("/hire/") and r.request.method == "POST") as refused:
        form.get_by_role("button", name="Hire").click()
    assert refused.value.status == 400
    expect(page.locator("#sheet [role=alert]")).to_contain_text("name: This field is required.")
    assert data_value(page, "#treasury") == treasury
    assert page.evaluate("window.__sameDocument === true"), "the refused hire reloaded the page"


def test_stranger_signs_up_joins_a_league_founds_a_team_and_hires_two_players(page, js_errors):
    league = LeagueFactory(name="Gil Cup", ruleset="blitzbowl", created_by=UserFactory(username="commish"))
    assert league.open_registration
    blitzer = Position.objects.get(roster__ruleset="blitzbowl", roster__key="hume", key="blitzer")
    catcher = Position.objects.get(roster__ruleset="blitzbowl", roster__key="hume", key="catcher")

    # A stranger opens the home page and signs up.
    page.goto("/")
    expect(page.get_by_role("heading", name="Leagues")).to_be_visible()
    page.locator("header").get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/signup/$"))
    page.fill("#id_username", "rookie")
    page.fill("#id_email", "rookie@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("main").get_by_role("button", name="Sign up").click()
    expect(page.locator(".messages")).to_contain_text("Welcome to Dugout, rookie!")
    expect(page.locator("header .who")).to_have_text("rookie")

    # Opens the league, joins it as a coach and creates a team with the Hume roster.
    page.get_by_role("link", name="Gil Cup").click()
    expect(page.get_by_role("heading", name="Gil Cup")).to_be_visible()
    page.get_by_role("button", name="Join as a coach").click()
    expect(page.locator(".messages")).to_contain_text("You coach in Gil Cup now")
    page.get_by_role("link", name="Create a team").click()
    page.fill("#id_name", "Rookie Humes")
    page.select_option("#id_roster", "hume")
    page.get_by_role("button", name="Create team").click()
    expect(page.get_by_role("heading", name="Rookie Humes")).to_be_visible()
    expect(page.locator("#treasury")).to_have_attribute("data-value", "100000")
    expect(page.locator("#team-value")).to_have_attribute("data-value", "0")

    # Hires two players from the team sheet; each hire costs its position's price and adds it to the TV.
    hire_from_the_sheet(page, blitzer, "Brick Stonefist")
    hire_from_the_sheet(page, catcher, "Hugo Hands")
    a_refused_hire_is_swapped_in(page)
    treasury, team_value = 100_000 - blitzer.cost - catcher.cost, blitzer.cost + catcher.cost
    expect(page.locator("#treasury")).to_have_attribute("data-value", str(treasury))
    expect(page.locator("#team-value")).to_have_attribute("data-value", str(team_value))
    expect(page.locator("#treasury")).to_have_text("84,000 gil")
    expect(page.locator("#team-value")).to_have_text("16,000 gil")
    expect(page.locator("#roster tbody tr")).to_have_count(2)

    # The browser showed what the database holds.
    team = Team.objects.get(name="Rookie Humes")
    assert team.coach.username == "rookie" and team.league == league
    assert team_treasury(team=team) == treasury
    assert sorted(Player.objects.filter(team=team).values_list("name", flat=True)) == ["Brick Stonefist", "Hugo Hands"]

    # The sheet as a fresh page load agrees, and nothing in the page threw.
    page.reload()
    expect(page.locator("#treasury")).to_have_attribute("data-value", str(treasury))
    expect(page.locator("#team-value")).to_have_attribute("data-value", str(team_value))
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)
    assert js_errors == []
