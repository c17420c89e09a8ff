"""The team identity write services: colours and logo, by the team's coach or the commissioner
(teams/policy.py `may_dress_team`; a commissioner's change is audited with its reason)."""

from __future__ import annotations

import re

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from campaigns.errors import NotPermitted, RuleViolation
from league.audit import audit_record
from teams.models import Team
from teams.policy import may_coach_team, may_dress_team

from . import images

COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def _dressed(team_id: int, user: AbstractBaseUser) -> Team:
    """The team row locked for a change of looks, once the user may make it (inside a transaction)."""
    team = Team.objects.select_for_update().filter(pk=team_id).first()
    if team is None:
        raise RuleViolation("No such team.", field="team")
    team = Team.objects.select_related("league").get(pk=team_id)
    if not may_dress_team(user, team):
        raise NotPermitted("Only this team's coach or the league's commissioner may change its colours or logo.")
    return team


def _audit(team: Team, user: AbstractBaseUser, action: str, before, after, reason: str) -> None:
    if not may_coach_team(user, team):
        audit_record(
            league=team.league,
            actor=user,
            action=action,
            target=f"team:{team.pk}",
            before=before,
            after=after,
            reason=reason or "The commissioner changed the team's looks.",
        )


def team_set_colours(
    *, team_id: int, user: AbstractBaseUser, primary: str | None = None, secondary: str | None = None, reason: str = ""
) -> Team:
    """Set one or both colours, each `#rrggbb` (stored lower-case)."""
    for field, value in (("primary_colour", primary), ("secondary_colour", secondary)):
        if value is not None and not COLOUR.fullmatch(value):
            raise RuleViolation("A colour is written #rrggbb, e.g. #1f3a5f.", field=field)
    with transaction.atomic():
        team = _dressed(team_id, user)
        before = {"primary_colour": team.primary_colour, "secondary_colour": team.secondary_colour}
        if primary is not None:
            team.primary_colour = primary.lower()
        if secondary is not None:
            team.secondary_colour = secondary.lower()
        team.save(update_fields=["primary_colour", "secondary_colour"])
        after = {"primary_colour": team.primary_colour, "secondary_colour": team.secondary_colour}
        _audit(team, user, "team_colours", before, after, reason)
    return team


def team_set_logo(*, team_id: int, user: AbstractBaseUser, data: bytes, reason: str = "") -> Team:
    """Replace the team's logo by an upload's bytes (checked and re-encoded by images.py before storing)."""
    with transaction.atomic():
        team = _dressed(team_id, user)
        renditions = images.logo_renditions(data)
        old = team.logo_key
        team.logo_key = images.logo_store(team.pk, renditions)
        team.save(update_fields=["logo_key"])
        _audit(team, user, "team_logo", old, team.logo_key, reason)
        if old and old != team.logo_key:
            transaction.on_commit(lambda: images.logo_discard(team_id, old))
    return team


def team_remove_logo(*, team_id: int, user: AbstractBaseUser, reason: str = "") -> Team:
    """Take the team's logo down (no logo is no error: nothing to remove, nothing changes)."""
    with transaction.atomic():
        team = _dressed(team_id, user)
        old = team.logo_key
        if old:
            team.logo_key = ""
            team.save(update_fields=["logo_key"])
            _audit(team, user, "team_logo", old, "", reason)
            transaction.on_commit(lambda: images.logo_discard(team_id, old))
    return team
