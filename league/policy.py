"""Who may do what to a league: one place, read by the services (which enforce it), by the API permission
classes and by the pages (which show or hide what a user cannot do). Plain predicates, no side effects."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from league.member_removals import was_removed
from league.models import Invitation, League, Membership
from league.selectors import user_is_coach, user_is_commissioner


def _holds(user: AbstractBaseUser, league: League, role: str) -> bool:
    """Whether `user` holds `role` in `league`. A page that prefetched the league's memberships is answered
    from them (so a predicate asked for every side of a match costs no query); otherwise one query."""
    if not user.is_authenticated:
        return False
    prefetched = getattr(league, "_prefetched_objects_cache", {}).get("memberships")
    if prefetched is not None:
        return any(m.user_id == user.pk and m.role == role for m in prefetched)
    if role == Membership.Role.COMMISSIONER:
        return user_is_commissioner(user=user, league=league)
    return user_is_coach(user=user, league=league)


def may_run_league(user: AbstractBaseUser, league: League) -> bool:
    """A league's commissioners change its settings, house rules and stadiums."""
    return _holds(user, league, Membership.Role.COMMISSIONER)


def may_coach_in_league(user: AbstractBaseUser, league: League) -> bool:
    """A coach member of the league (he founds teams in it and plays its matches)."""
    return _holds(user, league, Membership.Role.COACH)


def may_invite(user: AbstractBaseUser, league: League) -> bool:
    """A league's commissioners invite coaches and fellow commissioners."""
    return may_run_league(user, league)


def may_answer_invitation(user: AbstractBaseUser, invitation: Invitation) -> bool:
    """Only the invited user accepts or declines (his consent) — whatever state the invitation is in; whether
    it is still open to an answer is the service's Conflict, not a permission."""
    return user.is_authenticated and invitation.user_id == user.pk


def may_join_league(user: AbstractBaseUser, league: League) -> bool:
    """Anyone signed in joins an open league as a coach (unless its commissioner removed him); an invite-only
    league only by invitation."""
    return user.is_authenticated and league.open_registration and may_join_unasked(user, league)


def may_join_unasked(user: AbstractBaseUser, league: League) -> bool:
    """Whether the user may come in without the commissioner's word about him (an invite link, an open league's
    Join): not once the commissioner removed him, until he takes him back (an invitation, an approved request).
    One query."""
    return user.is_authenticated and not was_removed(league_id=league.pk, user_id=user.pk)


def may_create_league(user: AbstractBaseUser) -> bool:
    """Any signed-in user may found a league (he becomes its first commissioner)."""
    return user.is_authenticated


def may_play_in_league(user: AbstractBaseUser, league: League) -> bool:
    """The league's coaches and commissioners take part in it (e.g. roll its Challenges)."""
    return may_coach_in_league(user, league) or may_run_league(user, league)


def may_manage_divisions(user: AbstractBaseUser, league: League) -> bool:
    """A league's commissioners create, rename and delete its divisions and place its teams in them."""
    return may_run_league(user, league)


def may_resend_report(user: AbstractBaseUser, league: League) -> bool:
    """A league's commissioners resend a weekly report's mail whose delivery was lost (its worker died while
    sending it): they see those in their queue."""
    return may_run_league(user, league)


def may_configure_discord(user: AbstractBaseUser, league: League) -> bool:
    """A league's commissioners connect it to their Discord application (its id and public key)."""
    return may_run_league(user, league)
