"""The queue on the pages: the dashboard's first panel (loaded by htmx from /commissioner/<id>/queue/, a page
of its own without JavaScript), each item's actions in place — rule on a disputed result with a reason, confirm
or reject a waiting one, forfeit an overdue match, approve a transfer, approve or refuse a request to join,
reassign a team left without coach."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import AuditEntry, JoinRequest, Membership
from matches.models import Dispute, Match
from teams import transfers
from teams.models import Transfer
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _url(league):
    return reverse("desk-queue", args=[league.pk])


def test_the_dashboards_first_panel_loads_the_queue(client, league, commissioner):
    client.force_login(commissioner)
    html = client.get(reverse("commissioner-dashboard", args=[league.pk])).content.decode()
    first_panel = html.index('class="panel"')
    assert html.index('id="queue"') < html.index("<h2>Members</h2>")
    assert 'id="queue"' in html[first_panel - 40 : first_panel + 200]
    assert f'hx-get="{_url(league)}"' in html
    assert f'href="{reverse("desk-audit", args=[league.pk])}"' in html


def test_the_queue_fragment_for_htmx_and_a_page_without_it(client, league, commissioner, desk):
    desk.disputed(reason="Offside touchdown")
    client.force_login(commissioner)
    fragment = client.get(_url(league), HTTP_HX_REQUEST="true").content.decode()
    page = client.get(_url(league)).content.decode()
    assert fragment.lstrip().startswith('<section class="panel" id="queue"')
    assert "Offside touchdown" in fragment and "Confirm as is" in fragment
    assert "<html" in page and "Offside touchdown" in page


def test_only_a_commissioner_opens_the_queue(client, league, coach, make_coach):
    make_coach(coach)
    client.force_login(coach)
    assert client.get(_url(league)).status_code == 403
    assert client.post(_url(league), {"action": "confirm", "match": "1"}).status_code == 403
    assert client.get(reverse("desk-queue", args=[999999])).status_code == 404


def test_the_commissioner_confirms_a_disputed_result_as_is_from_the_queue(client, league, commissioner, desk):
    match = desk.disputed()
    client.force_login(commissioner)

    response = client.post(
        _url(league), {"action": "confirm", "match": match.pk, "reason": "Checked the photos."}, HTTP_HX_REQUEST="true"
    )

    assert response.status_code == 200
    assert "Result confirmed as is." in response.content.decode()
    assert Match.objects.get(pk=match.pk).status == "final"
    assert Dispute.objects.get(match=match).ruling == "confirmed"
    entry = AuditEntry.objects.get(league=league, action="dispute_ruling")
    assert entry.reason == "Checked the photos." and entry.actor == commissioner


def test_a_ruling_without_a_reason_is_refused_and_changes_nothing(client, league, commissioner, desk):
    match = desk.disputed()
    client.force_login(commissioner)
    response = client.post(_url(league), {"action": "reject", "match": match.pk, "reason": " "}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400  # the panel again with the reason, swapped in by data-swap-refusals
    assert "Give a reason, in words." in response.content.decode()
    assert Match.objects.get(pk=match.pk).status == "disputed"


def test_the_commissioner_corrects_a_disputed_result_from_the_queue(client, league, commissioner, desk):
    match = desk.disputed()
    body = dict(match.result_body)
    body["teams"] = [dict(body["teams"][0], score=2), body["teams"][1]]
    body["players"] = [dict(body["players"][0], touchdowns=2)]
    client.force_login(commissioner)

    client.post(
        _url(league), {"action": "correct", "match": match.pk, "reason": "Two touchdowns.", "result": json.dumps(body)}
    )

    match.refresh_from_db()
    assert match.status == "final"
    assert [s.score for s in match.sides.order_by("order")] == [2, 0]


def test_a_correction_that_is_not_json_is_refused(client, league, commissioner, desk):
    match = desk.disputed()
    client.force_login(commissioner)
    response = client.post(
        _url(league), {"action": "correct", "match": match.pk, "reason": "x", "result": "{"}, follow=True
    )
    assert "The corrected result is not valid JSON." in response.content.decode()
    assert Match.objects.get(pk=match.pk).status == "disputed"


def test_the_commissioner_rejects_a_result_waiting_for_confirmation(client, league, commissioner, desk):
    match = desk.submitted(hours_ago=30)
    client.force_login(commissioner)
    client.post(_url(league), {"action": "reject", "match": match.pk, "reason": "Not played yet."})
    assert Match.objects.get(pk=match.pk).status == "scheduled"


def test_the_commissioner_forfeits_an_overdue_match_from_the_queue(client, league, commissioner, desk):
    match = desk.scheduled(deadline=timezone.now() - dt.timedelta(days=2))
    client.force_login(commissioner)
    html = client.get(_url(league), HTTP_HX_REQUEST="true").content.decode()
    assert "Record forfeit" in html and desk.away.name in html

    client.post(_url(league), {"action": "forfeit", "match": match.pk, "team": desk.away.pk, "reason": "No show."})

    match.refresh_from_db()
    assert match.status == "final" and match.result["forfeit"]["team"] == desk.away.pk


def test_a_match_of_another_league_is_not_touched(client, league, commissioner, desk):
    other = UserFactory(username="other-commish")
    from tests.factories import LeagueFactory

    elsewhere = LeagueFactory(created_by=other)
    match = desk.disputed()
    client.force_login(other)
    response = client.post(
        reverse("desk-queue", args=[elsewhere.pk]), {"action": "confirm", "match": match.pk}, follow=True
    )
    assert "No such match in this league." in response.content.decode()
    assert Match.objects.get(pk=match.pk).status == "disputed"


def test_the_commissioner_approves_a_transfer_from_the_queue(client, league, commissioner, coach, home, away):
    player = home.players.order_by("number").first()
    transfer = transfers.transfer_propose(user=coach, player_id=player.pk, to_team_id=away.pk)
    transfers.transfer_accept(user=away.coach, transfer_id=transfer.pk)
    client.force_login(commissioner)

    client.post(_url(league), {"action": "approve_transfer", "transfer": transfer.pk})

    assert Transfer.objects.get(pk=transfer.pk).status == "completed"
    player.refresh_from_db()
    assert player.team_id == away.pk


def test_the_commissioner_approves_and_refuses_requests_to_join(client, league, commissioner):
    yes = JoinRequest.objects.create(league=league, user=UserFactory(username="yes"))
    no = JoinRequest.objects.create(league=league, user=UserFactory(username="no"))
    client.force_login(commissioner)

    client.post(_url(league), {"action": "approve_join", "join_request": yes.pk})
    client.post(_url(league), {"action": "refuse_join", "join_request": no.pk, "reason": "League is full."})

    assert Membership.objects.filter(league=league, user=yes.user, role="coach").exists()
    assert not Membership.objects.filter(league=league, user=no.user).exists()
    assert JoinRequest.objects.get(pk=no.pk).state == "refused"
    actions = set(AuditEntry.objects.filter(league=league).values_list("action", flat=True))
    assert {"join_approved", "join_refused"} <= actions


@pytest.mark.parametrize("body", [{}, {"action": "nope"}, {"action": "confirm"}, {"action": "confirm", "match": "x"}])
def test_a_bad_queue_form_is_a_message_never_a_500(client, league, commissioner, body):
    client.force_login(commissioner)
    response = client.post(_url(league), body, follow=True)
    assert response.status_code == 200
    assert 'class="messages"' in response.content.decode() or "error" in response.content.decode()
