"""A member the commissioner removed stays out until the commissioner takes him back: an invite link made before
(or after) his removal, or an open league's Join, does not re-admit him — neither through the API nor the pages —
and changes nothing; an invitation to him, or approving his request to join, does."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import AuditEntry, InviteLink, JoinRequest, League, MemberRemoval, Membership
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

REFUSAL = "The commissioner removed you from this league: only he can take you back (ask him to invite you)."


def _link(api_as, commissioner, league) -> dict:
    response = api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/invite-links/")
    assert response.status_code == 201, response.json()
    return response.json()


def _remove(api_as, commissioner, league, member) -> None:
    response = api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/members/{member.pk}/remove/")
    assert response.status_code == 200, response.json()


def _unchanged(league, member, link_id) -> None:
    assert not Membership.objects.filter(league=league, user=member).exists()
    assert InviteLink.objects.get(pk=link_id).uses == 0
    assert not AuditEntry.objects.filter(league=league, action="member_joined").exists()


def test_a_removed_member_does_not_come_back_through_an_old_invite_link_api(api_as, league, commissioner, coach):
    link = _link(api_as, commissioner, league)
    Membership.objects.create(league=league, user=coach, role="coach")
    _remove(api_as, commissioner, league, coach)

    response = api_as(coach).post("/api/v1/invite-links/join/", {"token": link["token"]}, format="json")

    assert response.status_code == 403 and response.json() == {"detail": REFUSAL}
    _unchanged(league, coach, link["id"])


def test_a_removed_member_does_not_come_back_through_an_invite_link_page(client, api_as, league, commissioner, coach):
    """The link's page tells him at once (no Join button), and a POST to it is refused in words."""
    Membership.objects.create(league=league, user=coach, role="coach")
    _remove(api_as, commissioner, league, coach)
    link = _link(api_as, commissioner, league)  # made after the removal: still for whoever opens it, not for him
    client.force_login(coach)

    page = client.get(reverse("join-by-link", args=[link["token"]]))
    posted = client.post(reverse("join-by-link", args=[link["token"]]))

    assert page.status_code == 403 and 'id="join-by-link"' not in page.content.decode()
    assert posted.status_code == 403
    for answer in (page, posted):
        assert "only he can take you back" in answer.content.decode()
    _unchanged(league, coach, link["id"])
    # Anyone else still joins through the same link.
    rookie = UserFactory(username="rookie")
    assert api_as(rookie).post("/api/v1/invite-links/join/", {"token": link["token"]}).status_code == 201


def test_a_removed_member_does_not_rejoin_an_open_league_by_himself(api_as, client, league, commissioner, coach):
    assert League.objects.get(pk=league.pk).open_registration
    Membership.objects.create(league=league, user=coach, role="coach")
    _remove(api_as, commissioner, league, coach)

    response = api_as(coach).post(f"/api/v1/leagues/{league.pk}/join/")
    client.force_login(coach)
    client.post(reverse("league-join", args=[league.pk]))

    assert response.status_code == 403 and response.json() == {"detail": REFUSAL}
    assert not Membership.objects.filter(league=league, user=coach).exists()
    # He may ask instead, and the commissioner's approval takes him back.
    asked = api_as(coach).post(f"/api/v1/leagues/{league.pk}/join-requests/", {"message": "Sorry"}, format="json")
    assert asked.status_code == 201, asked.json()
    approved = api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/join-requests/{asked.json()['id']}/approve/")
    assert approved.status_code == 200
    assert Membership.objects.filter(league=league, user=coach, role="coach").exists()
    assert not MemberRemoval.objects.filter(league=league, user=coach).exists()


def test_the_commissioners_invitation_takes_a_removed_member_back(api_as, league, commissioner, coach):
    link = _link(api_as, commissioner, league)
    Membership.objects.create(league=league, user=coach, role="coach")
    _remove(api_as, commissioner, league, coach)
    removal = MemberRemoval.objects.get(league=league, user=coach)
    assert removal.removed_by == commissioner

    invited = api_as(commissioner).post(
        f"/api/v1/leagues/{league.pk}/members/", {"username": coach.username, "role": "coach"}, format="json"
    )
    assert invited.status_code == 201, invited.json()

    assert not MemberRemoval.objects.filter(league=league, user=coach).exists()
    accepted = api_as(coach).post(f"/api/v1/invitations/{invited.json()['id']}/accept/")
    assert accepted.status_code == 201
    # Taken back, the link is his like anyone's (already a coach: a no-op).
    assert api_as(coach).post("/api/v1/invite-links/join/", {"token": link["token"]}).status_code == 201


def test_an_invitation_made_before_the_removal_is_not_the_commissioners_word_after_it(
    api_as, league, commissioner, coach
):
    """Invited to be a commissioner, then removed as a coach: the old invitation does not bring him back; the
    commissioner inviting him again does."""
    Membership.objects.create(league=league, user=coach, role="coach")
    body = {"username": coach.username, "role": "commissioner"}
    invitation = api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/members/", body, format="json").json()
    _remove(api_as, commissioner, league, coach)

    refused = api_as(coach).post(f"/api/v1/invitations/{invitation['id']}/accept/")

    assert refused.status_code == 409 and "removed" in refused.json()["detail"]
    assert not Membership.objects.filter(league=league, user=coach).exists()
    again = api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/members/", body, format="json")
    assert again.status_code == 201 and again.json()["id"] == invitation["id"]
    assert api_as(coach).post(f"/api/v1/invitations/{invitation['id']}/accept/").status_code == 201
    assert Membership.objects.filter(league=league, user=coach, role="commissioner").exists()


def test_a_removed_members_pending_request_approved_afterwards_takes_him_back(api_as, league, commissioner, coach):
    League.objects.filter(pk=league.pk).update(open_registration=False)
    Membership.objects.create(league=league, user=coach, role="coach")
    _remove(api_as, commissioner, league, coach)
    asked = api_as(coach).post(f"/api/v1/leagues/{league.pk}/join-requests/", {}, format="json")
    assert asked.status_code == 201, asked.json()

    api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/join-requests/{asked.json()['id']}/approve/")

    assert JoinRequest.objects.get(pk=asked.json()["id"]).state == "approved"
    assert Membership.objects.filter(league=league, user=coach, role="coach").exists()
    assert not MemberRemoval.objects.filter(league=league, user=coach).exists()


def test_members_removed_before_removals_were_kept_stay_out(league, commissioner, coach, other_coach, stranger):
    """The migration reads past removals from the audit: removed and not taken back stays out; invited since, or
    a member again, does not."""
    from django.apps import apps
    from django.utils.module_loading import import_string

    remember = import_string("league.migrations.0017_member_removal_record.remember_past_removals")
    for user in (coach, other_coach, stranger):
        AuditEntry.objects.create(
            league=league, actor=commissioner, action="member_removed", target=f"user {user.pk} ({user.username})"
        )
    AuditEntry.objects.create(
        league=league, actor=commissioner, action="invitation", target=f"user {other_coach.pk} (bob)"
    )
    Membership.objects.create(league=league, user=stranger, role="coach")

    remember(apps, None)

    removed = MemberRemoval.objects.filter(league=league)
    assert list(removed.values_list("user_id", "removed_by_id")) == [(coach.pk, commissioner.pk)]
