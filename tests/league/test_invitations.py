"""Membership by consent: a commissioner's `POST /leagues/{id}/members/` is an invitation, and the user becomes
a coach or commissioner only when he accepts it (API `/api/v1/invitations/`, page `/invitations/`). Nobody
else answers for him; an existing member is not invited again."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from campaigns.errors import NotPermitted
from league import services
from league.models import Invitation, Membership
from tests.assertions import assert_refused

pytestmark = pytest.mark.django_db

INVITATIONS = "/api/v1/invitations/"


def members(league) -> str:
    return f"/api/v1/leagues/{league.pk}/members/"


@pytest.fixture
def invite(api_as, commissioner, league):
    def make(username: str, role: str = "coach"):
        response = api_as(commissioner).post(members(league), {"username": username, "role": role}, format="json")
        assert response.status_code == 201, response.content
        return response.json()

    return make


def state(league) -> tuple:
    return (
        sorted(Membership.objects.filter(league=league).values_list("user__username", "role")),
        sorted(Invitation.objects.filter(league=league).values_list("user__username", "role", "state")),
    )


def test_the_invited_user_sees_his_invitation_and_nobody_else_does(api_as, invite, other_coach, stranger, league):
    invitation = invite("bob")

    mine = api_as(other_coach).get(INVITATIONS)
    assert mine.status_code == 200
    assert [(i["id"], i["league"], i["league_name"], i["role"], i["status"], i["invited_by"]) for i in mine.json()] == [
        (invitation["id"], league.pk, league.name, "coach", "invited", "commish")
    ]
    assert api_as(stranger).get(INVITATIONS).json() == []


def test_accepting_makes_the_membership_in_the_invited_role(api_as, invite, stranger, league):
    invitation = invite("stranger", role="commissioner")
    client = api_as(stranger)
    assert_refused(client.patch(f"/api/v1/leagues/{league.pk}/", {"name": "Mine"}, format="json"), 403)

    accepted = client.post(f"{INVITATIONS}{invitation['id']}/accept/")

    assert accepted.status_code == 201, accepted.content
    assert (accepted.json()["username"], accepted.json()["role"]) == ("stranger", "commissioner")
    assert client.patch(f"/api/v1/leagues/{league.pk}/", {"name": "Ours"}, format="json").status_code == 200
    assert client.get(INVITATIONS).json() == []


def test_an_answered_invitation_cannot_be_answered_again_409(api_as, invite, other_coach, league):
    invitation = invite("bob")
    client = api_as(other_coach)
    assert client.post(f"{INVITATIONS}{invitation['id']}/accept/").status_code == 201
    before = state(league)

    for answer in ("accept", "decline"):
        response = client.post(f"{INVITATIONS}{invitation['id']}/{answer}/")
        assert_refused(response, 409)
        assert "already accepted" in response.json()["detail"]
    assert state(league) == before


def test_declining_makes_no_membership_and_the_user_may_be_invited_again(api_as, invite, other_coach, league):
    invitation = invite("bob")

    declined = api_as(other_coach).post(f"{INVITATIONS}{invitation['id']}/decline/")

    assert declined.status_code == 200, declined.content
    assert declined.json()["status"] == "declined"
    assert not Membership.objects.filter(league=league, user=other_coach).exists()
    again = invite("bob")
    assert again["id"] != invitation["id"] and again["status"] == "invited"


def test_only_the_invited_user_answers_others_get_404_and_the_anonymous_401(
    api, api_as, invite, commissioner, coach, other_coach, stranger, league
):
    invitation = invite("bob")
    before = state(league)

    for user in (commissioner, coach, stranger):
        for answer in ("accept", "decline"):
            assert_refused(api_as(user).post(f"{INVITATIONS}{invitation['id']}/{answer}/"), 404)
    assert_refused(api.post(f"{INVITATIONS}{invitation['id']}/accept/"), 401)
    assert_refused(api.get(INVITATIONS), 401)
    assert state(league) == before


def test_a_non_integer_invitation_id_is_404(api_as, other_coach):
    assert api_as(other_coach).post(f"{INVITATIONS}abc/accept/").status_code == 404


def test_inviting_an_existing_member_in_that_role_is_409_in_words(api_as, commissioner, coach, league, make_coach):
    make_coach(coach)
    before = state(league)

    response = api_as(commissioner).post(members(league), {"username": "alice", "role": "coach"}, format="json")

    assert_refused(response, 409)
    assert response.json()["detail"] == "alice is already a coach of this league."
    assert state(league) == before


def test_a_member_may_be_invited_to_his_other_role(api_as, invite, commissioner, league):
    """The creator commissions; he may also be invited to coach (a commissioner who plays)."""
    invitation = invite("commish", role="coach")
    assert api_as(commissioner).post(f"{INVITATIONS}{invitation['id']}/accept/").status_code == 201
    assert sorted(Membership.objects.filter(league=league, user=commissioner).values_list("role", flat=True)) == [
        "coach",
        "commissioner",
    ]


def test_a_second_invitation_to_another_role_while_one_is_pending_is_409(
    api_as, invite, commissioner, other_coach, league
):
    invite("bob", role="coach")
    before = state(league)

    response = api_as(commissioner).post(members(league), {"username": "bob", "role": "commissioner"}, format="json")

    assert_refused(response, 409)
    assert "already invited as coach" in response.json()["detail"]
    assert state(league) == before


def test_a_coach_cannot_invite_403_by_the_policy_in_the_service_too(api_as, coach, stranger, league, make_coach):
    make_coach(coach)
    before = state(league)

    assert_refused(api_as(coach).post(members(league), {"username": "stranger", "role": "coach"}, format="json"), 403)
    with pytest.raises(NotPermitted):
        services.invitation_create(user=coach, league=league, username="stranger", role="coach")
    assert state(league) == before


def test_the_database_keeps_one_pending_invitation_per_league_and_user(commissioner, other_coach, league):
    Invitation.objects.create(league=league, user=other_coach, role="coach", invited_by=commissioner)
    Invitation.objects.create(league=league, user=other_coach, role="coach", invited_by=commissioner, state="declined")
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(league=league, user=other_coach, role="commissioner", invited_by=commissioner)


# --- the page ------------------------------------------------------------------------------------


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_lists_the_users_invitations_with_accept_and_decline(invite, other_coach, stranger, league):
    invitation = invite("bob")

    page = signed_in(other_coach).get("/invitations/").content.decode()

    assert league.name in page
    assert f'action="/invitations/{invitation["id"]}/accept/"' in page
    assert f'action="/invitations/{invitation["id"]}/decline/"' in page
    assert 'href="/invitations/"' in page  # the header's link
    other = signed_in(stranger).get("/invitations/").content.decode()
    assert league.name not in other and 'id="no-invitations"' in other


def test_accepting_on_the_page_makes_the_membership_and_opens_the_league(invite, other_coach, league):
    invitation = invite("bob")

    response = signed_in(other_coach).post(f"/invitations/{invitation['id']}/accept/")

    assert response.status_code == 302 and response["Location"] == f"/leagues/{league.pk}/"
    assert Membership.objects.filter(league=league, user=other_coach, role="coach").exists()


def test_declining_on_the_page_and_another_users_answer_is_404(invite, other_coach, stranger, league):
    invitation = invite("bob")
    assert signed_in(stranger).post(f"/invitations/{invitation['id']}/accept/").status_code == 404
    assert signed_in(other_coach).post(f"/invitations/{invitation['id']}/decline/").status_code == 302
    assert Invitation.objects.get(pk=invitation["id"]).state == "declined"
    assert not Membership.objects.filter(league=league, user=other_coach).exists()


def test_the_page_needs_a_signed_in_user(client):
    assert client.get("/invitations/").status_code == 302


def test_an_invitation_id_beyond_any_integer_is_404_not_500(api_as, other_coach):
    assert api_as(other_coach).post(f"{INVITATIONS}{'9' * 30}/accept/").status_code == 404
