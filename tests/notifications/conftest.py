"""The notifications' tests: two full Blitz Bowl teams (alice's Home, bob's Away), a second commissioner, and
reads of what was told to whom."""

from __future__ import annotations

import pytest

from league.models import Membership
from notifications.models import Delivery, Notification
from tests.factories import UserFactory
from tests.matches.conftest import full_team


@pytest.fixture
def home(league, coach):
    return full_team(league, coach, "Home")


@pytest.fixture
def away(league, other_coach):
    return full_team(league, other_coach, "Away")


@pytest.fixture
def deputy(league):
    """A second commissioner of the league."""
    user = UserFactory(username="deputy")
    Membership.objects.create(league=league, user=user, role=Membership.Role.COMMISSIONER)
    return user


def told(kind: str | None = None) -> list[str]:
    """The usernames told (of `kind`, or of anything), one entry per notification, sorted."""
    notes = Notification.objects.all() if kind is None else Notification.objects.filter(kind=kind)
    return sorted(notes.values_list("user__username", flat=True))


def the(kind: str, username: str) -> Notification:
    """The one notification of `kind` to `username`."""
    return Notification.objects.select_related("league", "match", "team").get(kind=kind, user__username=username)


def emailed(kind: str) -> list[str]:
    """The usernames whose notification of `kind` has an e-mail in the outbox."""
    rows = Delivery.objects.filter(notification__kind=kind, channel=Delivery.Channel.EMAIL)
    return sorted(rows.values_list("notification__user__username", flat=True))
