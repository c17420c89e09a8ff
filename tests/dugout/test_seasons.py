"""Seasons through the API (issue 13; contract: api-v1 "Seasons"): a league opens in season 1; the commissioner
closes the open season — its final table and champion kept — and the next opens; refused (409, in words) while a
result waits or a post-match sequence is unfinished; matches and the table are the open season's, teams and
treasuries carry over."""

from __future__ import annotations

import pytest

from dugout.benchmark.play import sequence_walk
from league.models import AuditEntry, League, Season
from matches.models import Match
from matches.selectors import league_standings
from teams.selectors import team_treasury
from tests.assertions import assert_refused
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def home(league, coach):
    return full_team(league, coach, "Home")


@pytest.fixture
def away(league, other_coach):
    return full_team(league, other_coach, "Away")


MATCHES = "/api/v1/matches/"


def seasons_url(league) -> str:
    return f"/api/v1/leagues/{league.pk}/seasons/"


def _play(api_as, league, home, away, submitter, confirmer, score=(1, 0), kind="league"):
    """One match scheduled by the commissioner, entered and confirmed; returns its id (sequences not walked)."""
    client = api_as(submitter)
    response = api_as(league.created_by).post(
        MATCHES, {"league": league.pk, "teams": [home.pk, away.pk], "kind": kind}, format="json"
    )
    assert response.status_code == 201, response.json()
    match_id = response.json()["id"]
    scorer = (home if score[0] else away).players.order_by("number").first()
    body = {
        "teams": [{"team": home.pk, "score": score[0]}, {"team": away.pk, "score": score[1]}],
        "players": [{"player": scorer.pk, "touchdowns": max(score)}] if max(score) else [],
    }
    assert client.post(f"{MATCHES}{match_id}/result/", body, format="json").status_code == 201
    assert api_as(confirmer).post(f"{MATCHES}{match_id}/confirm/").status_code == 200
    return match_id


def _finish_sequences(match_id, *teams):
    for team in teams:
        sequence_walk(user=team.coach, match_id=match_id, team_id=team.pk)


def test_a_new_league_is_in_its_first_open_season(api_as, league):
    response = api_as(None).get(seasons_url(league))

    assert response.status_code == 200
    [season] = response.json()
    assert (season["number"], season["status"], season["closed_at"], season["champion"]) == (1, "open", None, None)
    assert League.objects.get(pk=league.pk).season == 1


def test_closing_a_season_keeps_its_table_and_champion_and_opens_the_next(
    api_as, league, home, away, coach, other_coach, commissioner
):
    match_id = _play(api_as, league, home, away, coach, other_coach)
    _finish_sequences(match_id, home, away)
    treasury = {team.pk: team_treasury(team=team) for team in (home, away)}

    response = api_as(commissioner).post(seasons_url(league), {"name": "Spring"}, format="json")

    assert response.status_code == 201, response.json()
    assert (response.json()["number"], response.json()["name"], response.json()["status"]) == (2, "Spring", "open")
    first = Season.objects.get(league=league, number=1)
    assert (first.status, first.champion_id) == ("closed", home.pk)  # the table's first: no final was played
    assert [row["team"] for row in first.final_table][:1] == [home.pk]
    assert first.final_table[0]["won"] == 1
    listed = api_as(None).get(seasons_url(league)).json()
    assert [(s["number"], s["status"], s["champion"]) for s in listed] == [(1, "closed", home.pk), (2, "open", None)]
    # The open season's table starts empty; teams and treasuries carry over.
    league.refresh_from_db()
    assert all(row["played"] == 0 for row in league_standings(league=league))
    assert {team.pk: team_treasury(team=team) for team in (home, away)} == treasury
    assert treasury[home.pk] > 0
    entry = AuditEntry.objects.get(action="season")
    assert (entry.actor, entry.before["season"], entry.after["season"]) == (commissioner, 1, 2)


def test_a_fixture_not_played_when_the_season_closes_moves_to_the_new_one(api_as, league, home, away, commissioner):
    fixture = api_as(commissioner).post(MATCHES, {"league": league.pk, "teams": [home.pk, away.pk]}, format="json")

    assert api_as(commissioner).post(seasons_url(league), {}, format="json").status_code == 201

    assert Match.objects.get(pk=fixture.json()["id"]).season == 2
    assert AuditEntry.objects.get(action="season").after["fixtures_carried"] == 1


def test_matches_scheduled_after_the_turn_belong_to_the_new_season(
    api_as, league, home, away, coach, other_coach, commissioner
):
    assert api_as(commissioner).post(seasons_url(league), {}, format="json").status_code == 201

    match_id = _play(api_as, league, home, away, coach, other_coach)

    assert Match.objects.get(pk=match_id).season == 2
    league.refresh_from_db()
    table = {row["team"]: row for row in league_standings(league=league)}
    assert table[home.pk]["won"] == 1
    assert api_as(None).get(f"{MATCHES}{match_id}/").json()["season"] == 2


def test_the_champion_is_the_finals_winner_when_the_season_had_a_final(
    api_as, league, home, away, coach, other_coach, commissioner
):
    """issue 13: "its champion: the final's winner if the season had a knockout, else the table's first"."""
    first = _play(api_as, league, home, away, coach, other_coach, score=(2, 0))
    _finish_sequences(first, home, away)
    final = _play(api_as, league, home, away, coach, other_coach, score=(0, 1), kind="final")
    _finish_sequences(final, home, away)

    assert api_as(commissioner).post(seasons_url(league), {}, format="json").status_code == 201

    assert Season.objects.get(league=league, number=1).champion_id == away.pk


@pytest.mark.parametrize("waiting", ["submitted", "disputed", "unfinished_sequence"])
def test_a_season_does_not_close_while_something_of_it_waits(
    api_as, league, home, away, coach, other_coach, commissioner, waiting
):
    client = api_as(commissioner)
    match_id = client.post(MATCHES, {"league": league.pk, "teams": [home.pk, away.pk]}, format="json").json()["id"]
    body = {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}], "players": []}
    assert api_as(coach).post(f"{MATCHES}{match_id}/result/", body, format="json").status_code == 201
    if waiting == "disputed":
        reason = {"reason": "Wrong score."}
        assert api_as(other_coach).post(f"{MATCHES}{match_id}/dispute/", reason, format="json").status_code == 200
    if waiting == "unfinished_sequence":
        assert api_as(other_coach).post(f"{MATCHES}{match_id}/confirm/").status_code == 200

    body = assert_refused(client.post(seasons_url(league), {}, format="json"), 409)

    assert f"Match {match_id}" in body["detail"]
    assert list(Season.objects.filter(league=league).values_list("number", "status")) == [(1, "open")]
    assert League.objects.get(pk=league.pk).season == 1


def test_only_the_commissioner_turns_the_season_and_a_name_is_bounded(api_as, league, coach, commissioner):
    assert_refused(api_as(coach).post(seasons_url(league), {}, format="json"), 403)
    assert_refused(api_as(None).post(seasons_url(league), {}, format="json"), (401, 403))
    assert_refused(api_as(commissioner).post(seasons_url(league), {"name": "x" * 101}, format="json"), 400, "name")
    assert_refused(api_as(commissioner).post(seasons_url(league), {"name": 2}, format="json"), 400, "name")
    assert Season.objects.filter(league=league).count() == 1
    assert api_as(None).get("/api/v1/leagues/999999/seasons/").status_code == 404


def test_the_audit_is_the_commissioners_newest_first(api_as, league, coach, commissioner):
    client = api_as(commissioner)
    client.post(seasons_url(league), {}, format="json")
    client.post(seasons_url(league), {"name": "Third"}, format="json")

    response = client.get(f"/api/v1/leagues/{league.pk}/audit/")

    assert response.status_code == 200
    rows = response.json()["results"]
    assert [(r["action"], r["after"]["season"], r["actor"]) for r in rows] == [
        ("season", 3, commissioner.username),
        ("season", 2, commissioner.username),
    ]
    assert_refused(api_as(coach).get(f"/api/v1/leagues/{league.pk}/audit/"), 403)
    assert_refused(api_as(None).get(f"/api/v1/leagues/{league.pk}/audit/"), (401, 403))


def test_house_rules_from_next_season_wait_for_the_turn_then_apply_and_are_audited(api_as, league, commissioner, coach):
    """issue 13: "House-rule changes made during a season can be marked 'from next season'"."""
    url = f"/api/v1/leagues/{league.pk}/house-rules/next-season/"
    client = api_as(commissioner)
    win_points = league.house_rules["league_points"]["win"]

    response = client.put(url, {"house_rules": {"league_points": {"win": win_points + 1}}}, format="json")

    assert response.status_code == 200, response.json()
    league.refresh_from_db()
    assert league.house_rules["league_points"]["win"] == win_points  # not during this season
    assert api_as(None).get(url).json() == {"house_rules": {"league_points": {"win": win_points + 1}}}

    assert client.post(seasons_url(league), {}, format="json").status_code == 201

    league = League.objects.get(pk=league.pk)
    assert league.house_rules["league_points"]["win"] == win_points + 1
    assert league.house_rules_next_season == {}
    entry = AuditEntry.objects.get(action="house_rules")
    assert entry.before == {"league_points": {"win": win_points}}  # the values in force, not the overrides
    assert entry.after == {"league_points": {"win": win_points + 1}}
    assert AuditEntry.objects.filter(action="house_rules_next_season").count() == 1


def test_next_season_rules_are_validated_and_the_commissioners(api_as, league, commissioner, coach):
    url = f"/api/v1/leagues/{league.pk}/house-rules/next-season/"

    assert_refused(api_as(coach).put(url, {"house_rules": {}}, format="json"), 403)
    assert_refused(
        api_as(commissioner).put(url, {"house_rules": {"no_such_rule": 1}}, format="json"), 400, "no_such_rule"
    )
    assert_refused(api_as(commissioner).put(url, {"house_rules": []}, format="json"), 400, "house_rules")
    assert League.objects.get(pk=league.pk).house_rules_next_season == {}


def test_the_standings_of_a_past_season_are_its_frozen_table_and_the_default_is_the_open_one(
    api_as, league, home, away, coach, other_coach, commissioner
):
    """api-v1: `GET /leagues/{id}/standings/?season=N` — the standings of season N (default: the open season)."""
    match_id = _play(api_as, league, home, away, coach, other_coach)
    _finish_sequences(match_id, home, away)
    assert api_as(commissioner).post(seasons_url(league), {}, format="json").status_code == 201
    url = f"/api/v1/leagues/{league.pk}/standings/"

    past = api_as(None).get(url, {"season": 1})
    current = api_as(None).get(url)
    named = api_as(None).get(url, {"season": 2})

    assert past.status_code == 200
    assert past.json()["season"] == 1
    assert [(r["team"], r["won"]) for r in past.json()["rows"]][:1] == [(home.pk, 1)]
    assert all(row["played"] == 0 for row in current.json()["rows"])
    assert named.json() == current.json()
    again = api_as(None).get(url, {"season": 1}, HTTP_IF_NONE_MATCH=past["ETag"])
    assert again.status_code == 304
    assert api_as(None).get(url, {"season": 3}).status_code == 404
    assert_refused(api_as(None).get(url, {"season": "first"}), 400, "season")
    assert_refused(api_as(None).get(url, {"season": 0}), 400, "season")
