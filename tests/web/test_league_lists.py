"""The league page's bounded panels and the pages behind them (issue 12): the next fixtures and the latest
results, the first teams and the top of the table on the league page; all of them on pages of 50."""

from __future__ import annotations

import pytest
from django.urls import reverse

from dugout.web.views import LIST_PAGE, PANEL_SIZE, PANEL_TEAMS
from matches.models import Match
from tests.bulk_league import bulk_league

pytestmark = pytest.mark.django_db


def _match_links(page: str) -> int:
    return page.count('href="/matches/')


def test_league_page_shows_the_latest_results_newest_first_and_links_to_all_of_them(client):
    league = bulk_league(teams=6, finals=30, fixtures=0)
    page = client.get(reverse("league-detail", args=[league.pk])).content.decode()
    newest = league.matches.filter(status=Match.Status.FINAL).order_by("-confirmed_at")[:PANEL_SIZE]
    shown = [page.find(f'href="{reverse("match-detail", args=[m.pk])}"') for m in newest]
    assert all(i >= 0 for i in shown) and shown == sorted(shown)
    assert _match_links(page) == PANEL_SIZE
    assert f'href="{reverse("league-results", args=[league.pk])}"' in page


def test_league_page_shows_the_soonest_fixtures_first_and_links_to_all_of_them(client):
    league = bulk_league(teams=6, finals=0, fixtures=25)
    page = client.get(reverse("league-detail", args=[league.pk])).content.decode()
    soonest = league.matches.order_by("created_at", "id")[:PANEL_SIZE]
    shown = [page.find(f'href="{reverse("match-detail", args=[m.pk])}"') for m in soonest]
    assert all(i >= 0 for i in shown) and shown == sorted(shown)
    assert _match_links(page) == PANEL_SIZE
    assert f'href="{reverse("league-fixtures", args=[league.pk])}"' in page


def test_all_results_come_in_pages_of_50_newest_first(client):
    league = bulk_league(teams=6, finals=LIST_PAGE + 7, fixtures=3)
    url = reverse("league-results", args=[league.pk])
    first, second = client.get(url).content.decode(), client.get(url + "?page=2").content.decode()
    assert _match_links(first) == LIST_PAGE and _match_links(second) == 7
    oldest = league.matches.filter(status=Match.Status.FINAL).order_by("confirmed_at").first()
    assert f'href="{reverse("match-detail", args=[oldest.pk])}"' in second
    assert 'rel="next"' in first and 'rel="prev"' in second


def test_all_fixtures_list_only_matches_still_to_be_played(client):
    league = bulk_league(teams=6, finals=12, fixtures=4)
    page = client.get(reverse("league-fixtures", args=[league.pk])).content.decode()
    assert _match_links(page) == 4


@pytest.mark.parametrize("page", ["0", "3", "abc", "-1", "1.5"])
@pytest.mark.parametrize(
    "name", ["league-results", "league-fixtures", "league-teams", "league-table", "league-reports"]
)
def test_a_page_that_is_not_one_is_the_not_found_page(client, name, page):
    league = bulk_league(teams=4, finals=12, fixtures=2)
    response = client.get(reverse(name, args=[league.pk]) + f"?page={page}")
    assert response.status_code == 404


def test_the_home_page_lists_50_leagues_a_page(client, commissioner):
    from tests.factories import LeagueFactory

    for n in range(LIST_PAGE + 2):
        LeagueFactory(created_by=commissioner, name=f"League {n:03d}")
    first = client.get(reverse("home")).content.decode()
    second = client.get(reverse("home") + "?page=2").content.decode()
    assert first.count('href="/leagues/') - first.count('href="/leagues/new/') == LIST_PAGE
    assert "League 051" in second and "League 051" not in first
    assert client.get(reverse("home") + "?page=9").status_code == 404


def test_league_page_lists_the_first_teams_and_the_top_of_the_table_with_links_to_the_rest(client):
    league = bulk_league(teams=PANEL_TEAMS + 5)
    page = client.get(reverse("league-detail", args=[league.pk])).content.decode()
    assert f'href="{reverse("league-teams", args=[league.pk])}"' in page
    assert f'href="{reverse("league-table", args=[league.pk])}"' in page
    teams = client.get(reverse("league-teams", args=[league.pk]) + "?page=2").content.decode()
    assert teams.count('href="/teams/') == 5
    table = client.get(reverse("league-table", args=[league.pk]) + "?page=2").content.decode()
    assert table.count('href="/teams/') == 5 and 'id="standings"' in table


def test_a_coach_whose_team_is_past_the_first_teams_may_still_schedule(client):
    league = bulk_league(teams=PANEL_TEAMS + 5)
    last = league.teams.order_by("-name").first()
    client.force_login(last.coach)
    page = client.get(reverse("league-detail", args=[league.pk])).content.decode()
    assert f"{reverse('match-schedule')}?league={league.pk}" in page


def test_league_page_lists_its_stadiums_by_name_with_their_special_attributes(client, league):
    from tests.factories import StadiumFactory

    StadiumFactory(league=league, name="Zeta Pit", special_attribute="")
    StadiumFactory(league=league, name="Alpha Dome", special_attribute="Lava moat")
    page = client.get(reverse("league-detail", args=[league.pk])).content.decode()
    assert "<li>Alpha Dome — Lava moat</li><li>Zeta Pit</li>" in page


def test_the_commissioners_dashboard_lists_the_members_50_a_page(client):
    league = bulk_league(teams=LIST_PAGE + 3)
    client.force_login(league.bulk_commissioner)
    url = reverse("commissioner-dashboard", args=[league.pk])
    first, second = client.get(url).content.decode(), client.get(url + "?page=2").content.decode()
    # 53 coaches and the commissioner, by role then user (as the list always was): 50, then 3 and him.
    assert first.count("<td>Coach</td>") == LIST_PAGE
    assert second.count("<td>Coach</td>") == 3 and second.count("<td>Commissioner</td>") == 1
