"""`GET /api/v1/me/actions/` (contract v1.2 "What waits for whom"): everything that waits for the caller, oldest
first, each kind made by its real service — a coach's result to enter or confirm, pre- and post-match steps, a
time to agree, an invitation; a commissioner's dispute to rule on, transfer to approve, request to join and
request for more time. 401 for a visitor. `waiting_for` on `GET /api/v1/matches/{id}/`. The list, `/me/` and the
badge cost the same queries at 4 and 400 teams."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from league import joining
from league import services as league_services
from league.models import JoinRequest, Membership
from matches import disputes, services, times
from matches.models import Dispute, Extension, Match, MatchTeam, TimeProposal
from matches.prematch import prematch_post
from teams import transfers
from teams.models import Player, Transfer
from tests.bulk_league import bulk_league
from tests.dugout.api.test_api_query_counts import READ, TOKEN
from tests.factories import LeagueFactory, UserFactory, token_for
from tests.matches.conftest import full_team
from tests.web.test_query_counts import PAGE, SIGNED_IN

pytestmark = pytest.mark.django_db

URL = "/api/v1/me/actions/"


@pytest.fixture
def humes(league, coach):
    return full_team(league, coach, "Alice's Humes")


@pytest.fixture
def goblins(league, other_coach):
    return full_team(league, other_coach, "Bob's Goblins", roster="goblin", position="goblin")


@pytest.fixture
def match(league, humes, goblins):
    return services.match_schedule(user=humes.coach, league=league, team_ids=[humes.pk, goblins.pk])


def draw(home, away) -> dict:
    return {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}]}


def actions(api_as, user) -> list[dict]:
    response = api_as(user).get(URL)
    assert response.status_code == 200
    return response.json()


def kinds(api_as, user) -> list[tuple]:
    return [(a["kind"], a["match"], a["team"]) for a in actions(api_as, user)]


def test_a_visitor_is_answered_401(api):
    assert api.get(URL).status_code == 401


def test_nothing_waits_for_a_stranger(api_as, match, stranger):
    assert actions(api_as, stranger) == []


def test_a_scheduled_match_waits_for_each_coachs_result(api_as, match, humes, goblins):
    [item] = actions(api_as, humes.coach)
    assert item == {
        "kind": "enter_result",
        "league": match.league_id,
        "match": match.pk,
        "team": humes.pk,
        "text": "Enter the result of Alice's Humes v Bob's Goblins",
        "url": reverse("match-result", args=[match.pk]),
        "since": item["since"],
        "deadline": None,
    }
    assert kinds(api_as, goblins.coach) == [("enter_result", match.pk, goblins.pk)]


def test_the_deadline_is_the_matchs(api_as, match, humes):
    Match.objects.filter(pk=match.pk).update(deadline=dt.datetime(2031, 5, 1, 18, tzinfo=dt.UTC))
    assert actions(api_as, humes.coach)[0]["deadline"] == "2031-05-01T18:00:00Z"


def test_a_pre_match_step_and_then_a_shopping_turn(api_as, match, humes, goblins):
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    assert kinds(api_as, goblins.coach) == [("prematch_step", match.pk, goblins.pk)]
    fans = {"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}}
    prematch_post(user=humes.coach, match_id=match.pk, step="fans", rolls=fans)
    assert kinds(api_as, humes.coach) == [("prematch_step", match.pk, humes.pk)]
    assert kinds(api_as, goblins.coach) == []


def test_a_submitted_result_waits_for_the_other_coachs_confirmation(api_as, match, humes, goblins):
    services.match_submit_result(user=humes.coach, match_id=match.pk, body=draw(humes, goblins))
    assert kinds(api_as, goblins.coach) == [("confirm_result", match.pk, goblins.pk)]
    assert kinds(api_as, humes.coach) == []


def test_a_confirmed_result_waits_for_each_post_match_sequence(api_as, match, humes, goblins):
    services.match_submit_result(user=humes.coach, match_id=match.pk, body=draw(humes, goblins))
    services.match_confirm(user=goblins.coach, match_id=match.pk)
    [item] = actions(api_as, humes.coach)
    assert (item["kind"], item["team"], item["url"]) == (
        "postmatch_step",
        humes.pk,
        reverse("match-aftermath", args=[match.pk, humes.pk]),
    )


def test_a_proposed_time_waits_for_the_opponent(api_as, match, humes, goblins):
    times.match_time_propose(user=humes.coach, match_id=match.pk, at=timezone.now() + dt.timedelta(days=3))
    assert ("agree_time", match.pk, goblins.pk) in kinds(api_as, goblins.coach)
    assert all(kind != "agree_time" for kind, *_ in kinds(api_as, humes.coach))


def test_an_invitation_waits_for_the_invited(api_as, league, commissioner):
    newcomer = UserFactory(username="newcomer")
    league_services.invitation_create(user=commissioner, league=league, username="newcomer", role="coach")
    [item] = actions(api_as, newcomer)
    assert (item["kind"], item["league"], item["match"], item["url"]) == (
        "answer_invitation",
        league.pk,
        None,
        reverse("invitations"),
    )


def test_a_dispute_waits_for_the_commissioner_only(api_as, match, humes, goblins, commissioner):
    services.match_submit_result(user=humes.coach, match_id=match.pk, body=draw(humes, goblins))
    disputes.match_dispute(user=goblins.coach, match_id=match.pk, reason="Wrong score.")
    assert kinds(api_as, commissioner) == [("rule_dispute", match.pk, None)]
    assert kinds(api_as, humes.coach) == [] and kinds(api_as, goblins.coach) == []


def test_an_accepted_transfer_waits_for_the_commissioners_approval(api_as, league, humes, commissioner):
    buyer = full_team(league, UserFactory(username="carol"), "Carol's Humes", n=2)
    player = humes.players.first()
    offer = transfers.transfer_propose(user=humes.coach, player_id=player.pk, to_team_id=buyer.pk)
    assert kinds(api_as, commissioner) == []  # the buying coach agrees first
    transfers.transfer_accept(user=buyer.coach, transfer_id=offer.pk)
    [item] = actions(api_as, commissioner)
    assert (item["kind"], item["team"], item["url"]) == (
        "approve_transfer",
        buyer.pk,
        reverse("desk-queue", args=[league.pk]),
    )
    assert player.name in item["text"]


def test_a_request_to_join_waits_for_the_commissioner(api_as, commissioner):
    closed = LeagueFactory(created_by=commissioner, name="Closed")
    closed.open_registration = False
    closed.save(update_fields=["open_registration"])
    asker = UserFactory(username="asker")
    joining.join_request_create(user=asker, league=closed, message="Let me in")
    [item] = actions(api_as, commissioner)
    assert (item["kind"], item["league"]) == ("answer_join_request", closed.pk)
    assert "asker" in item["text"]


def test_a_request_for_more_time_waits_for_the_commissioner(api_as, match, humes, commissioner):
    Extension.objects.create(
        match=match, requested_by=humes.coach, until=timezone.now() + dt.timedelta(days=9), reason="Holidays."
    )
    assert kinds(api_as, commissioner) == [("decide_extension", match.pk, None)]


def test_the_list_is_oldest_first(api_as, league, match, humes, goblins, commissioner):
    later = services.match_schedule(user=commissioner, league=league, team_ids=[goblins.pk, humes.pk])
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - dt.timedelta(days=3))
    Match.objects.filter(pk=later.pk).update(created_at=timezone.now() - dt.timedelta(days=5))
    assert [a["match"] for a in actions(api_as, humes.coach)] == [later.pk, match.pk]


# -- the match's own answer ----------------------------------------------------------------------------------


def test_the_match_answers_who_it_waits_for_and_nothing_once_done(api, match, humes, goblins, other_coach):
    body = api.get(f"/api/v1/matches/{match.pk}/").json()
    assert body["waiting_for"] == [
        {"user": humes.coach.pk, "username": "alice", "action": "enter_result"},
        {"user": other_coach.pk, "username": "bob", "action": "enter_result"},
    ]
    services.match_submit_result(user=humes.coach, match_id=match.pk, body=draw(humes, goblins))
    body = api.get(f"/api/v1/matches/{match.pk}/").json()
    assert body["waiting_for"] == [{"user": other_coach.pk, "username": "bob", "action": "confirm_result"}]


# -- query budgets ---------------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _json_feature_known():
    assert connection.features.supports_json_field


@pytest.fixture(params=[4, 400], ids=["4-teams", "400-teams"])
def big(request):
    """A bulk league where its commissioner has every kind of his waiting, and its first coach every kind of his,
    in proportion to the league's size."""
    league = bulk_league(teams=request.param, fixtures=max(20, request.param // 2))
    coach, commish = league.bulk_coach, league.bulk_commissioner
    now = timezone.now()
    fixtures = list(league.matches.filter(status="scheduled").order_by("id"))
    for i, match in enumerate(fixtures):
        match.deadline = now + dt.timedelta(days=1 + i % 5)
        if i % 4 == 1:
            match.status, match.submitted_at = "submitted", now - dt.timedelta(days=2)
        elif i % 4 == 2:
            match.status, match.submitted_at = "disputed", now - dt.timedelta(days=2)
    Match.objects.bulk_update(fixtures, ["deadline", "status", "submitted_at"])
    Dispute.objects.bulk_create(
        [Dispute(match=m, raised_by=coach, reason="Wrong") for m in fixtures if m.status == "disputed"]
    )
    scheduled = [m for m in fixtures if m.status == "scheduled"]
    Extension.objects.bulk_create(
        [
            Extension(match=m, requested_by=coach, until=now + dt.timedelta(days=30), reason="Time")
            for m in scheduled[::3]
        ]
    )
    # The first coach plays in some of each status, with a proposal to answer.
    team = coach.teams.get()
    theirs = set(MatchTeam.objects.filter(team=team).values_list("match_id", flat=True))
    mine = [m for m in fixtures if m.pk not in theirs][:8]
    MatchTeam.objects.filter(match__in=mine, order=0).update(team=team)
    to_play = next(m for m in mine if m.status == "scheduled")
    rival = MatchTeam.objects.filter(match=to_play, order=1).get().team
    TimeProposal.objects.create(match=to_play, team=rival, proposed_by=rival.coach, at=now + dt.timedelta(hours=5))
    teams = list(league.teams.order_by("id"))
    players = {p.team_id: p for p in Player.objects.filter(team__league=league).order_by("-id")}
    Transfer.objects.bulk_create(
        [
            Transfer(player=players[a.pk], from_team=a, to_team=b, status="accepted", proposed_by=coach)
            for a, b in zip(teams[::10], teams[1::10], strict=False)
        ]
    )
    User = get_user_model()
    askers = User.objects.bulk_create([User(username=f"asker{i}") for i in range(max(1, len(teams) // 10))])
    JoinRequest.objects.bulk_create([JoinRequest(league=league, user=u) for u in askers])
    other = LeagueFactory(created_by=UserFactory(username="elsewhere"), name="Elsewhere")
    league_services.invitation_create(user=other.created_by, league=other, username=coach.username, role="coach")
    assert Membership.objects.filter(user=commish, role="commissioner").exists()
    return league


def test_each_side_of_the_big_league_sees_every_kind(api_as, big):
    coach_kinds = {a["kind"] for a in actions(api_as, big.bulk_coach)}
    assert {"enter_result", "confirm_result", "agree_time", "answer_invitation"} <= coach_kinds
    commish_kinds = {a["kind"] for a in actions(api_as, big.bulk_commissioner)}
    assert commish_kinds == {"rule_dispute", "approve_transfer", "answer_join_request", "decide_extension"}


@pytest.mark.parametrize("who", ["coach", "commissioner"])
def test_the_actions_api_stays_within_five_queries_plus_the_token(big, who, django_assert_max_num_queries):
    user = big.bulk_coach if who == "coach" else big.bulk_commissioner
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    with django_assert_max_num_queries(READ + TOKEN):
        response = client.get(URL)
    assert response.status_code == 200 and len(response.json()) >= 4


@pytest.mark.parametrize("who", ["coach", "commissioner"])
def test_me_page_stays_within_the_budget(client, big, who, django_assert_max_num_queries):
    client.force_login(big.bulk_coach if who == "coach" else big.bulk_commissioner)
    with django_assert_max_num_queries(PAGE + SIGNED_IN):
        page = client.get(reverse("me"))
    assert page.status_code == 200 and page.content.decode().count('data-kind="') >= 4
