"""Membership is by invitation (the user consents): helpers for tests that need members made at once."""

from __future__ import annotations


def invite_and_accept(flow, *, commissioner: str, league: int, who: str, username: str | None = None, role="coach"):
    """Through the API: `commissioner` invites `username` (default: `who`), and `who` (that user's client in
    `flow`, any of the suite's helpers with `post(who, url, body)`) accepts. Returns the membership."""
    invitation = flow.post(
        commissioner, f"/api/v1/leagues/{league}/members/", {"username": username or who, "role": role}
    )
    assert invitation["status"] == "invited", invitation
    return flow.post(who, f"/api/v1/invitations/{invitation['id']}/accept/")


def accept(client, invitation_response):
    """`client` (the invited user's) accepts the invitation a members POST answered; returns the answer."""
    assert invitation_response.status_code == 201, invitation_response.content
    return client.post(f"/api/v1/invitations/{invitation_response.json()['id']}/accept/")
