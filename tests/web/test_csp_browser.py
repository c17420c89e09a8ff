"""The Content-Security-Policy in a real browser: the demo's main pages, the Swagger page and the admin raise
no `securitypolicyviolation` and log no CSP error, and htmx still swaps (a hire on the team sheet, a refused
purchase on the inducement page) with eval and its injected indicator <style> turned off.

Chromium enforces the header the server sent, so an inline script, style, style= attribute or on*= handler
left anywhere shows up here as a violation.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from dugout.management.commands.load_demo import DEMO_PASSWORD  # noqa: E402
from league.models import League  # noqa: E402
from matches.models import Match  # noqa: E402
from teams.models import Team  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs before any page script (Playwright injects it outside the page's CSP): every violation is kept.
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.fixture
def demo(db):
    call_command("load_demo", verbosity=0)
    return League.objects.get(ruleset="blitzbowl")


@pytest.fixture
def open_as(new_page, js_errors):
    """`open_as(username)`: a logged-in page that records CSP violations (events and console errors)."""
    console: list[str] = []

    def open_page(username: str):
        page = new_page()
        page.add_init_script(LISTEN)
        page.on(
            "console",
            lambda m: console.append(m.text) if m.type == "error" and "Content Security Policy" in m.text else None,
        )
        page.goto("/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", DEMO_PASSWORD)
        page.locator("main").get_by_role("button", name="Log in").click()
        expect(page.locator("header .who")).to_have_text(username)
        page.console_csp = console
        return page

    return open_page


def violations(page) -> list[str]:
    return list(page.evaluate("window.__csp")) + page.console_csp


def visit(page, url: str) -> list[str]:
    response = page.goto(url)
    assert response.status == 200, url
    assert "default-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_load_state("networkidle")
    return violations(page)


def test_the_demos_pages_and_the_swagger_page_raise_no_csp_violation(demo, open_as, js_errors):
    team = Team.objects.filter(league=demo, coach__username="coach_cid").first()
    played = Match.objects.filter(league=demo, status=Match.Status.FINAL).first()
    page = open_as("coach_cid")
    report = {}
    for url in (
        "/",
        f"/leagues/{demo.pk}/",
        f"/teams/{team.pk}/",
        f"/matches/{played.pk}/",
        f"/matches/{played.pk}/aftermath/{team.pk}/",
        "/invitations/",
        "/api/docs/",
    ):
        report[url] = visit(page, url)
    assert report == {url: [] for url in report}
    # Swagger UI ran its init script (a file under the split view) and drew the operations.
    page.goto("/api/docs/")
    expect(page.locator(".opblock").first).to_be_visible()
    assert violations(page) == [] and js_errors == []


def test_the_admin_raises_no_csp_violation(demo, open_as, js_errors):
    page = open_as("admin")
    assert visit(page, "/admin/") == []
    assert visit(page, "/admin/league/league/") == []
    assert visit(page, f"/admin/league/league/{demo.pk}/change/") == []
    assert js_errors == []


def test_htmx_swaps_under_the_csp_without_eval(demo, open_as, js_errors):
    team = Team.objects.filter(league=demo, coach__username="coach_cid").first()
    page = open_as("coach_cid")
    page.goto(f"/teams/{team.pk}/")
    assert page.evaluate("[htmx.config.allowEval, htmx.config.includeIndicatorStyles]") == [False, False]
    page.evaluate("window.__sameDocument = true")
    form = page.locator("#hire-form")
    form.locator("#id_position").select_option(index=1)
    form.locator("#id_name").fill("Vincent")
    with page.expect_response(lambda r: r.url.endswith("/hire/") and r.request.method == "POST") as hired:
        form.get_by_role("button", name="Hire").click()
    assert hired.value.request.headers.get("hx-request") == "true"
    expect(page.locator("#roster tbody tr", has_text="Vincent")).to_be_visible()
    assert page.evaluate("window.__sameDocument") is True  # swapped in place, not a page load
    assert violations(page) == [] and js_errors == []


def test_a_refused_purchase_is_swapped_in_by_the_scripts_file_not_an_hx_on_attribute(demo, open_as, js_errors):
    """static/js/swap-refusals.js stands in for the hx-on attribute (eval): a 400 shows the shop with its errors."""
    fixture = Match.objects.filter(league=demo).exclude(status=Match.Status.FINAL).get()
    for side in fixture.sides.select_related("team__coach"):
        page = open_as(side.team.coach.username)
        assert visit(page, f"/matches/{fixture.pk}/inducements/{side.team.pk}/") == []
        if page.locator("#mercenary-form").count():
            break
    else:
        pytest.fail("the demo's fixture has nobody shopping")
    page.evaluate("window.__sameDocument = true")
    # No position chosen: the browser's own check is lifted so the server is the one to refuse.
    page.evaluate(
        "document.querySelectorAll('#mercenary-form [required]').forEach((e) => e.removeAttribute('required'))"
    )
    page.locator("#mercenary-form select").first.select_option(index=0)
    with page.expect_response(lambda r: "/inducements/" in r.url and r.request.method == "POST") as refused:
        page.locator("#mercenary-form").get_by_role("button", name="Hire the mercenary").click()
    assert refused.value.status in (400, 409)
    expect(page.locator("#shop .errorlist").first).to_be_visible()
    assert page.evaluate("window.__sameDocument") is True
    assert violations(page) == [] and js_errors == []


def test_a_post_match_step_swaps_in_without_a_csp_violation(open_as, js_errors):
    """Each step of the post-match sequence is an htmx swap of the step panel: none may bring an inline style
    (htmx's injected indicator <style> included) or anything else the policy refuses with it."""
    from matches import services
    from tests.factories import LeagueFactory, UserFactory
    from tests.matches.conftest import full_team

    coach, rival = UserFactory(username="alice"), UserFactory(username="bob")
    for user in (coach, rival):
        user.set_password(DEMO_PASSWORD)
        user.save()
    league = LeagueFactory(created_by=coach, name="Gil Cup", ruleset="blitzbowl")
    humes = full_team(league, coach, "Alice's Humes")
    goblins = full_team(league, rival, "Bob's Goblins", roster="goblin", position="goblin")
    match = services.match_schedule(user=coach, league=league, team_ids=[humes.pk, goblins.pk])
    body = {"teams": [{"team": humes.pk, "score": 0}, {"team": goblins.pk, "score": 0}]}
    services.match_submit_result(user=coach, match_id=match.pk, body=body)
    services.match_confirm(user=rival, match_id=match.pk)

    page = open_as("alice")
    assert visit(page, f"/matches/{match.pk}/aftermath/{humes.pk}/") == []
    page.evaluate("window.__sameDocument = true")
    # The first two steps need no dice from the coach (the third asks for them).
    for title in ("Update team stats", "Fortune and FAME"):
        with page.expect_response(lambda r: "/aftermath/" in r.url and r.request.method == "POST") as posted:
            page.locator("#step-form").get_by_role("button").click()
        assert posted.value.status == 200 and posted.value.request.headers.get("hx-request") == "true"
        expect(page.locator("#step-title")).to_contain_text(title)
        page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__sameDocument") is True  # swapped in place, not a page load
    assert violations(page) == [] and js_errors == []
