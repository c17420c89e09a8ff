"""Removing a league member and reassigning his teams. A removed coach's teams stay in
the league, their players and ledger untouched, marked without coach (`Team.coach` null) until the commissioner
hands them to another coach of the league. Both are in the league's audit. A removed member stays out until the
commissioner takes him back (league/member_removals.py)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from campaigns.errors import NotPermitted, RuleViolation
from league.audit import audit_record, reason_text
from league.member_removals import removal_record
from league.models import League, Membership
from league.policy import may_run_league
from teams.models import Team, Transfer


def member_remove(*, user: AbstractBaseUser, league_id: int, member_id: object, reason: object = "") -> list[int]:
    """The commissioner removes `member_id` from the league (every role he holds in it). His teams lose their
    coach and his open transfers are refused; a commissioner cannot remove himself, nor the league's last
    commissioner. Returns the ids of the teams left without coach."""
    text = reason_text(reason)
    with transaction.atomic():
        league = League.objects.select_for_update().filter(pk=league_id).first()
        if league is None:
            raise RuleViolation("No such league.", field="league")
        if not may_run_league(user, league):
            raise NotPermitted("Only a commissioner of this league removes members.")
        if not isinstance(member_id, int) or isinstance(member_id, bool):
            raise RuleViolation("member is a user id.", field="member")
        roles = list(Membership.objects.filter(league=league, user_id=member_id).values_list("role", flat=True))
        if not roles:
            raise RuleViolation("That user is not a member of this league.", field="member")
        if member_id == user.pk:
            raise RuleViolation("A commissioner cannot remove himself.", field="member")
        member = get_user_model().objects.get(pk=member_id)
        teams = list(Team.objects.filter(league=league, coach_id=member_id).order_by("pk").values_list("pk", "name"))
        team_ids = [pk for pk, _ in teams]
        Team.objects.filter(pk__in=team_ids).update(coach=None)
        Transfer.objects.filter(
            Q(from_team_id__in=team_ids) | Q(to_team_id__in=team_ids),
            status__in=[Transfer.Status.PROPOSED, Transfer.Status.ACCEPTED],
        ).update(status=Transfer.Status.REFUSED, decided_at=timezone.now())
        Membership.objects.filter(league=league, user_id=member_id).delete()
        # He stays out until the commissioner takes him back: no invite link nor open Join re-admits him.
        removal_record(league_id=league.pk, user_id=member_id, by=user)
        audit_record(
            league=league,
            actor=user,
            action="member_removed",
            target=f"user {member_id} ({member.get_username()})",
            before={"roles": sorted(roles), "teams": [{"id": pk, "name": name} for pk, name in teams]},
            after={"roles": [], "teams_without_coach": team_ids},
            reason=text,
        )
    return team_ids


def team_reassign(*, user: AbstractBaseUser, team_id: int, coach_id: object, reason: object = "") -> Team:
    """The commissioner hands a team (typically one left without coach) to a coach member of its league."""
    text = reason_text(reason)
    with transaction.atomic():
        team = Team.objects.select_for_update(of=("self",)).select_related("league", "coach").filter(pk=team_id).first()
        if team is None:
            raise RuleViolation("No such team.", field="team")
        if not may_run_league(user, team.league):
            raise NotPermitted("Only the league's commissioner reassigns a team.")
        if not isinstance(coach_id, int) or isinstance(coach_id, bool):
            raise RuleViolation("coach is a user id.", field="coach")
        membership = (
            Membership.objects.select_related("user")
            .filter(league=team.league, user_id=coach_id, role=Membership.Role.COACH)
            .first()
        )
        if membership is None:
            raise RuleViolation("The new coach must be a coach member of this league.", field="coach")
        if team.coach_id == coach_id:
            raise RuleViolation(f"{membership.user.get_username()} already coaches {team.name}.", field="coach")
        before = team.coach.get_username() if team.coach else None
        team.coach = membership.user
        team.save(update_fields=["coach"])
        audit_record(
            league=team.league,
            actor=user,
            action="team_reassigned",
            target=f"team {team.pk} ({team.name})",
            before={"coach": before},
            after={"coach": membership.user.get_username()},
            reason=text,
        )
    return team
