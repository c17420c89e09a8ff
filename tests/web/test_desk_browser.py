"""The issue's acceptance in a real browser (issue 13, "Tests": "resolves a disputed result from the queue"):
a coach disputes a submitted result; the commissioner opens his dashboard, whose first panel — the queue,
loaded by htmx — shows the dispute with its reason; he confirms it as is with a reason, in place (htmx swaps the
panel, no page load), and the match is final with the ruling in the audit. At desktop and at phone width."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from league.models import AuditEntry, InviteLink  # noqa: E402
from matches import disputes  # noqa: E402
from matches import services as match_services  # noqa: E402
from matches.models import Match  # noqa: E402
from tests.dugout.desk.conftest import result_body  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 740}


def _disputed(commissioner, league, humes, goblins, reason: str) -> Match:
    match = match_services.match_schedule(user=commissioner, league=league, team_ids=[humes.pk, goblins.pk])
    match_services.match_submit_result(user=humes.coach, match_id=match.pk, body=result_body(humes, goblins))
    disputes.match_dispute(user=goblins.coach, match_id=match.pk, reason=reason)
    return match


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_the_commissioner_resolves_a_disputed_result_from_the_queue(
    log_in, js_errors, commissioner, league, humes, goblins, viewport
):
    match = _disputed(commissioner, league, humes, goblins, "That touchdown was after the final whistle.")
    page = log_in(commissioner.username)
    if viewport:
        page.set_viewport_size(viewport)

    page.goto(f"/commissioner/{league.pk}/")
    queue = page.locator("#queue")
    item = queue.locator(f'.queue-item[data-match="{match.pk}"]')
    expect(item).to_contain_text("after the final whistle")  # the panel came in by htmx
    expect(item).to_have_attribute("data-kind", "disputed")
    assert page.locator(".panel").first.get_attribute("id") == "queue", "the queue is the dashboard's first panel"
    if viewport:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the dashboard scrolls sideways at phone width ({width}px)"

    page.evaluate("window.__sameDocument = true")
    item.get_by_label("Reason").fill("The referee's notes show it in time.")
    with page.expect_response(lambda r: r.url.endswith("/queue/confirm/") and r.request.method == "POST") as ruled:
        item.get_by_role("button", name="Confirm as is").click()
    assert ruled.value.status == 200 and ruled.value.request.headers.get("hx-request") == "true"

    expect(page.locator("#queue [role=status]")).to_contain_text("Result confirmed as is.")
    expect(page.locator(f'#queue .queue-item[data-match="{match.pk}"]')).to_have_count(0)
    expect(page.locator("#queue-empty")).to_be_visible()
    assert page.evaluate("window.__sameDocument === true"), "the ruling reloaded the page instead of swapping #queue"
    assert Match.objects.get(pk=match.pk).status == "final"
    entry = AuditEntry.objects.get(league=league, action="dispute_ruling")
    assert entry.reason == "The referee's notes show it in time."
    assert js_errors == []


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_the_commissioner_makes_and_revokes_an_invite_link_on_the_dashboard(
    log_in, js_errors, commissioner, league, viewport
):
    """Issue 13 (invite links revocable; docs/decisions/ "Invite links are rows"): the members panel lists the
    links by htmx, and Revoke with a reason ends one, in the audit."""
    page = log_in(commissioner.username)
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(f"/commissioner/{league.pk}/")
    page.locator("#invite-link-form").get_by_role("button", name="Make an invite link").click()
    expect(page.locator("#invite-link input")).to_have_value(re.compile(r"/join/"))
    row = page.locator("#invite-links tbody tr").first  # the panel came in by htmx
    expect(row).to_contain_text("Active")
    if viewport:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the dashboard scrolls sideways at phone width ({width}px)"

    row.get_by_label("Reason for revoking").fill("Shared in the wrong chat")
    row.get_by_role("button", name="Revoke").click()

    expect(page.locator("body")).to_contain_text("Invite link revoked")
    expect(page.locator("#invite-links tbody tr").first).to_contain_text("Revoked")
    link = InviteLink.objects.get(league=league)
    assert link.revoked_at is not None
    assert AuditEntry.objects.get(league=league, action="invite_link_revoked").reason == "Shared in the wrong chat"
    assert js_errors == []
