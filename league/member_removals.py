"""A member the commissioner removed stays out until the commissioner takes him back.

Removing a member (teams/members.py) leaves a row here; every way in that does not carry the commissioner's
word about this very user — an invite link (made for whoever opens it), joining an open league — checks it and
refuses. The commissioner's explicit word clears it: an invitation to the user, or approving his request to
join. The model is in league/models/members.py."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from league.models import MemberRemoval


def removal_record(*, league_id: int, user_id: int, by: AbstractBaseUser) -> None:
    """Remember that the commissioner `by` removed `user_id` from the league (in the removal's transaction)."""
    MemberRemoval.objects.update_or_create(
        league_id=league_id,
        user_id=user_id,
        defaults={"removed_by": by if by.is_authenticated else None, "removed_at": timezone.now()},
    )


def removal_clear(*, league_id: int, user_id: int) -> None:
    """The commissioner takes the user back (he invited him, or approved his request): the removal no longer
    keeps him out."""
    MemberRemoval.objects.filter(league_id=league_id, user_id=user_id).delete()


def was_removed(*, league_id: int, user_id: int | None) -> bool:
    """Whether the commissioner removed the user from the league and has not taken him back since (one query)."""
    return user_id is not None and MemberRemoval.objects.filter(league_id=league_id, user_id=user_id).exists()
