"""The phone-width sweep: every page of the demo fits a 390 px phone and a 1366 px laptop without the page
scrolling sideways (wide tables scroll inside their own box, the header menu collapses).

The pages are derived from the demo's data — every league, team, match, post-match walk and report — so a
league or a match the demo gains is swept without editing this file. The API docs page (/api/docs/) is left
out: it is Swagger UI's own layout under its own stylesheet (static/css/swagger.css), not a Dugout page.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from dugout.management.commands.load_demo import DEMO_PASSWORD  # noqa: E402
from dugout.reports.services import report_generate  # noqa: E402
from league.models import League, LeagueReport  # noqa: E402
from matches.models import Aftermath, Match, PlayerMatch  # noqa: E402
from teams.models import Team  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}

# The page's width and, when it overflows, the element reaching furthest right that is not inside a box that
# scrolls or clips on its own (those are allowed to be wider than the screen: that is the point of them).
MEASURE = """
() => {
  const width = document.documentElement.clientWidth;
  const scrollWidth = document.documentElement.scrollWidth;
  let widest = null, right = 0;
  if (scrollWidth > width) {
    const clipped = (el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== "visible") return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect().right + window.scrollX;
      if (r > right && r > width && !clipped(el)) { right = r; widest = el; }
    }
  }
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (el.classList.length ? "." + [...el.classList].join(".") : "");
  const path = [];
  for (let el = widest; el && el !== document.body && path.length < 4; el = el.parentElement) path.unshift(name(el));
  return {scrollWidth, widest: widest ? path.join(" > ") + " reaches " + Math.round(right) + "px" : null};
}
"""


@pytest.fixture
def demo(db):
    call_command("load_demo", verbosity=0)
    for league in League.objects.filter(name__startswith="Demo "):
        report_generate(league_id=league.pk)  # the worker writes them in `make run`; here they are written now


def demo_pages() -> dict[str, list[str]]:
    """Every page of the demo, by the user who sees it whole (the commissioner sees the league's every page;
    a coach his own team sheet with its hire / buy forms, his account pages and his invitations)."""
    leagues = list(League.objects.filter(name__startswith="Demo ").order_by("pk"))
    matches = list(Match.objects.filter(league__in=leagues).prefetch_related("sides").order_by("pk"))
    anonymous = [reverse("home"), reverse("login"), reverse("signup")]
    commissioner = [reverse("home"), reverse("league-create"), reverse("invitations")]
    for league in leagues:
        commissioner += [
            reverse("league-detail", args=[league.pk]),
            reverse("commissioner-dashboard", args=[league.pk]),
            reverse("desk-divisions", args=[league.pk]),
            reverse("desk-webhooks", args=[league.pk]),
            reverse("league-reports", args=[league.pk]),
            reverse("league-ratings", args=[league.pk]),
            reverse("league-challenge", args=[league.pk]),
            reverse("team-create", args=[league.pk]),
            f"{reverse('match-schedule')}?league={league.pk}",
            # Issue 14: the leaders (all time: every row filled), records and memorial, and the busiest players.
            f"{reverse('league-leaders', args=[league.pk])}?season=all",
            reverse("league-records", args=[league.pk]),
            reverse("league-memorial", args=[league.pk]),
        ]
        played = PlayerMatch.objects.filter(match__league=league).values_list("player_id", flat=True)
        commissioner += [reverse("player-detail", args=[pk]) for pk in sorted(set(played))[:3]]
    for report in LeagueReport.objects.filter(league__in=leagues).order_by("pk"):
        commissioner.append(reverse("league-report", args=[report.league_id, report.week]))
    for match in matches:
        commissioner.append(reverse("match-detail", args=[match.pk]))
        if match.status != Match.Status.FINAL:
            commissioner += [reverse("match-result", args=[match.pk]), reverse("match-live", args=[match.pk])]
        if match.league.rules.prematch_steps:
            commissioner.append(reverse("match-prematch", args=[match.pk]))
            if "inducements" in match.league.house_rules:
                commissioner += [reverse("match-inducements", args=[match.pk, s.team_id]) for s in match.sides.all()]
    for walk in Aftermath.objects.filter(match__in=matches).order_by("pk"):
        commissioner.append(reverse("match-aftermath", args=[walk.match_id, walk.team_id]))
    coaches: dict[str, list[str]] = {}
    for team in Team.objects.filter(league__in=leagues).select_related("coach").order_by("pk"):
        commissioner.append(reverse("team-detail", args=[team.pk]))
        coaches.setdefault(team.coach.username, [reverse("me"), reverse("account-tokens"), reverse("password_change")])
        coaches[team.coach.username].append(reverse("team-detail", args=[team.pk]))
    return {"": anonymous, "commissioner": commissioner, **coaches}


def sweep(page, urls: list[str], overflows: list[str]) -> None:
    for viewport in (PHONE, LAPTOP):
        page.set_viewport_size(viewport)
        for url in urls:
            response = page.goto(url)
            assert response is not None and response.status == 200, f"{url} answered {response and response.status}"
            measured = page.evaluate(MEASURE)
            if measured["scrollWidth"] > viewport["width"]:
                overflows.append(
                    f"{url} at {viewport['width']}px is {measured['scrollWidth']}px wide: {measured['widest']}"
                )


def test_no_page_of_the_demo_scrolls_sideways_on_a_phone_or_a_laptop(demo, new_page, js_errors):
    pages = demo_pages()
    overflows: list[str] = []
    for username, urls in pages.items():
        page = new_page()
        if username:
            page.goto(reverse("login"))
            page.fill("#id_username", username)
            page.fill("#id_password", DEMO_PASSWORD)
            page.locator("main").get_by_role("button", name="Log in").click()
            expect(page.locator("header .who")).to_have_text(username)
        sweep(page, urls, overflows)
    assert overflows == [], "\n".join(overflows)
    # The sweep saw the whole demo: three leagues' pages, both coaches and a played match's walks.
    assert len(pages["commissioner"]) > 30 and len(pages) >= 4
    assert js_errors == []


def test_the_header_menu_collapses_on_a_phone_and_opens_on_a_tap(demo, new_page):
    page = new_page()
    page.set_viewport_size(PHONE)
    page.goto(reverse("login"))
    page.fill("#id_username", "coach_cid")
    page.fill("#id_password", DEMO_PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    menu = page.locator("header details.menu")
    expect(menu.locator("a", has_text="API tokens")).to_be_hidden()
    menu.locator("summary").click()
    expect(menu.locator("a", has_text="API tokens")).to_be_visible()
    # On a laptop the same links show at once, no menu to open.
    page.set_viewport_size(LAPTOP)
    page.reload()
    expect(menu.locator("summary")).to_be_hidden()
    expect(menu.locator("a", has_text="API tokens")).to_be_visible()
