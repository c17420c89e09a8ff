"""Issue 14 in a browser at phone width (390 px): the league page → its leaders → a player's page → back, with
no JavaScript needed and no sideways scrolling."""

from __future__ import annotations

import pytest

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from matches.models import Match, MatchTeam, PlayerMatch  # noqa: E402
from tests.matches.conftest import full_team  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def scored(league, coach, other_coach, commissioner):
    """A final match whose per-match rows give Home 1 two touchdowns (rows as the confirmation writes them)."""
    home, away = full_team(league, coach, "Home"), full_team(league, other_coach, "Away")
    match = Match.objects.create(league=league, created_by=commissioner, status="final", result={"teams": []})
    MatchTeam.objects.create(match=match, team=home, order=0, score=2, outcome="win", league_points=3)
    MatchTeam.objects.create(match=match, team=away, order=1, score=0, outcome="loss")
    scorer = home.players.get(name="Home 1")
    PlayerMatch.objects.create(match=match, team=home, player=scorer, touchdowns=2, spp=6)
    league.table_version += 1
    league.save(update_fields=["table_version"])
    return scorer


def test_league_page_to_leaders_to_a_player_and_back_at_phone_width(new_page, league, scored):
    """Issue 14 (links on the league page to the leaders; every player name links to his page)."""
    page = new_page()
    page.set_viewport_size(PHONE)
    page.goto(f"/leagues/{league.pk}/")
    page.locator("#leaders-link").click()
    expect(page.locator("h1")).to_contain_text("leaders")
    board = page.locator("#leaders-touchdowns")
    expect(board).to_contain_text("Home 1")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    board.get_by_role("link", name="Home 1").click()
    expect(page.locator("#player-name")).to_have_text("Home 1 #1")
    expect(page.locator("#career")).to_contain_text("2")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.go_back()
    expect(page.locator("#leaders-touchdowns")).to_be_visible()
    page.go_back()
    expect(page.locator("#leaders-link")).to_be_visible()
