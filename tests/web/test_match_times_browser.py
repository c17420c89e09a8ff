"""Match times in a real browser (issue 13, "Match times"): the match page loads its time panel with htmx;
Alice proposes a date and time there, Bob, in a browser of his own, accepts it, and it is the match's
scheduled time — each step swapped in place, under the Content-Security-Policy, with no JavaScript error."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from matches.models import Match, TimeProposal  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_coach_proposes_a_time_on_the_match_page_and_the_opponent_accepts_it(log_in, js_errors, match, league):
    alice = log_in("alice")
    alice.goto(f"/matches/{match.pk}/")
    panel = alice.locator("#match-times")
    expect(panel.locator("#scheduled-for")).to_have_text("No time agreed yet.")
    alice.evaluate("window.__sameDocument = true")
    panel.get_by_label("Propose a time").fill("2030-06-01T19:30")
    with alice.expect_response(lambda r: r.url.endswith("/times/") and r.request.method == "POST") as posted:
        panel.get_by_role("button", name="Propose").click()
    assert posted.value.status == 200 and posted.value.request.headers.get("hx-request") == "true"
    expect(alice.locator("#open-proposal")).to_contain_text("Proposed by Alice's Humes")
    expect(alice.locator("#accept-time")).to_have_count(0)  # not her own to accept
    assert alice.evaluate("window.__sameDocument === true"), "the proposal reloaded the page instead of swapping"

    bob = log_in("bob")
    bob.goto(f"/matches/{match.pk}/")
    bob.get_by_role("button", name="Accept this time").click()
    expect(bob.locator("#scheduled-for")).to_contain_text("Agreed: Sat 1 Jun 2030, 19:30")

    match.refresh_from_db()
    assert match.scheduled_for == datetime(2030, 6, 1, 19, 30, tzinfo=ZoneInfo(league.timezone))
    assert TimeProposal.objects.get().state == TimeProposal.State.ACCEPTED
    assert Match.objects.get(pk=match.pk).status == Match.Status.SCHEDULED
    assert js_errors == []
