"""A league's divisions: the commissioner creates, renames and deletes them and places
teams in them. Each write runs under the league's row lock, is audited (action "division", with a reason: the
commissioner's, else one in words) and gives the league a new table version (`league_table_changed`), since
the divisions' tables — and the pages that show them — change with it."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from campaigns.errors import Conflict, NotPermitted, RuleViolation
from league.audit import audit_record
from league.models import Division, League, league_table_changed
from league.models.divisions import NAME_LENGTH
from league.policy import may_manage_divisions

from .models import Team

#: A league is split into a handful of divisions (a typo guard: every page shows one table per division).
MAX_DIVISIONS = 16
#: The audit's reason, as the adjustments keep it.
REASON_MAX = 255


class DivisionConflict(Conflict):
    """The league already has a division of that name (answered 409)."""


def _name(name: object) -> str:
    text = name.strip() if isinstance(name, str) else ""
    if not text:
        raise RuleViolation("Name the division, in words.", field="name")
    if len(text) > NAME_LENGTH:
        raise RuleViolation(f"A division's name is at most {NAME_LENGTH} characters.", field="name")
    return text


def _reason(reason: object, default: str) -> str:
    if reason is None or reason == "":
        return default
    if not isinstance(reason, str) or not reason.strip():
        raise RuleViolation("A reason is text.", field="reason")
    if len(reason.strip()) > REASON_MAX:
        raise RuleViolation(f"A reason is at most {REASON_MAX} characters.", field="reason")
    return reason.strip()


def _locked_league(league_id: int, user: AbstractBaseUser) -> League:
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise RuleViolation("No such league.", field="league")
    if not may_manage_divisions(user, league):
        raise NotPermitted("Only the league's commissioner manages its divisions.")
    return league


def _division(league: League, division_id: object) -> Division:
    if isinstance(division_id, bool) or not isinstance(division_id, int):
        raise RuleViolation("Name the division by its id.", field="division")
    division = Division.objects.filter(league=league, pk=division_id).first()
    if division is None:
        raise RuleViolation(f"Division {division_id} is not a division of this league.", field="division")
    return division


def _unique(league: League, name: str, *, other_than: int | None = None) -> None:
    taken = Division.objects.filter(league=league, name__iexact=name).exclude(pk=other_than)
    if taken.exists():
        raise DivisionConflict(f"The league already has a division called {name!r}.")


def division_create(
    *, user: AbstractBaseUser, league_id: int, name: object, order: object = None, reason: object = None
) -> Division:
    """A new division of the league (after the others unless `order` is given). Commissioner only; audited."""
    text = _name(name)
    if order is not None and (isinstance(order, bool) or not isinstance(order, int) or not 0 <= order <= 999):
        raise RuleViolation("The order is a whole number from 0 to 999.", field="order")
    with transaction.atomic():
        league = _locked_league(league_id, user)
        why = _reason(reason, f"Division {text} created")
        existing = list(Division.objects.filter(league=league).values_list("order", flat=True))
        if len(existing) >= MAX_DIVISIONS:
            raise DivisionConflict(f"A league has at most {MAX_DIVISIONS} divisions.")
        _unique(league, text)
        division = Division.objects.create(
            league=league, name=text, order=order if order is not None else max(existing, default=-1) + 1
        )
        league_table_changed(league.pk)
        audit_record(
            league=league,
            actor=user,
            action="division",
            target=f"division {division.pk}",
            before=None,
            after={"name": division.name, "order": division.order},
            reason=why,
        )
    return division


def division_rename(
    *, user: AbstractBaseUser, league_id: int, division_id: object, name: object, reason: object = None
) -> Division:
    """The division takes a new name (unique in the league). Commissioner only; audited."""
    text = _name(name)
    with transaction.atomic():
        league = _locked_league(league_id, user)
        division = _division(league, division_id)
        why = _reason(reason, f"Division {division.name} renamed {text}")
        _unique(league, text, other_than=division.pk)
        before = division.name
        division.name = text
        division.save(update_fields=["name"])
        league_table_changed(league.pk)
        audit_record(
            league=league,
            actor=user,
            action="division",
            target=f"division {division.pk}",
            before={"name": before},
            after={"name": text},
            reason=why,
        )
    return division


def division_delete(*, user: AbstractBaseUser, league_id: int, division_id: object, reason: object = None) -> None:
    """The division goes; its teams fall back to no division (their results and schedules stay). Commissioner
    only; audited with the teams it held."""
    with transaction.atomic():
        league = _locked_league(league_id, user)
        division = _division(league, division_id)
        why = _reason(reason, f"Division {division.name} deleted")
        held = sorted(Team.objects.filter(division=division).values_list("pk", flat=True))
        Team.objects.filter(division=division).update(division=None)
        pk, name = division.pk, division.name
        division.delete()
        league_table_changed(league.pk)
        audit_record(
            league=league,
            actor=user,
            action="division",
            target=f"division {pk}",
            before={"name": name, "teams": held},
            after=None,
            reason=why,
        )


def division_assign(
    *, user: AbstractBaseUser, league_id: int, division_id: object, team_ids: object, reason: object = None
) -> list[int]:
    """Place the listed teams of the league in the division (`division_id` None: in no division). Answers the
    team ids moved. Commissioner only; audited with where each team was."""
    if not isinstance(team_ids, list) or not team_ids:
        raise RuleViolation("List the teams by their ids.", field="teams")
    if not all(isinstance(t, int) and not isinstance(t, bool) for t in team_ids):
        raise RuleViolation("List the teams by their ids.", field="teams")
    if len(set(team_ids)) != len(team_ids):
        raise RuleViolation("A team can only be listed once.", field="teams")
    with transaction.atomic():
        league = _locked_league(league_id, user)
        division = None if division_id is None else _division(league, division_id)
        found = dict(Team.objects.filter(league=league, pk__in=team_ids).values_list("pk", "division_id"))
        missing = [t for t in team_ids if t not in found]
        if missing:
            raise RuleViolation(f"Team {missing[0]} is not a team of this league.", field="teams")
        target = None if division is None else division.pk
        Team.objects.filter(pk__in=team_ids).update(division=division)
        league_table_changed(league.pk)
        where = division.name if division is not None else "no division"
        audit_record(
            league=league,
            actor=user,
            action="division",
            target=f"division {target}" if target else "no division",
            before={"teams": {str(t): found[t] for t in team_ids}},
            after={"teams": {str(t): target for t in team_ids}},
            reason=_reason(reason, f"{len(team_ids)} team(s) placed in {where}"),
        )
    return sorted(team_ids)


def league_divisions(*, league: League) -> list[dict]:
    """The league's divisions in their order, each `{id, name, order, teams: [ids]}` (two queries)."""
    divisions = list(Division.objects.filter(league=league))
    teams: dict[int, list[int]] = {d.pk: [] for d in divisions}
    for division_id, team_id in (
        Team.objects.filter(league=league, division__isnull=False).order_by("pk").values_list("division_id", "pk")
    ):
        teams.setdefault(division_id, []).append(team_id)
    return [{"id": d.pk, "name": d.name, "order": d.order, "teams": teams[d.pk]} for d in divisions]
