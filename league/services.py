"""Writes to leagues: creation, house rules, memberships (by invitation), stadiums."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from campaigns import house_rules
from campaigns.errors import Conflict, NotPermitted, RuleViolation
from campaigns.rulesets import REGISTRY
from league import notices, policy
from league.audit import audit_house_rules, audit_record, reason_text
from league.member_removals import removal_clear, was_removed
from league.models import Invitation, League, Membership, Season, Stadium, league_table_changed, new_table_version


def league_create(*, user: AbstractBaseUser, name: str, ruleset: str, overrides: dict | None = None) -> League:
    """Create a league; its creator is its first commissioner."""
    if not policy.may_create_league(user):
        raise NotPermitted("Sign in to create a league.")
    if ruleset not in REGISTRY:
        raise RuleViolation(f"{ruleset!r} is not a ruleset: choose one of {', '.join(REGISTRY)}.", field="ruleset")
    overrides = REGISTRY[ruleset].validate_house_rules({} if overrides is None else overrides)
    with transaction.atomic():
        league = League.objects.create(name=name, ruleset=ruleset, created_by=user, house_rules_overrides=overrides)
        Membership.objects.create(league=league, user=user, role=Membership.Role.COMMISSIONER)
        # A league opens in its first season.
        Season.objects.create(league=league, number=1, started_at=league.created_at)
    return league


def league_update(
    *,
    user: AbstractBaseUser,
    league_id: int,
    name: str | None = None,
    overrides: dict | None = None,
    open_registration: bool | None = None,
    report_settings: dict | None = None,
    reason: object = "",
) -> League:
    """Change a league's settings. House-rule overrides merge into the ones already set (in the audit with
    `reason`, optional). `report_settings` ({reports_enabled, report_weekday, report_hour, timezone}) sets when
    the weekly report is written."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league_id)
        _check_runs(user, league)
        reason = reason_text(reason)
        for field, value in (report_settings or {}).items():
            if field not in REPORT_SETTINGS:
                raise RuleViolation(f"{field} is not a report setting.", field=field)
            setattr(league, field, value)
        if report_settings:
            try:
                league.clean_fields(exclude=[f.name for f in League._meta.fields if f.name not in report_settings])
            except ValidationError as exc:
                field, messages = next(iter(exc.message_dict.items()))
                raise RuleViolation(" ".join(messages), field=field) from exc
        if overrides is not None:
            league.rules.validate_house_rules(overrides)
            before = league.house_rules_overrides
            league.house_rules_overrides = house_rules.merge(league.house_rules_overrides, overrides)
            _audit_house_rules(user, league, before, reason)
            # The table's tie-breakers may have changed (saved with the league below, in this transaction).
            league.table_version = league_table_changed(league.pk)
        if name is not None:
            league.name = name
        if open_registration is not None:
            league.open_registration = open_registration
        # The whole row is saved: a new activity version with it (the league page's reports panel tells the
        # report day and hour), never the one this row was read with.
        league.activity_version = new_table_version()
        league.save()
    return league


def _check_runs(user: AbstractBaseUser, league: League) -> None:
    if not policy.may_run_league(user, league):
        raise NotPermitted("Only a commissioner of this league may change its settings.")


def _audit_house_rules(user: AbstractBaseUser, league: League, before: dict, reason: str) -> None:
    """A house-rule change is in the audit with the values in force before and after, of the rules that changed
    (a set that changes no value is no change)."""
    audit_house_rules(league=league, actor=user, before=before, target=f"league {league.pk}", reason=reason)


#: The league fields that say when its weekly report is written.
REPORT_SETTINGS = ("reports_enabled", "report_weekday", "report_hour", "timezone")


def league_replace_overrides(*, user: AbstractBaseUser, league_id: int, overrides: dict, reason: object = "") -> League:
    """Set the league's overrides to exactly these (the dashboard edits the whole set at once; `reason`, optional,
    goes in the audit)."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league_id)
        _check_runs(user, league)
        reason = reason_text(reason)
        before = league.house_rules_overrides
        league.house_rules_overrides = league.rules.validate_house_rules(overrides)
        _audit_house_rules(user, league, before, reason)
        league.table_version = league_table_changed(league.pk)
        league.save(update_fields=["house_rules_overrides", "table_version"])
    return league


#: The answer to a member the commissioner removed who tries to come back on his own (a link, an open Join).
REMOVED = gettext_noop(
    "The commissioner removed you from this league: only he can take you back (ask him to invite you)."
)


class InvitationConflict(Conflict):
    """An invitation that cannot be made or answered as things stand (answered 409)."""


def invitation_create(
    *, user: AbstractBaseUser, league: League, username: str, role: str, reason: object = ""
) -> Invitation:
    """The commissioner `user` invites `username` to be a coach or commissioner of `league`; the membership
    is made only when that user accepts. Asking again while the same invitation is pending returns it (a
    repeat changes nothing); a user who already holds the role, or is invited to another, is a conflict."""
    if role not in Membership.Role.values:
        raise RuleViolation("role is 'coach' or 'commissioner'.", field="role")
    if not policy.may_invite(user, league):
        raise NotPermitted("Only a commissioner of this league may invite members.")
    reason = reason_text(reason)
    invitee = get_user_model().objects.filter(username=username).first()
    if invitee is None:
        raise RuleViolation(f"No user called {username!r}.", field="username")
    with transaction.atomic():
        # The league's row queues two commissioners inviting at once; the partial unique index backs it.
        League.objects.select_for_update().filter(pk=league.pk).values_list("pk", flat=True).get()
        if Membership.objects.filter(league=league, user=invitee, role=role).exists():
            raise InvitationConflict(f"{username} is already a {role} of this league.")
        pending = Invitation.objects.filter(league=league, user=invitee, state=Invitation.State.PENDING).first()
        if pending is not None:
            if pending.role == role:
                # Inviting again is the commissioner's word now, even for an invitation made before a removal.
                removal_clear(league_id=league.pk, user_id=invitee.pk)
                return pending
            raise InvitationConflict(
                f"{username} is already invited as {pending.role}: wait for the answer before inviting again."
            )
        # The commissioner's word about this very user: a removal no longer keeps him out.
        removal_clear(league_id=league.pk, user_id=invitee.pk)
        invitation = Invitation.objects.create(league=league, user=invitee, role=role, invited_by=user)
        audit_record(
            league=league,
            actor=user,
            action="invitation",
            target=f"user {invitee.pk} ({invitee.get_username()})",
            after={"role": role, "state": Invitation.State.PENDING},
            reason=reason,
        )
        notices.invitation(invitation, league=league, actor=user)
        return invitation


def invitation_accept(*, user: AbstractBaseUser, invitation_id: int) -> Membership:
    """The invited user accepts: he becomes a member in the invitation's role."""
    with transaction.atomic():
        invitation = _answerable(user=user, invitation_id=invitation_id)
        if was_removed(league_id=invitation.league_id, user_id=user.pk):
            raise InvitationConflict(
                gettext("You were removed from this league after this invitation: ask the commissioner again.")
            )
        membership, _ = Membership.objects.get_or_create(
            league_id=invitation.league_id, user=user, role=invitation.role
        )
        _answer(invitation, Invitation.State.ACCEPTED)
    return membership


def invitation_decline(*, user: AbstractBaseUser, invitation_id: int) -> Invitation:
    """The invited user declines: nothing changes but the invitation, and he may be invited again."""
    with transaction.atomic():
        invitation = _answerable(user=user, invitation_id=invitation_id)
        _answer(invitation, Invitation.State.DECLINED)
    return invitation


def _answerable(*, user: AbstractBaseUser, invitation_id: int) -> Invitation:
    invitation = Invitation.objects.select_for_update().select_related("league").filter(pk=invitation_id).first()
    if invitation is None or not policy.may_answer_invitation(user, invitation):
        raise NotPermitted("Only the invited user may answer this invitation.")
    if invitation.state != Invitation.State.PENDING:
        raise InvitationConflict(f"This invitation was already {invitation.state}.")
    return invitation


def _answer(invitation: Invitation, state: str) -> None:
    invitation.state = state
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["state", "answered_at"])


def league_join(*, league: League, user: AbstractBaseUser) -> Membership:
    """A user joins an open league as a coach (the acting user joins himself)."""
    if not user.is_authenticated:
        raise NotPermitted("Sign in to join a league.")
    if not policy.may_join_unasked(user, league):
        raise NotPermitted(gettext(REMOVED))
    # Not a NotPermitted: the league's setting refuses every signed-in user alike, and the API has always
    # answered it 400.
    if not policy.may_join_league(user, league):
        raise RuleViolation("This league is invite-only: ask its commissioner to add you.")
    membership, _ = Membership.objects.get_or_create(league=league, user=user, role=Membership.Role.COACH)
    return membership


def stadium_create(*, user: AbstractBaseUser, league: League, name: str, special_attribute: str = "") -> Stadium:
    """A commissioner adds a stadium to his league."""
    if not policy.may_run_league(user, league):
        raise NotPermitted("Only a commissioner of this league may add a stadium.")
    if Stadium.objects.filter(league=league, name__iexact=name).exists():
        raise RuleViolation(f"The league already has a stadium called {name}.", field="name")
    return Stadium.objects.create(league=league, name=name, special_attribute=special_attribute)
