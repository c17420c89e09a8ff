"""Unplayed matches at a redraft (docs/decisions.md, "Unplayed matches at a redraft"): a match scheduled and not
played when the season turns with `season_rollover: redraft` is void — its teams were rebuilt (players released,
back in creation), so no coach is asked for a result of a team with no players. It stays in its closed season,
shown as void; every action on it is refused in words. Under `carry` an unplayed match moves on as before."""

from __future__ import annotations

import pytest

from dugout.actions import user_actions
from league.models import AuditEntry
from matches import lifecycle
from matches.models import Match
from teams.models import Player
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def home(league, coach):
    return full_team(league, coach, "Home")


@pytest.fixture
def away(league, other_coach):
    return full_team(league, other_coach, "Away")


def _turn(api_as, league, rollover: str) -> None:
    commissioner = api_as(league.created_by)
    patched = commissioner.patch(
        f"/api/v1/leagues/{league.pk}/", {"house_rules": {"season_rollover": rollover}}, format="json"
    )
    assert patched.status_code == 200, patched.json()
    response = commissioner.post(f"/api/v1/leagues/{league.pk}/seasons/", {}, format="json")
    assert response.status_code == 201, response.json()


def _schedule(api_as, league, home, away) -> int:
    response = api_as(league.created_by).post(
        "/api/v1/matches/", {"league": league.pk, "teams": [home.pk, away.pk]}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def _body(home, away) -> dict:
    return {"teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 0}], "players": []}


def test_a_redraft_makes_the_unplayed_matches_of_rebuilt_teams_void_in_their_closed_season(
    api_as, league, home, away, coach
):
    match_id = _schedule(api_as, league, home, away)

    _turn(api_as, league, "redraft")

    match = Match.objects.get(pk=match_id)
    assert (match.status, match.season) == ("void", 1)  # not carried into season 2
    assert not Player.objects.filter(team=home, left_at__isnull=True).exists()  # the team it was made for is gone
    audit = AuditEntry.objects.get(action="season")
    assert audit.after["fixtures_void"] == [match_id] and audit.after["fixtures_carried"] == 0
    assert audit.after["turn"]["rebuilt"] == sorted([home.pk, away.pk])
    assert "1 unplayed match(es) void" in audit.reason
    # Nobody is asked for its result: not the coach's home, not the API's match.
    assert [item for item in user_actions(user=coach) if item.match == match_id] == []
    answer = api_as(None).get(f"/api/v1/matches/{match_id}/").json()
    assert answer["status"] == "void"


def test_a_void_matchs_page_says_void_and_offers_no_result(api_as, client, league, home, away, coach):
    match_id = _schedule(api_as, league, home, away)
    _turn(api_as, league, "redraft")
    client.force_login(coach)

    page = client.get(f"/matches/{match_id}/").content.decode()

    assert 'data-status="void"' in page and ">Void</span>" in page
    assert 'id="match-void"' in page
    assert "Enter the result" not in page and 'id="live-link"' not in page
    refused = client.get(f"/matches/{match_id}/result/", follow=True)
    assert "This match is void" in refused.content.decode()
    assert client.get(f"/matches/{match_id}/live/").status_code == 409


def test_a_result_for_a_void_match_is_refused_in_words_and_changes_nothing(api_as, league, home, away, coach):
    match_id = _schedule(api_as, league, home, away)
    _turn(api_as, league, "redraft")

    response = api_as(coach).post(f"/api/v1/matches/{match_id}/result/", _body(home, away), format="json")

    assert response.status_code == 400, response.json()
    assert "void" in str(response.json())
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.result, match.submitted_by_id) == ("void", {}, None)
    forfeit = api_as(league.created_by).post(
        f"/api/v1/matches/{match_id}/forfeit/", {"team": away.pk, "reason": "No show."}, format="json"
    )
    assert forfeit.status_code == 400 and "void" in str(forfeit.json())


def test_carry_still_moves_an_unplayed_match_into_the_new_season(api_as, league, home, away):
    match_id = _schedule(api_as, league, home, away)

    _turn(api_as, league, "carry")

    match = Match.objects.get(pk=match_id)
    assert (match.status, match.season) == ("scheduled", 2)
    assert AuditEntry.objects.get(action="season").after["fixtures_void"] == []


def test_the_lifecycle_voids_only_a_match_still_to_be_played_and_void_is_an_end():
    assert lifecycle.next_status("scheduled", lifecycle.Action.VOID) == "void"
    for status in ("submitted", "disputed", "final"):
        with pytest.raises(lifecycle.TransitionRefused):
            lifecycle.next_status(status, lifecycle.Action.VOID)
    for action in lifecycle.Action:
        with pytest.raises(lifecycle.TransitionRefused, match="void"):
            lifecycle.next_status("void", action)
    assert "void" in lifecycle.STATUSES
    assert "void" not in lifecycle.OPEN and "void" not in lifecycle.WAITING


def test_the_commissioner_voids_one_match_still_to_be_played_with_a_reason(api_as, league, home, away, coach):
    """The door for one match (e.g. one carried into a season before the turn voided them): commissioner only,
    a reason required, audited; a coach is refused and nothing changes."""
    match_id = _schedule(api_as, league, home, away)
    url = f"/api/v1/matches/{match_id}/void/"

    assert api_as(coach).post(url, {"reason": "Gone."}, format="json").status_code == 403
    no_reason = api_as(league.created_by).post(url, {}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()
    assert Match.objects.get(pk=match_id).status == "scheduled"

    response = api_as(league.created_by).post(url, {"reason": "The away team was rebuilt."}, format="json")

    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "void"
    audit = AuditEntry.objects.get(action="void")
    assert (audit.target, audit.before, audit.after) == (
        f"match {match_id}",
        {"status": "scheduled"},
        {"status": "void"},
    )
    assert audit.reason.endswith("The away team was rebuilt.")
    again = api_as(league.created_by).post(url, {"reason": "Twice."}, format="json")
    assert again.status_code == 400 and "void" in again.json()["detail"]


def test_a_knockout_match_is_forfeited_not_voided(api_as, league, home, away):
    response = api_as(league.created_by).post(
        "/api/v1/matches/", {"league": league.pk, "teams": [home.pk, away.pk], "kind": "final"}, format="json"
    )
    match_id = response.json()["id"]
    refused = api_as(league.created_by).post(f"/api/v1/matches/{match_id}/void/", {"reason": "No."}, format="json")
    assert refused.status_code == 400 and "forfeit" in refused.json()["detail"]
    assert Match.objects.get(pk=match_id).status == "scheduled"
