"""What the league's events tell whom (contract v1.2 "Notifications"): an invitation tells the invited user, a
request to join tells the league's commissioners. Called by the services of league/services.py and
league/joining.py inside their event's transaction, once the event has happened; each calls
`notifications.writer.notify` once, and the user who acted is never told."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse
from django.utils.translation import gettext_noop

from league.models import Invitation, JoinRequest, League, Membership
from league.selectors import league_commissioner_ids
from notifications.texts import line, who
from notifications.writer import notify

#: An invitation's line, by the role it offers.
INVITED = {
    Membership.Role.COACH: gettext_noop("%(actor)s invites you to coach in %(league)s: accept or decline it."),
    Membership.Role.COMMISSIONER: gettext_noop(
        "%(actor)s invites you to be a commissioner of %(league)s: accept or decline it."
    ),
}


def invitation(invitation: Invitation, *, league: League, actor: AbstractBaseUser) -> None:
    """The commissioner invited a user (an existing account): he is told, on his invitations page."""
    notify(
        "invitation",
        recipients=[invitation.user_id],
        actor=actor,
        text=line(INVITED[invitation.role], actor=who(actor), league=league.name),
        url=reverse("invitations"),
        league=league,
    )


def join_request(join: JoinRequest, *, league: League, actor: AbstractBaseUser) -> None:
    """A user asked to coach in the league: its commissioners are told, on their queue (one query: who they
    are)."""
    notify(
        "join_request",
        recipients=league_commissioner_ids(league_id=league.pk),
        actor=actor,
        text=line(
            gettext_noop("%(league)s: %(actor)s asks to coach in your league: approve or refuse the request."),
            actor=who(actor),
            league=league.name,
        ),
        url=reverse("desk-queue", args=[league.pk]),
        league=league,
    )
