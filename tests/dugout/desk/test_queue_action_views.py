"""Each of the queue's actions is a view of its own, at a URL of its own: POST only, a commissioner of the
league only (a coach of the league is refused with a 403 and nothing changes), and it does its one thing —
whatever else the form sends (an `action` field, say) is not read."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import JoinRequest, Membership
from matches.models import Match
from teams import transfers
from teams.models import Team, Transfer
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@dataclass
class Case:
    """A queue item ready for one action: the form's fields, and whether the action has been carried out."""

    data: dict
    done: Callable[[], bool]


def _confirm(desk, **_) -> Case:
    match = desk.submitted(hours_ago=30)
    return Case({"match": match.pk}, lambda: Match.objects.get(pk=match.pk).status == "final")


def _correct(desk, **_) -> Case:
    match = desk.disputed()
    body = dict(match.result_body)
    body["teams"] = [dict(body["teams"][0], score=2), body["teams"][1]]
    body["players"] = [dict(body["players"][0], touchdowns=2)]
    data = {"match": match.pk, "reason": "Two touchdowns.", "result": json.dumps(body)}

    def done() -> bool:
        match.refresh_from_db()
        return match.status == "final" and [s.score for s in match.sides.order_by("order")] == [2, 0]

    return Case(data, done)


def _reject(desk, **_) -> Case:
    match = desk.submitted(hours_ago=30)
    data = {"match": match.pk, "reason": "Not played yet."}
    return Case(data, lambda: Match.objects.get(pk=match.pk).status == "scheduled")


def _forfeit(desk, **_) -> Case:
    match = desk.scheduled(deadline=timezone.now() - dt.timedelta(days=2))
    data = {"match": match.pk, "team": desk.away.pk, "reason": "No show."}

    def done() -> bool:
        match.refresh_from_db()
        return match.status == "final" and match.result["forfeit"]["team"] == desk.away.pk

    return Case(data, done)


def _transfer(desk):
    player = desk.home.players.order_by("number").first()
    transfer = transfers.transfer_propose(user=desk.home.coach, player_id=player.pk, to_team_id=desk.away.pk)
    transfers.transfer_accept(user=desk.away.coach, transfer_id=transfer.pk)
    return transfer


def _approve_transfer(desk, **_) -> Case:
    transfer = _transfer(desk)
    return Case({"transfer": transfer.pk}, lambda: Transfer.objects.get(pk=transfer.pk).status == "completed")


def _refuse_transfer(desk, **_) -> Case:
    transfer = _transfer(desk)
    return Case({"transfer": transfer.pk}, lambda: Transfer.objects.get(pk=transfer.pk).status == "refused")


def _approve_join(desk, league, **_) -> Case:
    asked = JoinRequest.objects.create(league=league, user=UserFactory(username="asks"))
    return Case(
        {"join_request": asked.pk},
        lambda: Membership.objects.filter(league=league, user=asked.user, role="coach").exists(),
    )


def _refuse_join(desk, league, **_) -> Case:
    asked = JoinRequest.objects.create(league=league, user=UserFactory(username="asks"))
    data = {"join_request": asked.pk, "reason": "League is full."}
    return Case(data, lambda: JoinRequest.objects.get(pk=asked.pk).state == "refused")


def _reassign(desk, league, **_) -> Case:
    Membership.objects.create(league=league, user=UserFactory(username="newcoach"), role="coach")
    team = desk.teams[2]
    Team.objects.filter(pk=team.pk).update(coach=None)
    data = {"team": team.pk, "coach": "newcoach", "reason": "He asked."}
    return Case(data, lambda: Team.objects.filter(pk=team.pk, coach__username="newcoach").exists())


CASES = {
    "desk-queue-confirm": _confirm,
    "desk-queue-correct": _correct,
    "desk-queue-reject": _reject,
    "desk-queue-forfeit": _forfeit,
    "desk-queue-approve-transfer": _approve_transfer,
    "desk-queue-refuse-transfer": _refuse_transfer,
    "desk-queue-approve-join": _approve_join,
    "desk-queue-refuse-join": _refuse_join,
    "desk-queue-reassign": _reassign,
}


@pytest.mark.parametrize("name", CASES)
def test_a_queue_action_refuses_a_coach_of_the_league_and_changes_nothing(client, league, desk, name):
    case = CASES[name](desk, league=league)
    coach = desk.home.coach
    Membership.objects.get_or_create(league=league, user=coach, role="coach")
    client.force_login(coach)

    response = client.post(reverse(name, args=[league.pk]), case.data)

    assert response.status_code == 403
    assert not case.done()


@pytest.mark.parametrize("name", CASES)
def test_a_queue_action_does_its_one_thing_for_the_commissioner(client, league, commissioner, desk, name):
    case = CASES[name](desk, league=league)
    client.force_login(commissioner)

    # The action is the URL's: an `action` field (as the queue's forms once sent) is not read.
    response = client.post(reverse(name, args=[league.pk]), {**case.data, "action": "nope"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="panel" id="queue"')
    assert 'role="status"' in html and "Unknown action" not in html
    assert case.done()


@pytest.mark.parametrize("name", CASES)
def test_a_queue_action_is_a_post_and_back_to_the_dashboard_without_htmx(client, league, commissioner, name):
    client.force_login(commissioner)
    url = reverse(name, args=[league.pk])
    assert client.get(url).status_code == 405
    response = client.post(url, {})
    assert response.status_code == 302 and response.url == reverse("commissioner-dashboard", args=[league.pk])


def test_a_queue_action_of_no_such_league_is_a_404(client, commissioner):
    client.force_login(commissioner)
    assert client.post(reverse("desk-queue-confirm", args=[999999]), {"match": "1"}).status_code == 404


def test_correct_refuses_a_result_that_is_not_disputed(client, league, commissioner, desk):
    match = desk.submitted(hours_ago=30)
    client.force_login(commissioner)
    response = client.post(
        reverse("desk-queue-correct", args=[league.pk]), {"match": match.pk, "result": "{}"}, follow=True
    )
    assert "Only a disputed result is corrected from the queue." in response.content.decode()
    assert Match.objects.get(pk=match.pk).status == "submitted"


def test_the_queue_forms_post_to_each_actions_own_url(client, league, commissioner, desk):
    desk.disputed()
    desk.submitted(hours_ago=30)
    client.force_login(commissioner)
    html = client.get(reverse("desk-queue", args=[league.pk]), HTTP_HX_REQUEST="true").content.decode()
    for name in ("desk-queue-confirm", "desk-queue-correct", "desk-queue-reject"):
        assert f'formaction="{reverse(name, args=[league.pk])}"' in html
    assert 'name="action"' not in html


def test_a_refused_queue_action_by_htmx_is_the_panel_again_answered_400(client, league, commissioner):
    """The queue panel swaps a refusal in (data-swap-refusals) and reads it as one: 400, the reason in words."""
    client.force_login(commissioner)

    response = client.post(reverse("desk-queue-confirm", args=[league.pk]), {"match": "abc"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 400
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="panel" id="queue" data-swap-refusals')
    assert "Choose the match." in html
