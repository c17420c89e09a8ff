"""The coach's home badge in a real browser, when the opponent submits: Alice has a page open with one match
already waiting for her (a result to enter against Carol); Bob, in his own match against her, closes his shopping
turn and submits the result through the REST API from his own device. Alice reloads the page she has open: the
header badge counts one more, and her home lists Bob's result to confirm beside what waited before.

Playwright's sync API drives Debian's Chromium against pytest-django's live server (fixtures in conftest.py).
"""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from django.urls import reverse  # noqa: E402

from matches import services  # noqa: E402
from matches.prematch import prematch_post  # noqa: E402
from tests.factories import TeamFactory, UserFactory  # noqa: E402
from tests.matches.conftest import full_team  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_opponents_submitted_result_adds_one_to_the_open_pages_badge_and_waits_on_the_coachs_home(
    log_in, league, api_as, js_errors
):
    alice_user, bob_user = UserFactory(username="alice"), UserFactory(username="bob")
    humes = full_team(league, alice_user, "Alice's Humes")  # 11 Linemen: the higher Team Value, shops first
    goblins = full_team(league, bob_user, "Bob's Goblins", roster="goblin", position="goblin")
    carols = TeamFactory(league=league, coach=UserFactory(username="carol"), name="Carol's side")
    # Already waiting for Alice before Bob does anything: the result of her match against Carol.
    waiting = services.match_schedule(user=alice_user, league=league, team_ids=[humes.pk, carols.pk])
    # Against Bob: weather and fans rolled, Alice has shopped; Bob's shopping turn is open, so the result waits
    # for him and nothing of this match waits for her.
    match = services.match_schedule(user=alice_user, league=league, team_ids=[humes.pk, goblins.pk])
    prematch_post(user=alice_user, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    fans = {"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}}
    prematch_post(user=alice_user, match_id=match.pk, step="fans", rolls=fans)
    prematch_post(user=alice_user, match_id=match.pk, step="inducements_superior", choices={"done": True})

    alice = log_in("alice")
    alice.goto(f"/teams/{humes.pk}/")
    expect(alice.locator("#waiting-badge")).to_have_text("1")

    # Bob, at his own table: done shopping, then the result through the API his phone uses.
    prematch_post(user=bob_user, match_id=match.pk, step="inducements_underdog", choices={"done": True})
    body = {"teams": [{"team": humes.pk, "score": 0}, {"team": goblins.pk, "score": 0}]}
    response = api_as(bob_user).post(f"/api/v1/matches/{match.pk}/result/", body, format="json")
    assert response.status_code == 201, response.json()

    # Alice's open page, reloaded: one more in the badge.
    alice.reload()
    expect(alice.locator("#waiting-badge")).to_have_text("2")

    # Her home lists Bob's result to confirm, and still the result she owes against Carol.
    alice.locator("#me-link").click()
    expect(alice).to_have_url(re.compile(r"/me/$"))
    items = alice.locator("#waiting ul.waiting li")
    expect(items).to_have_count(2)
    confirm = alice.locator(f'li[data-kind="confirm_result"][data-match="{match.pk}"][data-team="{humes.pk}"]')
    expect(confirm).to_contain_text("v Bob's Goblins")
    expect(confirm.get_by_role("link", name="Confirm the result of Alice's Humes v Bob's Goblins")).to_have_attribute(
        "href", reverse("match-detail", args=[match.pk])
    )
    expect(alice.locator(f'li[data-kind="enter_result"][data-match="{waiting.pk}"]')).to_contain_text("v Carol's side")
    expect(alice.locator("#waiting h2 .badge")).to_have_text("2")

    # And the link leads to the match page, where the result Bob entered waits for her confirmation.
    confirm.get_by_role("link", name="Confirm the result of Alice's Humes v Bob's Goblins").click()
    expect(alice.locator("#match-status")).to_have_attribute("data-status", "submitted")
    expect(alice.locator("main")).to_contain_text("Entered by bob")
    expect(alice.get_by_role("button", name="Confirm the result")).to_be_visible()
    assert js_errors == []
