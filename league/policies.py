"""Who may invite and who may answer an invitation: one place, read by the services (which enforce it) and
by the API and pages (which show or hide what a user cannot do)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from .models import Invitation, League
from .selectors import user_is_commissioner


def may_invite(*, user: AbstractBaseUser, league: League) -> bool:
    """A league's commissioners invite coaches and fellow commissioners."""
    return user_is_commissioner(user=user, league=league)


def may_answer_invitation(*, user: AbstractBaseUser, invitation: Invitation) -> bool:
    """Only the invited user accepts or declines (his consent), and only while it is pending."""
    return user.is_authenticated and invitation.user_id == user.pk and invitation.state == Invitation.State.PENDING
