"""The commissioner's queue (issue 13, "Deadlines, disputes and the queue"; api-v1 v1.1 `GET
/leagues/{id}/queue/`): results awaiting confirmation for more than 24 hours, open disputes, overdue matches,
transfers to approve and requests to join — oldest first, for the commissioner only."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from dugout.queue import league_queue
from league.models import JoinRequest
from matches.overdue import overdue_matches
from teams import transfers
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _queue(api_as, user, league):
    response = api_as(user).get(f"/api/v1/leagues/{league.pk}/queue/")
    assert response.status_code == 200, response.json()
    return response.json()


def test_an_empty_league_has_an_empty_queue(api_as, league, commissioner):
    assert _queue(api_as, commissioner, league) == []


def test_a_result_enters_the_queue_only_after_24_hours_waiting(api_as, league, commissioner, desk):
    fresh = desk.submitted(hours_ago=23)
    old = desk.submitted(hours_ago=25)

    items = _queue(api_as, commissioner, league)

    assert [(i["kind"], i["match"]) for i in items] == [("awaiting_confirmation", old.pk)]
    assert fresh.pk not in {i["match"] for i in items}
    assert "waiting 25 hours" in items[0]["detail"]


def test_an_open_dispute_is_in_the_queue_with_its_reason(api_as, league, commissioner, desk):
    match = desk.disputed(reason="The MVP went to the wrong player.")

    [item] = _queue(api_as, commissioner, league)

    assert item["kind"] == "disputed" and item["match"] == match.pk
    assert "The MVP went to the wrong player." in item["detail"]
    assert set(item) >= {"kind", "match", "team", "since", "detail"}


def test_a_match_past_its_deadline_and_not_final_is_overdue_a_match_due_later_is_not(
    api_as, league, commissioner, desk
):
    now = timezone.now()
    late = desk.scheduled(deadline=now - dt.timedelta(days=1))
    desk.scheduled(deadline=now + dt.timedelta(days=1))
    desk.scheduled()  # no deadline: never overdue

    items = _queue(api_as, commissioner, league)

    assert [(i["kind"], i["match"]) for i in items] == [("overdue", late.pk)]
    assert list(overdue_matches(league=league)) == [late]


def test_overdue_is_strictly_past_the_deadline(league, desk):
    now = timezone.now()
    match = desk.scheduled(deadline=now)
    assert list(overdue_matches(league=league, now=now)) == []
    assert list(overdue_matches(league=league, now=now + dt.timedelta(seconds=1))) == [match]


def test_a_match_is_listed_once_under_its_most_pressing_kind(league, desk):
    """A disputed result past its deadline is a dispute; a result waiting 30 hours past its deadline waits for
    confirmation; a result submitted an hour ago past its deadline is not overdue (the match was played: its result
    waits for the other coach, in the queue once it has waited a day)."""
    past = timezone.now() - dt.timedelta(days=3)
    disputed = desk.disputed()
    type(disputed).objects.filter(pk=disputed.pk).update(deadline=past)
    waiting = desk.submitted(hours_ago=30, deadline=past)
    fresh = desk.submitted(hours_ago=1, deadline=past)

    kinds = {item.match: item.kind for item in league_queue(league=league)}

    assert kinds == {disputed.pk: "disputed", waiting.pk: "awaiting_confirmation"}
    assert fresh.pk not in kinds


def test_transfers_to_approve_and_requests_to_join_are_in_the_queue_oldest_first(
    api_as, league, commissioner, coach, home, away, desk
):
    """R (blitzbowl.md "Teams, treasury and value"): a transfer needs the commissioner last — only one the
    buying coach accepted waits for him; a proposed one waits for the buying coach."""
    waiting = desk.submitted(hours_ago=48)
    player = home.players.order_by("number").first()
    transfer = transfers.transfer_propose(user=coach, player_id=player.pk, to_team_id=away.pk)
    transfers.transfer_propose(
        user=coach, player_id=home.players.order_by("number")[1].pk, to_team_id=away.pk
    )  # not accepted: not the commissioner's yet
    transfers.transfer_accept(user=away.coach, transfer_id=transfer.pk)
    join = JoinRequest.objects.create(league=league, user=UserFactory(username="newbie"), message="Hi!")

    items = _queue(api_as, commissioner, league)

    assert [i["kind"] for i in items] == ["awaiting_confirmation", "transfer", "join_request"]
    assert items[0]["match"] == waiting.pk
    assert items[1]["transfer"] == transfer.pk and items[1]["team"] == away.pk
    assert player.name in items[1]["detail"]
    assert items[2]["join_request"] == join.pk and "newbie asks to join" in items[2]["detail"]
    sinces = [i["since"] for i in items]
    assert sinces == sorted(sinces)


def test_only_the_commissioner_reads_the_queue(api, api_as, league, coach, make_coach, stranger):
    make_coach(coach)
    assert api.get(f"/api/v1/leagues/{league.pk}/queue/").status_code == 401
    assert api_as(coach).get(f"/api/v1/leagues/{league.pk}/queue/").status_code == 403
    assert api_as(stranger).get(f"/api/v1/leagues/{league.pk}/queue/").status_code == 403
    assert api_as(stranger).get("/api/v1/leagues/999999/queue/").status_code == 404


def test_a_past_seasons_overdue_match_is_not_in_the_queue(league, desk):
    match = desk.scheduled(deadline=timezone.now() - dt.timedelta(days=2))
    type(match).objects.filter(pk=match.pk).update(season=0)
    assert league_queue(league=league) == []
