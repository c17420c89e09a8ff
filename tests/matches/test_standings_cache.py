"""The league table is cached and exact (issue 12, "Tables are cached and exact"; rules/blitzbowl.md "League").

Every write that can change the table — a result confirmed or corrected, a team founded, a house rule set —
gives the league a new table version in its own transaction; the table is cached per version. So the table a
request reads is never older than the league row it loaded: each test changes the table and reads it back at
once, through the API and the league page, on local memory and (with REDIS_URL) on Redis.
"""

from __future__ import annotations

import os

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import override_settings

from league.cache import redis_cache
from league.models import League, league_table_changed
from matches.selectors import league_standings
from tests.factories import TeamFactory, UserFactory
from tests.matches.conftest import full_team
from tests.web.matchpages.helpers import rows, table, text

pytestmark = pytest.mark.django_db

LOCMEM = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "standings-tests"}}


@pytest.fixture(params=["locmem", "redis"])
def table_cache(request):
    """The cache the tables are kept in: local memory, and Redis when REDIS_URL is set."""
    if request.param == "redis":
        if not os.environ.get("REDIS_URL"):
            pytest.skip("REDIS_URL is not set")
        caches = {"default": redis_cache(os.environ["REDIS_URL"])}
    else:
        caches = LOCMEM
    with override_settings(CACHES=caches):
        cache.clear()
        yield request.param
        cache.clear()


def api_table(api, league) -> list[tuple[str, int, int]]:
    response = api.get(f"/api/v1/leagues/{league.pk}/standings/")
    assert response.status_code == 200, response.content
    return [(row["name"], row["played"], row["points"]) for row in response.json()["rows"]]


def page_table(client, league) -> list[tuple[str, int, int]]:
    """The league page's table as shown (its panel is cached HTML): (team, played, points) per row."""
    response = client.get(f"/leagues/{league.pk}/")
    assert response.status_code == 200
    page = text(response)
    if 'id="standings"' not in page:  # no table before the first final result
        return []
    return [(row[1], int(row[2]), int(row[10])) for row in rows(table(page, "standings"))]


def play(api_as, league, submitter, confirmer, scores) -> int:
    """Schedule, submit and confirm a result through the API; `scores` is [(team, score), ...]."""
    teams = [team for team, _ in scores]
    response = api_as(submitter).post(
        "/api/v1/matches/", {"league": league.pk, "teams": [t.pk for t in teams]}, format="json"
    )
    assert response.status_code == 201, response.json()
    match_id = response.json()["id"]
    body = {
        "teams": [{"team": team.pk, "score": score} for team, score in scores],
        "players": [
            {"player": team.players.order_by("number").first().pk, "touchdowns": score}
            for team, score in scores
            if score
        ],
    }
    assert api_as(submitter).post(f"/api/v1/matches/{match_id}/result/", body, format="json").status_code == 201
    assert api_as(confirmer).post(f"/api/v1/matches/{match_id}/confirm/").status_code == 200
    return match_id


def test_a_confirmed_result_is_in_the_table_at_once(
    table_cache, api, api_as, client, league, home, away, coach, other_coach
):
    """R (League): a win is 3 points, a loss 0 — in the table the moment the result is confirmed."""
    assert api_table(api, league) == [("Away", 0, 0), ("Home", 0, 0)]
    assert page_table(client, league) == []  # the page shows no table before the first final result
    play(api_as, league, coach, other_coach, [(home, 2), (away, 0)])
    assert api_table(api, league) == [("Home", 1, 3), ("Away", 1, 0)]
    assert page_table(client, league) == [("Home", 1, 3), ("Away", 1, 0)]


def test_a_corrected_result_is_in_the_table_at_once(
    table_cache, api, api_as, client, league, home, away, coach, other_coach, commissioner
):
    match_id = play(api_as, league, coach, other_coach, [(home, 2), (away, 0)])
    assert api_table(api, league) == [("Home", 1, 3), ("Away", 1, 0)]
    assert page_table(client, league) == [("Home", 1, 3), ("Away", 1, 0)]
    corrected = {
        "teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 1}],
        "players": [{"player": away.players.order_by("number").first().pk, "touchdowns": 1}],
    }
    response = api_as(commissioner).post(f"/api/v1/matches/{match_id}/correct/", corrected, format="json")
    assert response.status_code == 200, response.json()
    assert api_table(api, league) == [("Away", 1, 3), ("Home", 1, 0)]
    assert page_table(client, league) == [("Away", 1, 3), ("Home", 1, 0)]


def test_a_house_rule_change_reorders_the_table_at_once(
    table_cache, api, api_as, client, league, home, away, coach, other_coach, commissioner
):
    """H: the tie-breakers are the league's. Aardvarks (not played) sit between Home (3 points) and Away (0
    points, −2) by points and difference; by name alone they lead."""
    TeamFactory(league=league, name="Aardvarks", coach=UserFactory())
    play(api_as, league, coach, other_coach, [(home, 2), (away, 0)])
    assert [name for name, *_ in api_table(api, league)] == ["Home", "Aardvarks", "Away"]
    assert [name for name, *_ in page_table(client, league)] == ["Home", "Aardvarks", "Away"]
    response = api_as(commissioner).patch(
        f"/api/v1/leagues/{league.pk}/", {"house_rules": {"tie_breakers": ["name"]}}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert [name for name, *_ in api_table(api, league)] == ["Aardvarks", "Away", "Home"]
    assert [name for name, *_ in page_table(client, league)] == ["Aardvarks", "Away", "Home"]


def test_a_team_founded_after_the_table_was_cached_is_in_it_at_once(table_cache, api, api_as, league, coach):
    full_team(league, coach, "Home")
    assert api_table(api, league) == [("Home", 0, 0)]
    newcomer = UserFactory(username="carol")
    assert api_as(newcomer).post(f"/api/v1/leagues/{league.pk}/join/").status_code == 201
    response = api_as(newcomer).post(
        "/api/v1/teams/", {"league": league.pk, "name": "Latecomers", "roster": "hume"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert api_table(api, league) == [("Home", 0, 0), ("Latecomers", 0, 0)]


def test_a_cached_table_costs_no_query_and_each_reader_gets_its_own_copy(
    table_cache, django_assert_num_queries, api_as, league, home, away, coach, other_coach
):
    play(api_as, league, coach, other_coach, [(home, 1), (away, 0)])
    league = League.objects.get(pk=league.pk)
    with django_assert_num_queries(2):  # computed: the teams and the final sides
        first = league_standings(league=league)
    first[0]["name"] = "Changed by a page"
    with django_assert_num_queries(0):
        again = league_standings(league=league)
    assert [row["name"] for row in again] == ["Home", "Away"]


def test_a_table_is_exact_with_the_cache_down(api, api_as, league, home, away, coach, other_coach):
    """Redis unreachable (a closed port): the cache fails open, every table is computed, none is stale."""
    with override_settings(CACHES={"default": redis_cache("redis://127.0.0.1:9/0")}):
        assert api_table(api, league) == [("Away", 0, 0), ("Home", 0, 0)]
        play(api_as, league, coach, other_coach, [(home, 0), (away, 3)])
        assert api_table(api, league) == [("Away", 1, 3), ("Home", 1, 0)]


def test_a_table_version_is_never_handed_out_twice_even_after_a_rollback(league):
    """A transaction that changes the version and rolls back (having perhaps cached a table at it) leaves the
    old version; the next change never reuses the rolled-back one."""
    before = League.objects.get(pk=league.pk).table_version
    with pytest.raises(RuntimeError), transaction.atomic():
        rolled_back = league_table_changed(league.pk)
        raise RuntimeError
    assert League.objects.get(pk=league.pk).table_version == before
    after = league_table_changed(league.pk)
    assert after not in (before, rolled_back)
    assert League.objects.get(pk=league.pk).table_version == after


def test_a_team_renamed_in_the_admin_is_renamed_in_the_table_at_once(table_cache, api, rf, league, coach):
    """The admin is the one door that renames a team; it gives the league a new table version too."""
    from types import SimpleNamespace

    from django.contrib.admin.sites import site

    from teams.admin import TeamAdmin
    from teams.models import Team

    team = full_team(league, coach, "Home", n=1)
    assert api_table(api, league) == [("Home", 0, 0)]
    team = Team.objects.get(pk=team.pk)
    team.name = "Renamed"
    TeamAdmin(Team, site).save_model(rf.post("/admin/"), team, SimpleNamespace(initial={"league": league.pk}), True)
    assert api_table(api, league) == [("Renamed", 0, 0)]


def test_the_dashboards_house_rules_give_the_table_a_new_version(
    table_cache, django_assert_num_queries, api, league, commissioner
):
    """H: the dashboard sets the whole set of overrides at once (league_replace_overrides): the table cached
    before is not read again, even when the tie-breakers end up the same."""
    from league.services import league_replace_overrides

    for name in ("Bravo", "Alpha"):
        TeamFactory(league=league, name=name, coach=UserFactory())
    assert [name for name, *_ in api_table(api, league)] == ["Alpha", "Bravo"]
    before = League.objects.get(pk=league.pk).table_version
    league_replace_overrides(user=commissioner, league_id=league.pk, overrides={"friendlies_give_points": True})
    fresh = League.objects.get(pk=league.pk)
    assert fresh.table_version != before
    with django_assert_num_queries(2):  # computed afresh, not the table cached at the old version
        assert [row["name"] for row in league_standings(league=fresh)] == ["Alpha", "Bravo"]


def test_the_standings_api_answers_304_to_a_client_holding_the_current_table_and_200_once_it_changes(
    table_cache, api, api_as, league, home, away, coach, other_coach
):
    """The table's version is its ETag: revalidating costs the client no body until a result changes it."""
    url = f"/api/v1/leagues/{league.pk}/standings/"
    first = api.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"') and "no-cache" in first["Cache-Control"]
    held = api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert held.status_code == 304 and held.content == b"" and held["ETag"] == etag
    play(api_as, league, coach, other_coach, [(home, 2), (away, 0)])
    changed = api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert [(r["name"], r["points"]) for r in changed.json()["rows"]] == [("Home", 3), ("Away", 0)]


def test_a_cached_standings_answer_reads_only_the_league_row_and_is_the_rendered_table(
    table_cache, api, api_as, league, home, away, coach, other_coach, django_assert_num_queries
):
    """Rendered once per table version; after that one query (the league's version) and no rendering."""
    play(api_as, league, coach, other_coach, [(home, 1), (away, 1)])
    url = f"/api/v1/leagues/{league.pk}/standings/"
    rendered = api.get(url).content
    with django_assert_num_queries(1):
        again = api.get(url)
    assert again.content == rendered and again["Content-Type"] == "application/json"
    assert again.json() == {"league": league.pk, "rows": league_standings(league=League.objects.get(pk=league.pk))}


@pytest.mark.parametrize("pk", ["999999", "0", "99999999999999999999"])
def test_the_standings_of_no_league_are_not_found(api, pk):
    assert api.get(f"/api/v1/leagues/{pk}/standings/").status_code == 404


def test_a_process_keeps_its_rendered_tables_within_its_byte_bound():
    """Least recently used out first; a document larger than the bound is never kept."""
    from matches.standings import LocalDocuments

    kept = LocalDocuments(limit=10)
    kept.put("a", b"1234")
    kept.put("b", b"5678")
    assert kept.get("a") == b"1234"  # now the most recently used
    kept.put("c", b"90ab")
    assert kept.get("b") is None and kept.get("a") == b"1234" and kept.get("c") == b"90ab"
    kept.put("huge", b"x" * 11)
    assert kept.get("huge") is None and kept.size == 8


def test_a_new_league_starts_at_a_random_table_version(league):
    from tests.factories import LeagueFactory

    other = LeagueFactory(created_by=league.created_by)
    assert league.table_version > 0 and other.table_version > 0 and league.table_version != other.table_version
