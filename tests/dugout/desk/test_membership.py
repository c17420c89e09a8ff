"""Membership (issue 13): invite links (a signed, expiring URL a new coach opens to join, no username typed),
requests to join an invite-only league, removing a member (his teams stay, without coach until reassigned) —
each in the audit — and a team without coach breaks no page."""

from __future__ import annotations

import datetime as dt
import time
from unittest import mock

import pytest
from django.test import override_settings
from django.urls import reverse

from league import joining
from league.models import AuditEntry, JoinRequest, Membership
from matches import services as match_services
from teams import transfers
from teams.models import Team, Transfer
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _link(api_as, commissioner, league) -> dict:
    response = api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/invite-links/")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_new_coach_opens_an_invite_link_and_joins(api_as, client, league, commissioner):
    link = _link(api_as, commissioner, league)
    assert link["url"].endswith(reverse("join-by-link", args=[link["token"]]))
    rookie = UserFactory(username="rookie")
    client.force_login(rookie)

    page = client.get(reverse("join-by-link", args=[link["token"]]))
    assert page.status_code == 200 and league.name in page.content.decode()
    response = client.post(reverse("join-by-link", args=[link["token"]]))

    assert response.status_code == 302 and response["Location"] == reverse("league-detail", args=[league.pk])
    assert Membership.objects.filter(league=league, user=rookie, role="coach").exists()
    actions = list(AuditEntry.objects.filter(league=league).values_list("action", flat=True))
    assert "invite_link" in actions and "member_joined" in actions


def test_an_invite_link_joins_an_invite_only_league_through_the_api_once(api_as, league, commissioner):
    league.open_registration = False
    league.save()
    token = _link(api_as, commissioner, league)["token"]
    rookie = UserFactory(username="rookie")
    for _ in range(2):
        response = api_as(rookie).post("/api/v1/invite-links/join/", {"token": token}, format="json")
        assert response.status_code == 201
    assert Membership.objects.filter(league=league, user=rookie).count() == 1
    assert AuditEntry.objects.filter(league=league, action="member_joined").count() == 1


def test_an_expired_link_is_refused_in_words(api_as, league, commissioner):
    eight_days_ago = time.time() - dt.timedelta(days=8).total_seconds()
    with mock.patch("django.core.signing.time.time", return_value=eight_days_ago):
        link = joining.invite_link_create(user=commissioner, league=league)
    response = api_as(UserFactory()).post("/api/v1/invite-links/join/", {"token": link.token}, format="json")
    assert response.status_code == 400
    assert response.json() == {"token": ["This invite link has expired: ask the commissioner for a new one."]}


@override_settings(INVITE_LINK_TTL=dt.timedelta(days=30))
def test_the_links_lifetime_is_a_setting(league, commissioner):
    eight_days_ago = time.time() - dt.timedelta(days=8).total_seconds()
    with mock.patch("django.core.signing.time.time", return_value=eight_days_ago):
        link = joining.invite_link_create(user=commissioner, league=league)
    assert joining.invite_link_read(token=link.token).league_id == league.pk


@pytest.mark.parametrize("token", ["", "nonsense", "a:b:c", "eyJsZWFndWUiOjF9:1tX:forged"])
def test_a_forged_or_mangled_link_is_a_400_and_changes_nothing(api_as, client, token, league):
    user = UserFactory()
    response = api_as(user).post("/api/v1/invite-links/join/", {"token": token}, format="json")
    assert response.status_code == 400 and "token" in response.json()
    if token:
        assert client.get(reverse("join-by-link", args=[token])).status_code == 400
    assert not Membership.objects.filter(user=user).exists()


def test_a_link_stops_working_when_its_commissioner_no_longer_runs_the_league(api_as, league, commissioner):
    token = _link(api_as, commissioner, league)["token"]
    Membership.objects.filter(league=league, user=commissioner).delete()
    response = api_as(UserFactory()).post("/api/v1/invite-links/join/", {"token": token}, format="json")
    assert response.status_code == 400


def test_only_a_commissioner_makes_an_invite_link(api_as, league, coach, make_coach):
    make_coach(coach)
    assert api_as(coach).post(f"/api/v1/leagues/{league.pk}/invite-links/").status_code == 403


def test_the_dashboard_makes_an_invite_link_and_shows_it(client, league, commissioner):
    client.force_login(commissioner)
    response = client.post(reverse("desk-invite-link", args=[league.pk]), follow=True)
    html = response.content.decode()
    assert 'id="invite-link"' in html and "/join/" in html


def test_a_signed_out_visitor_is_sent_to_sign_in_first(client, league, commissioner):
    link = joining.invite_link_create(user=commissioner, league=league)
    url = reverse("join-by-link", args=[link.token])
    assert "Sign in" in client.get(url).content.decode()
    response = client.post(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# Requests to join


def test_a_user_asks_to_join_an_invite_only_league_and_the_commissioner_approves(api_as, league, commissioner):
    league.open_registration = False
    league.save()
    rookie = UserFactory(username="rookie")
    response = api_as(rookie).post(f"/api/v1/leagues/{league.pk}/join-requests/", {"message": "I play Humes"})
    assert response.status_code == 201 and response.json()["state"] == "pending"
    again = api_as(rookie).post(f"/api/v1/leagues/{league.pk}/join-requests/", {})
    assert again.json()["id"] == response.json()["id"]

    listed = api_as(commissioner).get(f"/api/v1/leagues/{league.pk}/join-requests/").json()
    assert [r["username"] for r in listed] == ["rookie"]
    approved = api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/join-requests/{response.json()['id']}/approve/")

    assert approved.status_code == 200 and approved.json()["role"] == "coach"
    assert Membership.objects.filter(league=league, user=rookie, role="coach").exists()
    twice = api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/join-requests/{response.json()['id']}/approve/")
    assert twice.status_code == 409


def test_a_refused_request_leaves_no_membership_and_is_audited_with_its_reason(api_as, league, commissioner):
    join = JoinRequest.objects.create(league=league, user=UserFactory())
    response = api_as(commissioner).post(
        f"/api/v1/leagues/{league.pk}/join-requests/{join.pk}/refuse/", {"reason": "Full"}
    )
    assert response.status_code == 200 and response.json()["state"] == "refused"
    assert AuditEntry.objects.get(league=league, action="join_refused").reason == "Full"


def test_an_open_league_needs_no_request(api_as, league):
    response = api_as(UserFactory()).post(f"/api/v1/leagues/{league.pk}/join-requests/", {})
    assert response.status_code == 400


def test_a_coach_cannot_decide_on_requests(api_as, league, coach, make_coach):
    make_coach(coach)
    join = JoinRequest.objects.create(league=league, user=UserFactory())
    assert api_as(coach).post(f"/api/v1/leagues/{league.pk}/join-requests/{join.pk}/approve/").status_code == 403
    assert api_as(coach).get(f"/api/v1/leagues/{league.pk}/join-requests/").status_code == 403


def test_the_league_page_offers_to_ask_on_an_invite_only_league(client, league):
    league.open_registration = False
    league.save()
    rookie = UserFactory(username="rookie")
    client.force_login(rookie)
    assert 'id="ask-to-join"' in client.get(reverse("league-detail", args=[league.pk])).content.decode()
    client.post(reverse("league-ask-to-join", args=[league.pk]), {"message": "Please"})
    assert JoinRequest.objects.get(league=league, user=rookie).message == "Please"


# Removing a member and reassigning his teams


def test_removing_a_member_leaves_his_teams_without_coach_and_refuses_his_open_transfers(
    api_as, league, commissioner, coach, home, away
):
    team = home
    transfer = transfers.transfer_propose(
        user=coach, player_id=home.players.order_by("number").first().pk, to_team_id=away.pk
    )
    response = api_as(commissioner).post(
        f"/api/v1/leagues/{league.pk}/members/{coach.pk}/remove/", {"reason": "Left the club"}
    )
    assert response.status_code == 200 and response.json() == {"teams_without_coach": [team.pk]}
    team.refresh_from_db()
    assert team.coach is None and team.players.exists()
    assert not Membership.objects.filter(league=league, user=coach).exists()
    assert Transfer.objects.get(pk=transfer.pk).status == "refused"
    entry = AuditEntry.objects.get(league=league, action="member_removed")
    assert entry.reason == "Left the club" and entry.before["teams"] == [{"id": team.pk, "name": team.name}]


def test_a_commissioner_cannot_remove_himself_nor_a_non_member(api_as, league, commissioner, stranger):
    assert (
        api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/members/{commissioner.pk}/remove/").status_code == 400
    )
    assert api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/members/{stranger.pk}/remove/").status_code == 400


def test_the_commissioner_reassigns_a_team_without_coach(api_as, league, commissioner, coach, other_coach, team):
    api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/members/{coach.pk}/remove/")
    Membership.objects.get_or_create(league=league, user=other_coach, role="coach")

    response = api_as(commissioner).post(f"/api/v1/teams/{team.pk}/reassign/", {"coach": other_coach.pk})

    assert response.status_code == 200 and response.json()["coach_username"] == "bob"
    assert Team.objects.get(pk=team.pk).coach == other_coach
    entry = AuditEntry.objects.get(league=league, action="team_reassigned")
    assert entry.before == {"coach": None} and entry.after == {"coach": "bob"}


def test_a_team_goes_only_to_a_coach_member_of_its_league(api_as, league, commissioner, team, stranger):
    response = api_as(commissioner).post(f"/api/v1/teams/{team.pk}/reassign/", {"coach": stranger.pk})
    assert response.status_code == 400 and "coach" in response.json()


def test_the_dashboard_removes_a_member_and_the_queue_reassigns_his_team(client, league, commissioner, coach, team):
    other = UserFactory(username="newcoach")
    Membership.objects.create(league=league, user=other, role="coach")
    client.force_login(commissioner)
    client.post(reverse("desk-member-remove", args=[league.pk, coach.pk]))
    assert Team.objects.get(pk=team.pk).coach is None
    html = client.get(reverse("desk-queue", args=[league.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert 'id="coachless"' in html and f'name="team" value="{team.pk}"' in html

    client.post(reverse("desk-queue", args=[league.pk]), {"action": "reassign", "team": team.pk, "coach": "newcoach"})

    assert Team.objects.get(pk=team.pk).coach == other


def test_a_team_without_coach_breaks_no_page_and_no_api(client, api, api_as, league, commissioner, home, away):
    """Every page and read that shows a coach: the team sheet, the league's pages, a match report, the schedule
    form, the team API — and a transfer to a team without coach is refused in words."""
    match = match_services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    Team.objects.filter(pk=home.pk).update(coach=None)
    client.force_login(commissioner)
    for url in [
        reverse("team-detail", args=[home.pk]),
        reverse("league-detail", args=[league.pk]),
        reverse("league-teams", args=[league.pk]),
        reverse("league-table", args=[league.pk]),
        reverse("league-fixtures", args=[league.pk]),
        reverse("match-detail", args=[match.pk]),
        reverse("commissioner-dashboard", args=[league.pk]),
        reverse("desk-queue", args=[league.pk]),
        reverse("home"),
        reverse("me"),
    ]:
        assert client.get(url).status_code == 200, url
    assert "no coach" in client.get(reverse("team-detail", args=[home.pk])).content.decode()
    assert api.get(f"/api/v1/teams/{home.pk}/").json()["coach_username"] is None
    assert api.get(f"/api/v1/teams/?league={league.pk}").status_code == 200
    player = away.players.order_by("number").first()
    response = api_as(away.coach).post("/api/v1/transfers/", {"player": player.pk, "to_team": home.pk}, format="json")
    assert response.status_code == 400
