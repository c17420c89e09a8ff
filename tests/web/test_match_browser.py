"""A match from the coaches' side, in a real browser: Alice schedules a match from the league page and enters
the result on the result form; Bob, in a browser of his own, confirms it from the match report; Alice walks
her team's post-match sequence with the dice she rolled at the table (htmx swapping the step panel) and finds
her team sheet's treasury moved by the amount worked out by hand.

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

from matches.models import Match  # noqa: E402
from teams.models import Player  # noqa: E402
from teams.selectors import team_treasury  # noqa: E402
from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = Path(settings.BASE_DIR) / "var" / "match-report.png"


def data_value(page, selector: str) -> int:
    return int(page.locator(selector).get_attribute("data-value"))


def run_step(page, title: str, button: str = "Run this step") -> None:
    """Submit the step panel and expect htmx to swap it in place (no page load)."""
    page.evaluate("window.__sameDocument = true")
    with page.expect_response(lambda r: "/aftermath/" in r.url and r.request.method == "POST") as posted:
        page.locator("#step-form").get_by_role("button", name=button).click()
    assert posted.value.status == 200
    assert posted.value.request.headers.get("hx-request") == "true"
    expect(page.locator("#aftermath h1")).to_contain_text("Post-match sequence")
    if title:
        expect(page.locator("#step-title")).to_contain_text(title)
    expect(page.locator("#aftermath [role=alert]")).to_have_count(0)
    assert page.evaluate("window.__sameDocument === true"), "the step reloaded the page instead of swapping it"


def dice(page, label: str, values: str) -> None:
    page.locator("#step-form").get_by_label(label, exact=True).fill(values)


def test_coaches_play_a_match_confirm_it_and_walk_the_post_match_sequence_with_their_own_dice(log_in, js_errors):
    commissioner = UserFactory(username="commish")
    league = LeagueFactory(name="Gil Cup", ruleset="blitzbowl", created_by=commissioner)
    humes = TeamFactory(league=league, coach=UserFactory(username="alice"), name="Alice's Humes", roster="hume")
    goblins = TeamFactory(league=league, coach=UserFactory(username="bob"), name="Bob's Goblins", roster="goblin")
    for n in range(1, 12):
        hire(humes, "lineman", name=f"Hume {n}", number=n)
        hire(goblins, "goblin", name=f"Gob {n}", number=n)
    treasury_before = team_treasury(team=humes)
    assert treasury_before == 100_000 - 11 * 5_000

    # Alice schedules the match from the league page.
    alice = log_in("alice")
    alice.goto(f"/leagues/{league.pk}/")
    alice.get_by_role("link", name="Schedule a match").click()
    alice.get_by_label("Home team").select_option(str(humes.pk))
    alice.get_by_label("Away team").select_option(str(goblins.pk))
    alice.get_by_role("button", name="Schedule the match").click()
    expect(alice.locator(".messages")).to_contain_text("The match is scheduled.")
    match = Match.objects.get()
    expect(alice).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    expect(alice.locator("#match-status")).to_have_attribute("data-status", "scheduled")

    # She enters the result: Humes 2–1, Hume 1 scores twice (MVP), Hume 2 injures Gob 3, FAME 1.
    alice.get_by_role("link", name="Enter the result", exact=True).click()
    home, away = alice.locator(f"#team-{humes.pk}"), alice.locator(f"#team-{goblins.pk}")
    home.get_by_label("Score (touchdowns)").fill("2")
    home.get_by_label("Casualties inflicted").fill("1")
    home.get_by_label("MVP").select_option(label="#1 Hume 1 (Lineman)")
    home.get_by_label("FAME (0–2)").fill("1")
    home.get_by_label("Touchdowns: Hume 1", exact=True).fill("2")
    home.get_by_label("Casualties: Hume 2", exact=True).fill("1")
    away.get_by_label("Score (touchdowns)").fill("1")
    away.get_by_label("MVP").select_option(label="#2 Gob 2 (Goblin)")
    away.get_by_label("Touchdowns: Gob 1", exact=True).fill("1")
    away.get_by_label("Injury: Gob 3", exact=True).select_option(label="Miss next match")
    alice.get_by_role("button", name="Save the result").click()
    expect(alice.locator(".messages")).to_contain_text("Result entered.")
    expect(alice.locator("#match-status")).to_have_attribute("data-status", "submitted")
    expect(alice.get_by_role("button", name="Confirm the result")).to_have_count(0)  # not her own

    # Bob, in a browser of his own, confirms it from the match report.
    bob = log_in("bob")
    bob.goto(f"/matches/{match.pk}/")
    expect(bob.locator("#result tbody tr").first.locator("td")).to_have_text(["2", "1", "#1 Hume 1", "1", "—", "Won"])
    bob.get_by_role("button", name="Confirm the result").click()
    expect(bob.locator(".messages")).to_contain_text("Result confirmed")
    expect(bob.locator("#match-status")).to_have_attribute("data-status", "final")

    # Alice walks her team's post-match sequence, entering the dice she rolled at the table.
    alice.reload()
    expect(alice.locator("#match-status")).to_have_attribute("data-status", "final")
    alice.get_by_role("link", name="Walk the post-match sequence", exact=True).click()
    expect(alice.locator("#step-title")).to_have_text("Step 1 of 5: Improvements")
    expect(alice.locator("#treasury")).to_have_attribute("data-value", str(treasury_before))

    # 1. Improvements: Hume 1 earned 11 SPP, one level; 3 + 4 = 7 → a normal skill: Block.
    dice(alice, "Improvement (2d6)", "3, 4")
    run_step(alice, "Step 1 of 5: Improvements")
    expect(alice.locator("#current-step")).to_contain_text("Improvement roll 3 + 4 = 7")
    alice.get_by_label("Hume 1").select_option("Block")
    run_step(alice, "Step 2 of 5: Update team stats", "Answer and continue")
    # 2. Update team stats: 3 league points.
    run_step(alice, "Step 3 of 5: Fortune and FAME")
    # 3. Fortune: winnings 4 (kept) × 1,000 + FAME 1,000 + win 1,000 = 6,000; Fan Factor 6+5+1 = 12 > 0 → +1.
    dice(alice, "Winnings (1d6)", "4")
    dice(alice, "Fan factor (3d6 win / 2d6 draw / 2d6 loss)", "6, 5, 1")
    run_step(alice, "Fortune and FAME")
    expect(alice.locator("#decision")).to_contain_text("Winnings roll: 4. Re-roll it?")
    alice.locator("#decision").get_by_label("No", exact=True).check()
    # The fan factor dice she typed before the pause are still there.
    expect(alice.locator("#step-form").get_by_label("Fan factor (3d6 win / 2d6 draw / 2d6 loss)")).to_have_value(
        "6, 5, 1"
    )
    run_step(alice, "Fortune and FAME", "Answer and continue")
    # Sponsor: d20 20 + FF 1 + won 2 = 23 → one-time sponsorship 3 × 6,000 = 18,000; risk 6: nobody misses.
    expect(alice.locator("#decision")).to_contain_text("Seek a sponsor?")
    alice.locator("#decision").get_by_label("Yes", exact=True).check()
    dice(alice, "Sponsorship (1d20)", "20")
    dice(alice, "One time amount (1d6)", "3")
    dice(alice, "One time risk (1d6)", "6")
    run_step(alice, "Step 4 of 5: Hire and fire", "Answer and continue")
    expect(alice.locator("#treasury")).to_have_attribute("data-value", str(treasury_before + 6_000 + 18_000))
    # 4. Hire and fire: nothing to do.
    run_step(alice, "Step 5 of 5: Prepare for next match")
    # 5. Prepare: treasury 69,000 → d6 5 on the 60,000+ bracket: a minor mistake, lose 2 × 1,000.
    dice(alice, "Expensive mistakes (1d6)", "5")
    dice(alice, "Expensive mistakes amount (1d3 minor / 2d6 catastrophe)", "2")
    run_step(alice, "")
    expect(alice.locator("#complete")).to_contain_text("The post-match sequence is complete.")

    # The team sheet's treasury moved by the amount worked out by hand: +6,000 + 18,000 − 2,000.
    alice.locator("#complete").get_by_role("link", name="See the team sheet").click()
    expect(alice.get_by_role("heading", name="Alice's Humes")).to_be_visible()
    expected = treasury_before + 22_000
    expect(alice.locator("#treasury")).to_have_attribute("data-value", str(expected))
    expect(alice.locator("#treasury")).to_have_text("67,000 gil")
    assert team_treasury(team=humes) == expected
    assert "Block" in Player.objects.get(team=humes, number=1).skills

    # The public report tells the story; keep a picture of it.
    alice.goto(f"/matches/{match.pk}/")
    expect(alice.locator("#rolls tbody tr")).to_have_count(8)
    expect(alice.locator("#rolls")).not_to_contain_text("server")
    expect(alice.locator(".aftermath-log").first).to_contain_text("One-time Sponsorship")
    SCREENSHOT.parent.mkdir(exist_ok=True)
    alice.screenshot(path=str(SCREENSHOT), full_page=True)
    assert js_errors == []
