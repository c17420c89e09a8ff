"""Who may do what to a team: one place, read by the team services (which enforce it), by the API permission
classes and by the pages (which show or hide what a user cannot do). Plain predicates, no side effects."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from league.policy import may_coach_in_league, may_run_league

from .models import Team, Transfer


def may_coach_team(user: AbstractBaseUser, team: Team) -> bool:
    """A team's coach — and only he — hires, fires, buys, renames and readies it (the commissioner does not
    run another coach's team: he corrects results instead)."""
    return user.is_authenticated and team.coach_id == user.pk


def may_found_team(user: AbstractBaseUser, league) -> bool:
    """A coach member of the league founds his teams in it."""
    return may_coach_in_league(user, league)


def may_offer_player(user: AbstractBaseUser, team: Team) -> bool:
    """Only a player's own coach offers him to another team."""
    return may_coach_team(user, team)


def may_accept_transfer(user: AbstractBaseUser, transfer: Transfer) -> bool:
    """The buying coach agrees."""
    return may_coach_team(user, transfer.to_team)


def may_refuse_transfer(user: AbstractBaseUser, transfer: Transfer) -> bool:
    """Any of the three parties may say no while the transfer is open."""
    return (
        may_coach_team(user, transfer.from_team)
        or may_coach_team(user, transfer.to_team)
        or may_run_league(user, transfer.from_team.league)
    )


def may_approve_transfer(user: AbstractBaseUser, transfer: Transfer) -> bool:
    """The commissioner agrees last."""
    return may_run_league(user, transfer.from_team.league)


def may_dress_team(user: AbstractBaseUser, team: Team) -> bool:
    """A team's colours and logo: its coach, or the league's commissioner (audited) — he tidies a
    league's look, e.g. an offensive logo."""
    return may_coach_team(user, team) or may_run_league(user, team.league)
