"""An ElfBall match from the coaches' side, in a real browser: Alice enters the result by clicking, for each goal,
the players who were on the field when it went in; Bob, in a browser of his own, confirms it; Alice finds the
Goal Points on her team sheet.

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
from matches.models import Match  # noqa: E402
from teams.models import Player  # noqa: E402
from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = Path(settings.BASE_DIR) / "var" / "elfball-result.png"


def on_field(page, team, goal: int, *names: str) -> None:
    """Click the players on the field for that goal (the toggles are the players' names)."""
    fieldset = page.locator(f"#goal-{team.pk}-{goal}")
    for name in names:
        fieldset.get_by_text(name, exact=True).click()
        expect(fieldset.get_by_label(name, exact=True)).to_be_checked()


def test_a_coach_enters_the_goals_by_clicking_the_players_on_the_field_and_sees_the_goal_points(log_in, js_errors):
    commissioner = UserFactory(username="commish")
    league = LeagueFactory(name="Treetop Cup", ruleset="elfball", created_by=commissioner)
    winds = TeamFactory(league=league, coach=UserFactory(username="alice"), name="Divine Wind", roster="divine_wind")
    widows = TeamFactory(league=league, coach=UserFactory(username="bob"), name="Black Widows", roster="black_widows")
    for n, position in enumerate(["defender", "hunter", "hunter", "midfielder", "midfielder", "midfielder"], 1):
        hire(winds, position, name=f"Wind {n}", number=n)
    for n, position in enumerate(["hunter", "hunter", "midfielder", "midfielder", "striker", "striker"], 1):
        hire(widows, position, name=f"Widow {n}", number=n)
    match = services.match_schedule(user=winds.coach, league=league, team_ids=[winds.pk, widows.pk])

    # Alice enters the result from the match report: Divine Wind 2–1.
    alice = log_in("alice")
    alice.goto(f"/matches/{match.pk}/")
    alice.get_by_role("link", name="Enter the result", exact=True).click()
    expect(alice.locator(f"#goal-{winds.pk}-1 legend")).to_contain_text("Goal 1")
    on_field(alice, winds, 1, "#1 Wind 1", "#2 Wind 2", "#3 Wind 3")
    on_field(alice, winds, 2, "#1 Wind 1", "#4 Wind 4")
    on_field(alice, widows, 1, "#5 Widow 5", "#6 Widow 6")
    # A second click takes a player off the field again.
    goal = alice.locator(f"#goal-{widows.pk}-1")
    goal.get_by_text("#6 Widow 6", exact=True).click()
    expect(goal.get_by_label("#6 Widow 6", exact=True)).not_to_be_checked()
    alice.get_by_label("Grit outcome: Widow 3", exact=True).select_option("out_for_game")
    SCREENSHOT.parent.mkdir(exist_ok=True)
    alice.screenshot(path=str(SCREENSHOT), full_page=True)
    alice.get_by_role("button", name="Save the result").click()
    expect(alice.locator(".messages")).to_contain_text("Result entered.")
    expect(alice).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    expect(alice.locator("#match-status")).to_have_attribute("data-status", "submitted")
    expect(alice.locator("#goals")).to_contain_text("#1 Wind 1, #4 Wind 4")

    # Bob, in a browser of his own, confirms it.
    bob = log_in("bob")
    bob.goto(f"/matches/{match.pk}/")
    bob.get_by_role("button", name="Confirm the result").click()
    expect(bob.locator(".messages")).to_contain_text("Result confirmed")
    expect(bob.locator("#match-status")).to_have_attribute("data-status", "final")
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINAL

    # Alice's team sheet shows the Goal Points: one per goal a player was on the field for.
    alice.goto(f"/teams/{winds.pk}/")
    expect(alice.get_by_role("heading", name="Divine Wind")).to_be_visible()
    roster = alice.locator("#roster")
    for name, points in [("Wind 1", "2"), ("Wind 2", "1"), ("Wind 3", "1"), ("Wind 4", "1"), ("Wind 5", "0")]:
        row = roster.locator("tr", has=alice.get_by_role("cell", name=name, exact=True))
        expect(row.locator("td.goal-points")).to_have_text(points)
    assert Player.objects.get(team=winds, number=1).goal_points == 2
    assert js_errors == []
