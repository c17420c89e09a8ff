"""Invite links as stored rows (issue 13, "Membership": invite links the commissioner lists and revokes;
docs/decisions/ 2026-12-02 "Invite links are rows"): the signed token names its row, a revoked or expired link
answers a clear 400 and joins nobody, and making and revoking are in the audit with the reason given."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core import signing
from django.urls import reverse
from django.utils import timezone

from league import joining
from league.models import AuditEntry, InviteLink, Membership
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _make(api_as, commissioner, league, **body) -> dict:
    response = api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/invite-links/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _join(api_as, token):
    user = UserFactory()
    return user, api_as(user).post("/api/v1/invite-links/join/", {"token": token}, format="json")


def test_a_made_link_is_a_row_listed_with_its_uses_issue_13(api_as, league, commissioner):
    made = _make(api_as, commissioner, league, reason="Spring signings")
    for _ in range(2):
        assert _join(api_as, made["token"])[1].status_code == 201

    listed = api_as(commissioner).get(f"/api/v1/leagues/{league.pk}/invite-links/").json()

    assert listed["count"] == 1
    (row,) = listed["results"]
    assert (row["id"], row["uses"], row["state"], row["created_by"]) == (made["id"], 2, "active", "commish")
    assert row["url"] == made["url"] and row["token"] == made["token"]
    entry = AuditEntry.objects.get(league=league, action="invite_link")
    assert entry.reason == "Spring signings" and entry.target == f"invite link {made['id']}"


def test_a_revoked_link_answers_400_in_words_and_joins_nobody_issue_13(api_as, client, league, commissioner):
    made = _make(api_as, commissioner, league)
    response = api_as(commissioner).post(
        f"/api/v1/leagues/{league.pk}/invite-links/{made['id']}/revoke/", {"reason": "Posted in public"}, format="json"
    )
    assert response.status_code == 200 and response.json()["state"] == "revoked"
    assert response.json()["revoked_at"] is not None

    user, joined = _join(api_as, made["token"])

    assert joined.status_code == 400
    assert joined.json() == {"token": ["The commissioner revoked this invite link: ask for a new one."]}
    assert not Membership.objects.filter(user=user).exists()
    page = client.get(reverse("join-by-link", args=[made["token"]]))
    assert page.status_code == 400 and "revoked" in page.content.decode()
    entry = AuditEntry.objects.get(league=league, action="invite_link_revoked")
    assert entry.reason == "Posted in public" and entry.actor == commissioner
    assert InviteLink.objects.get(pk=made["id"]).uses == 0


def test_revoking_twice_changes_nothing_the_second_time(api_as, league, commissioner):
    made = _make(api_as, commissioner, league)
    url = f"/api/v1/leagues/{league.pk}/invite-links/{made['id']}/revoke/"
    first = api_as(commissioner).post(url).json()
    second = api_as(commissioner).post(url)
    assert second.status_code == 200 and second.json()["revoked_at"] == first["revoked_at"]
    assert AuditEntry.objects.filter(action="invite_link_revoked").count() == 1


def test_a_link_past_its_rows_expiry_answers_400_and_joins_nobody_issue_13(api_as, league, commissioner):
    made = _make(api_as, commissioner, league)
    InviteLink.objects.filter(pk=made["id"]).update(expires_at=timezone.now() - dt.timedelta(seconds=1))

    user, joined = _join(api_as, made["token"])

    assert joined.status_code == 400
    assert joined.json() == {"token": ["This invite link has expired: ask the commissioner for a new one."]}
    assert not Membership.objects.filter(user=user).exists()
    listed = api_as(commissioner).get(f"/api/v1/leagues/{league.pk}/invite-links/").json()
    assert listed["results"][0]["state"] == "expired"


def test_a_token_is_checked_against_its_row_a_deleted_or_swapped_row_opens_nothing(api_as, league, commissioner):
    made = _make(api_as, commissioner, league)
    InviteLink.objects.filter(pk=made["id"]).delete()
    assert _join(api_as, made["token"])[1].status_code == 400


def test_a_tampered_token_naming_another_row_is_refused(api_as, league, commissioner):
    """The token is signed: its payload rewritten to name another row keeps a signature that no longer fits."""
    made = _make(api_as, commissioner, league)
    other = _make(api_as, commissioner, league)
    _payload, stamp, signature = made["token"].rsplit(":", 2)
    payload = {"league": league.pk, "by": commissioner.pk, "link": other["id"]}
    rewritten = signing.b64_encode(json.dumps(payload, separators=(",", ":")).encode()).decode()
    forged = f"{rewritten}:{stamp}:{signature}"

    assert _join(api_as, forged)[1].json() == {"token": ["This is not a valid invite link."]}
    assert InviteLink.objects.get(pk=other["id"]).uses == 0


def test_a_token_signed_before_links_were_rows_opens_nothing(api_as, league, commissioner):
    """docs/decisions/ "Invite links are rows": a token without a row could never be listed or revoked."""
    from league.models.invite_links import LinkSigner

    token = LinkSigner().sign_object({"league": league.pk, "by": commissioner.pk})
    assert _join(api_as, token)[1].json() == {"token": ["This is not a valid invite link."]}


def test_only_the_commissioner_lists_or_revokes_403_and_another_leagues_link_is_404(
    api_as, league, commissioner, coach, make_coach
):
    make_coach(coach)
    made = _make(api_as, commissioner, league)
    assert api_as(coach).get(f"/api/v1/leagues/{league.pk}/invite-links/").status_code == 403
    assert api_as(coach).post(f"/api/v1/leagues/{league.pk}/invite-links/{made['id']}/revoke/").status_code == 403
    assert (
        api_as(commissioner).post(f"/api/v1/leagues/{league.pk + 99}/invite-links/{made['id']}/revoke/").status_code
        == 404
    )
    assert InviteLink.objects.get(pk=made["id"]).revoked_at is None


@pytest.mark.parametrize("reason", [5, True, ["x"], "x" * 501])
def test_a_bad_reason_is_a_400_and_makes_or_revokes_nothing(api_as, league, commissioner, reason):
    path = f"/api/v1/leagues/{league.pk}/invite-links/"
    assert api_as(commissioner).post(path, {"reason": reason}, format="json").status_code == 400
    assert not InviteLink.objects.exists()
    made = _make(api_as, commissioner, league)
    response = api_as(commissioner).post(f"{path}{made['id']}/revoke/", {"reason": reason}, format="json")
    assert response.status_code == 400 and "reason" in response.json()
    assert InviteLink.objects.get(pk=made["id"]).revoked_at is None
    assert not AuditEntry.objects.filter(action="invite_link_revoked").exists()


def test_the_dashboard_lists_the_links_and_revokes_one_with_a_reason(client, league, commissioner):
    link = joining.invite_link_create(user=commissioner, league=league)
    client.force_login(commissioner)
    dashboard = client.get(reverse("commissioner-dashboard", args=[league.pk])).content.decode()
    assert reverse("desk-invite-links", args=[league.pk]) in dashboard
    html = client.get(reverse("desk-invite-links", args=[league.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert 'id="invite-links"' in html and f'data-link="{link.pk}"' in html
    assert "<html" not in html  # the panel alone, for htmx
    assert reverse("desk-invite-link-revoke", args=[league.pk, link.pk]) in html

    response = client.post(
        reverse("desk-invite-link-revoke", args=[league.pk, link.pk]), {"reason": "Too many"}, follow=True
    )

    assert "Invite link revoked" in response.content.decode()
    link.refresh_from_db()
    assert link.revoked_at is not None
    assert AuditEntry.objects.get(action="invite_link_revoked").reason == "Too many"


def test_the_invite_links_page_is_the_commissioners_only(client, league, commissioner, coach, make_coach):
    make_coach(coach)
    joining.invite_link_create(user=commissioner, league=league)
    client.force_login(coach)
    assert client.get(reverse("desk-invite-links", args=[league.pk])).status_code == 403
    client.force_login(commissioner)
    page = client.get(reverse("desk-invite-links", args=[league.pk]))
    assert page.status_code == 200 and 'id="invite-links"' in page.content.decode()


@pytest.mark.parametrize("body", [[{}], ["x"], "reason"])
def test_a_body_that_is_not_an_object_is_a_400_and_makes_or_revokes_nothing(api_as, league, commissioner, body):
    """Standard 3: bad input gets a clear 4xx and changes nothing (schemathesis sent `[{}]` to revoke)."""
    path = f"/api/v1/leagues/{league.pk}/invite-links/"
    assert api_as(commissioner).post(path, body, format="json").status_code == 400
    assert not InviteLink.objects.exists()
    made = _make(api_as, commissioner, league)
    assert api_as(commissioner).post(f"{path}{made['id']}/revoke/", body, format="json").status_code == 400
    assert InviteLink.objects.get(pk=made["id"]).revoked_at is None
    assert api_as(commissioner).post(f"{path}{made['id']}/revoke/").status_code == 200  # no body: no reason
