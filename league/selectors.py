"""Reads of leagues and who may do what in them."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, QuerySet

from .models import League, Membership


def league_queryset() -> QuerySet[League]:
    return (
        League.objects.select_related("created_by")
        .annotate(team_count=Count("teams", distinct=True))
        .prefetch_related("memberships__user", "stadiums")
        .order_by("name", "id")
    )


def user_is_commissioner(*, user: AbstractBaseUser, league: League) -> bool:
    if not user.is_authenticated:
        return False
    return Membership.objects.filter(league=league, user=user, role=Membership.Role.COMMISSIONER).exists()


def user_is_coach(*, user: AbstractBaseUser, league: League) -> bool:
    if not user.is_authenticated:
        return False
    return Membership.objects.filter(league=league, user=user, role=Membership.Role.COACH).exists()


def league_commissioners(*, league: League) -> list[str]:
    """Usernames of the league's commissioners (uses prefetched memberships)."""
    return sorted(m.user.username for m in league.memberships.all() if m.role == Membership.Role.COMMISSIONER)


def report_list(*, league: League, limit: int | None = None) -> list:
    """The league's weekly reports, newest first, without their bodies (one query)."""
    reports = league.reports.order_by("-week_start", "-id").only("pk", "week", "created_at", "updated_at", "league_id")
    return list(reports[:limit] if limit else reports)


def invitations_pending(*, user: AbstractBaseUser) -> QuerySet:
    """The user's invitations still awaiting his answer, newest first, with their leagues (one query)."""
    from .models import Invitation

    if not user.is_authenticated:
        return Invitation.objects.none()
    return (
        Invitation.objects.filter(user=user, state=Invitation.State.PENDING)
        .select_related("league", "user", "invited_by")
        .order_by("-created_at", "-id")
    )


def league_invitations_pending(*, league: League) -> QuerySet:
    """The league's invitations awaiting an answer (the commissioner's dashboard), with the invited users."""
    from .models import Invitation

    return league.invitations.filter(state=Invitation.State.PENDING).select_related("user").order_by("created_at")
