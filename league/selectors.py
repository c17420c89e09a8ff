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
