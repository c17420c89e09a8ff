"""Reads of leagues and who may do what in them."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Exists, OuterRef, QuerySet

from .models import League, LeagueReport, Membership


def league_queryset() -> QuerySet[League]:
    return (
        League.objects.select_related("created_by")
        .annotate(team_count=Count("teams", distinct=True))
        .prefetch_related("memberships__user", "stadiums")
        .order_by("name", "id")
    )


def league_list() -> QuerySet[League]:
    """The home page's leagues: name, game, team count and commissioner in one query (no memberships nor
    stadiums: the list never shows them), in a stable order for its pages."""
    return League.objects.select_related("created_by").annotate(team_count=Count("teams")).order_by("name", "id")


def league_for_viewer(*, pk: int, user: AbstractBaseUser) -> League | None:
    """The league page's league, in one query whatever the league's size: its commissioner and — as
    `memberships` already prefetched — the viewer's own memberships only
    (the policy predicates answer from them without a query; league/policy.py `_holds`). Its stadiums
    come with one more query."""
    roles = {}
    if user.is_authenticated:
        for role in Membership.Role:
            mine = Membership.objects.filter(league=OuterRef("pk"), user=user, role=role)
            roles[f"viewer_is_{role.value}"] = Exists(mine)
    league = (
        League.objects.select_related("created_by").annotate(**roles).prefetch_related("stadiums").filter(pk=pk).first()
    )
    if league is not None:
        held = Membership.objects.filter(league=league, user_id=user.pk if roles else None)
        held._result_cache = [  # what the prefetch would have read: the viewer's memberships, no others
            Membership(league=league, user_id=user.pk, role=role)
            for role in Membership.Role
            if roles and getattr(league, f"viewer_is_{role.value}")
        ]
        held._prefetch_done = True
        league._prefetched_objects_cache["memberships"] = held
    return league


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


def report_queryset(*, league: League) -> QuerySet[LeagueReport]:
    """The league's weekly reports, newest first, without their bodies."""
    return league.reports.order_by("-week_start", "-id").only("pk", "week", "created_at", "updated_at", "league_id")


def report_list(*, league: League, limit: int | None = None) -> list:
    """The league's weekly reports, newest first, without their bodies (one query)."""
    reports = report_queryset(league=league)
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
