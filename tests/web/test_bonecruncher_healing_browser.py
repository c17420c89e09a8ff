"""The Trainer's healing in a real browser (rules/bonecruncher.md "Wounds"): with JavaScript, the "remove a
condition" select offers only the chosen player's conditions (static/js/heal-conditions.js); without it the page
lists them under each player and the server refuses a mismatch (tests/web/test_bonecruncher_healing_pages.py)."""

from __future__ import annotations

import pytest

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from teams.models import Player  # noqa: E402
from tests.factories import UserFactory  # noqa: E402
from tests.web.pages import by_number  # noqa: E402
from tests.web.test_bonecruncher_healing_pages import crunch_league, final_with_trainer  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_condition_select_follows_the_chosen_player(log_in, js_errors):
    commissioner, alice, bob = (UserFactory(username=n) for n in ("commish", "alice", "bob"))
    match, orcs = final_with_trainer(crunch_league(commissioner, severed_arm_heals=True), alice, bob)
    o = by_number(orcs)
    page = log_in("bob")
    page.goto(f"/matches/{match.pk}/aftermath/{orcs.pk}/")
    page.locator("#step-form").get_by_role("button", name="Run this step").click()
    remove = page.locator('select[name="heal_0_remove"]')
    expect(remove).to_be_visible()

    page.locator('select[name="heal_0_player"]').select_option(str(o[5].pk))
    groups = remove.locator("optgroup:not([disabled])")
    expect(groups).to_have_count(1)
    expect(groups).to_have_attribute("label", "Orc 5")

    page.locator('select[name="heal_0_player"]').select_option(str(o[4].pk))
    expect(groups).to_have_count(1)
    expect(groups).to_have_attribute("label", "Orc 4")
    remove.select_option("severed_arm:right")
    page.locator("#step-form").get_by_role("button", name="Answer and continue").click()
    expect(page.locator("#step-title")).to_contain_text("Veterans and Elite")
    assert Player.objects.get(pk=o[4].pk).conditions == []
    assert js_errors == []
