"""The main pages against axe-core's WCAG 2 A and AA rules, in a real browser: the match report (a result with
its players' rows), the commissioner's dashboard (its queue with items, its members), a team page (the roster
with its coach's actions), the league page, the coach's home, his notifications and his account — each at a
390 px phone and a 1280 px laptop, in the light and the dark colour scheme (static/css has no dark rules yet:
the dark run holds any it gains to the same contrast).

axe-core is installed by npm into var/node (`npm install --prefix var/node axe-core`; .ci/run does it);
DUGOUT_AXE_JS points elsewhere. Without it the test skips, unless DUGOUT_REQUIRE_BROWSER says it must run.
The script goes in as an init script, outside the page's Content-Security-Policy.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from matches import disputes  # noqa: E402
from matches import services as match_services  # noqa: E402
from matches.prematch import prematch_post  # noqa: E402
from notifications.models import Notification  # noqa: E402
from tests.dugout.desk.conftest import result_body  # noqa: E402
from tests.factories import UserFactory  # noqa: E402
from tests.matches.conftest import full_team  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}
SCHEMES = ("light", "dark")

# axe's WCAG 2 level A and AA rules, and two table rules the tags leave out: td-has-header (WCAG 1.3.1, but
# tagged experimental) and empty-table-header (best practice: a header cell says what its column holds).
# Each violation comes back as its rule and the nodes' selectors.
RUN_AXE = """
async () => {
  const result = await axe.run(document, {
    runOnly: {type: "tag", values: ["wcag2a", "wcag2aa"]},
    rules: {"td-has-header": {enabled: true}, "empty-table-header": {enabled: true}},
  });
  return result.violations.map((v) => ({id: v.id, help: v.help, targets: v.nodes.map((n) => n.target.join(" "))}));
}
"""

# axe judges a scroll box only when it overflows at this width; a box that may overflow elsewhere (a longer
# name, a narrower phone) must be reachable too: every .table-scroll takes focus and is a named region.
UNREACHABLE_SCROLL_BOXES = """
() => [...document.querySelectorAll(".table-scroll")]
  .filter((b) => b.tabIndex !== 0 || b.getAttribute("role") !== "region" || !b.getAttribute("aria-label"))
  .map((b) => b.outerHTML.slice(0, 120))
"""


def axe_path() -> Path:
    """axe.min.js: DUGOUT_AXE_JS, or the copy npm installs into var/node."""
    configured = os.environ.get("DUGOUT_AXE_JS")
    if configured:
        return Path(configured)
    return Path(settings.BASE_DIR) / "var" / "node" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture
def axe_js() -> Path:
    """axe.min.js's path; the test skips without it (fails when DUGOUT_REQUIRE_BROWSER is set)."""
    path = axe_path()
    if not path.is_file():
        message = f"axe-core is not at {path} (npm install --prefix var/node axe-core, or set DUGOUT_AXE_JS)"
        if os.environ.get("DUGOUT_REQUIRE_BROWSER"):
            pytest.fail(f"{message}, and DUGOUT_REQUIRE_BROWSER says the browser tests must run")
        pytest.skip(message)
    return path


@pytest.fixture
def scene(commissioner, league, humes, goblins):
    """A league with something on every page: a played, confirmed match (the report's result and player rows),
    a disputed result between two other teams (the queue's item) and the post-match sequences open (what waits
    on the coaches' home pages)."""
    played = match_services.match_schedule(user=commissioner, league=league, team_ids=[humes.pk, goblins.pk])
    # The pre-match dice, so the report has its Rolls table (a wide one, without a link to take the focus).
    prematch_post(user=humes.coach, match_id=played.pk, step="weather", rolls={"weather": [3, 4]})
    fans = {"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}}
    prematch_post(user=humes.coach, match_id=played.pk, step="fans", rolls=fans)
    prematch_post(user=humes.coach, match_id=played.pk, step="inducements_superior", choices={"done": True})
    prematch_post(user=goblins.coach, match_id=played.pk, step="inducements_underdog", choices={"done": True})
    match_services.match_submit_result(user=humes.coach, match_id=played.pk, body=result_body(humes, goblins))
    match_services.match_confirm(user=goblins.coach, match_id=played.pk)
    # Two more teams for the queue (the Humes and the Goblins have a post-match sequence open).
    carols = full_team(league, UserFactory(username="carol"), "Carol's Humes")
    daves = full_team(league, UserFactory(username="dave"), "Dave's Goblins", roster="goblin", position="goblin")
    disputed = match_services.match_schedule(user=commissioner, league=league, team_ids=[carols.pk, daves.pk])
    match_services.match_submit_result(user=carols.coach, match_id=disputed.pk, body=result_body(carols, daves))
    disputes.match_dispute(user=daves.coach, match_id=disputed.pk, reason="The last touchdown came too late.")
    # Alice's notifications list: one read, one unread (the list marks them apart).
    for text, read_at in (("Bob confirmed the result", timezone.now()), ("A round was published", None)):
        Notification.objects.create(
            user=humes.coach, kind="result_confirmed", text=text, url=f"/matches/{played.pk}/", read_at=read_at
        )
    return {"league": league, "humes": humes, "played": played}


def pages(scene) -> dict[str, tuple[str, str, str]]:
    """Each page: the user who sees it whole, its address, and a selector present once it is complete."""
    league, humes = scene["league"], scene["humes"]
    return {
        "match-report": ("alice", reverse("match-detail", args=[scene["played"].pk]), "#rolls"),
        "dashboard": ("commish", reverse("commissioner-dashboard", args=[league.pk]), "#queue .queue-item"),
        "team": ("alice", reverse("team-detail", args=[humes.pk]), "#roster form"),
        "league": ("commish", reverse("league-detail", args=[league.pk]), "main h1"),
        "me": ("alice", reverse("me"), "main h1"),
        "notifications": ("alice", reverse("notifications"), "li.notification.unread"),
        "account": ("alice", reverse("account"), "#push-state:not([data-state='unknown'])"),
    }


@pytest.mark.parametrize("name", ["match-report", "dashboard", "team", "league", "me", "notifications", "account"])
def test_the_page_has_no_wcag_a_or_aa_violation_on_a_phone_or_a_laptop_light_or_dark(
    name, axe_js, scene, log_in, js_errors
):
    username, url, ready = pages(scene)[name]
    page = log_in(username)
    page.add_init_script(path=str(axe_js))
    found: list[str] = []
    for viewport_name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            response = page.goto(url)
            assert response is not None and response.status == 200, f"{url} answered {response and response.status}"
            page.wait_for_load_state("networkidle")  # the dashboard's panels come in by htmx
            expect(page.locator(ready).first).to_be_attached()
            assert page.evaluate("typeof axe") == "object", f"axe-core did not load from {axe_js}"
            for violation in page.evaluate(RUN_AXE):
                targets = ", ".join(violation["targets"])
                found.append(f"{viewport_name} {scheme}: {violation['id']} ({violation['help']}): {targets}")
            for box in page.evaluate(UNREACHABLE_SCROLL_BOXES):
                found.append(f"{viewport_name} {scheme}: a scroll box without tabindex, role or name: {box}")
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > viewport["width"]:
                found.append(f"{viewport_name} {scheme}: the page scrolls sideways ({width}px)")
    assert found == [], f"{url}:\n" + "\n".join(found)
    assert js_errors == []
