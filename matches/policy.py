"""Who may do what to a match: one place, read by the match services (which enforce it), by the API and by
the pages (which offer only what the user may do). Plain predicates, no side effects.

A match's coaches are the coaches of its sides; the league's commissioners may act for any side (they run the
table when a coach cannot). Predicates that need the sides read `match.sides` once (prefetch it on lists).

The league clock (matches/clock.py) acts with no user: what it may do is what the league's house rules let it
(`clock_may_confirm`, `clock_may_forfeit`), at the moment the clock says it is."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser

from campaigns import deadlines
from league.models import League
from league.policy import may_play_in_league, may_run_league
from matches.models import Match
from teams.models import Team
from teams.policy import may_coach_team


def _teams(match: Match) -> list[Team]:
    return [side.team for side in match.sides.all()]


def _coaches_one_of(user: AbstractBaseUser, teams: Iterable[Team]) -> bool:
    return any(may_coach_team(user, team) for team in teams)


def may_schedule_match(user: AbstractBaseUser, league: League, teams: Iterable[Team]) -> bool:
    """The commissioner schedules any match; a coach only one his own team plays in."""
    return may_run_league(user, league) or _coaches_one_of(user, teams)


def may_enter_result(user: AbstractBaseUser, match: Match) -> bool:
    """A coach of a side, or the commissioner, enters (or re-enters) the result."""
    # (The coach's half first: it reads the sides held with the match, the commissioner's asks the database.)
    return _coaches_one_of(user, _teams(match)) or may_run_league(user, match.league)


def may_confirm_result(user: AbstractBaseUser, match: Match) -> bool:
    """The other coach — of a side the submitter does not coach — or the commissioner confirms; never the
    user who entered it (a result needs two pairs of eyes)."""
    if not user.is_authenticated or user.pk == match.submitted_by_id:
        return False
    if match.status == Match.Status.DISPUTED:  # a disputed result is the commissioner's to rule on
        return may_run_league(user, match.league)
    coaches = {team.pk: team.coach_id for team in _teams(match)}
    return confirms_as_other_coach(
        user_id=user.pk, submitted_by_id=match.submitted_by_id, coaches=coaches
    ) or may_run_league(user, match.league)


def confirms_as_other_coach(*, user_id: int, submitted_by_id: int | None, coaches: dict[int, int | None]) -> bool:
    """The coach's half of `may_confirm_result`, over plain ids (`coaches`: team id → coach id of the match's
    sides) so a list of many matches can ask it without a query: `user_id` coaches a side the submitter does not
    coach, and is not the submitter."""
    if user_id == submitted_by_id:
        return False
    return any(coach == user_id and coach != submitted_by_id for coach in coaches.values())


def may_dispute_result(user: AbstractBaseUser, match: Match) -> bool:
    """A coach of the match who did not enter the result disputes it (instead of confirming it)."""
    if not user.is_authenticated:
        return False
    coaches = {team.pk: team.coach_id for team in _teams(match)}
    return confirms_as_other_coach(user_id=user.pk, submitted_by_id=match.submitted_by_id, coaches=coaches)


def may_rule_on_dispute(user: AbstractBaseUser, match: Match) -> bool:
    """Only the commissioner rules on a disputed result."""
    return may_run_league(user, match.league)


def may_forfeit_match(user: AbstractBaseUser, match: Match) -> bool:
    """Only the commissioner records a forfeit."""
    return may_run_league(user, match.league)


def may_void_match(user: AbstractBaseUser, league: League) -> bool:
    """Only the commissioner makes a league's unplayed matches void: one at a time, or by the season's turn as he
    opens the next season (the matches of the teams a redraft rebuilds)."""
    return may_run_league(user, league)


def may_reject_result(user: AbstractBaseUser, match: Match) -> bool:
    """Only the commissioner sends a submitted result back."""
    return may_run_league(user, match.league)


def may_correct_result(user: AbstractBaseUser, match: Match) -> bool:
    """Only the commissioner corrects a final result."""
    return may_run_league(user, match.league)


def may_run_prematch(user: AbstractBaseUser, match: Match) -> bool:
    """A coach of the match or the commissioner rolls its pre-match sequence."""
    return may_enter_result(user, match)


def may_act_for_side(user: AbstractBaseUser, match: Match, team: Team) -> bool:
    """One side's own steps (its post-match sequence, its inducement shopping): its coach or the commissioner."""
    return may_coach_team(user, team) or may_run_league(user, match.league)


def may_roll_challenge(user: AbstractBaseUser, league: League) -> bool:
    """The league's coaches and commissioners roll Challenges in it."""
    return may_play_in_league(user, league)


def may_propose_time(user: AbstractBaseUser, match: Match) -> bool:
    """A coach of the match proposes a date and time for it."""
    return _coaches_one_of(user, _teams(match))


def may_accept_time(user: AbstractBaseUser, match: Match, proposing_team_id: int) -> bool:
    """The opponent — a coach of a side other than the proposing one — accepts a proposed time."""
    return _coaches_one_of(user, [team for team in _teams(match) if team.pk != proposing_team_id])


def may_publish_schedule(user: AbstractBaseUser, league: League) -> bool:
    """Only the commissioner generates, previews and changes a league's schedules."""
    return may_run_league(user, league)


def may_request_extension(user: AbstractBaseUser, match: Match) -> bool:
    """A coach of the match asks the commissioner for a later deadline."""
    return _coaches_one_of(user, _teams(match))


def may_decide_extension(user: AbstractBaseUser, match: Match) -> bool:
    """Only the commissioner approves or refuses a request for more time."""
    return may_run_league(user, match.league)


def clock_may_confirm(match: Match, *, now: datetime) -> bool:
    """The league clock confirms a submitted result nobody confirmed, rejected or disputed for the league's
    `auto_confirm_hours` (null: never)."""
    return match.status == Match.Status.SUBMITTED and deadlines.auto_confirm_due(
        match.league.house_rules, match.submitted_at, now
    )


def clock_may_forfeit(match: Match, *, now: datetime) -> bool:
    """The league clock forfeits, for both teams, a match still to be played `deadline_grace_hours` after its
    deadline, in a league whose `on_deadline` is "double_forfeit"."""
    return match.status == Match.Status.SCHEDULED and deadlines.double_forfeit_due(
        match.league.house_rules, match.deadline, now
    )
