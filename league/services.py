"""Writes to leagues: creation, house rules, memberships, stadiums."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns import house_rules
from campaigns.errors import RuleViolation
from campaigns.rulesets import REGISTRY

from .models import League, Membership, Stadium


def league_create(*, user: AbstractBaseUser, name: str, ruleset: str, overrides: dict | None = None) -> League:
    """Create a league; its creator is its first commissioner."""
    if ruleset not in REGISTRY:
        raise RuleViolation(f"{ruleset!r} is not a ruleset: choose one of {', '.join(REGISTRY)}.", field="ruleset")
    overrides = REGISTRY[ruleset].validate_house_rules({} if overrides is None else overrides)
    with transaction.atomic():
        league = League.objects.create(name=name, ruleset=ruleset, created_by=user, house_rules_overrides=overrides)
        Membership.objects.create(league=league, user=user, role=Membership.Role.COMMISSIONER)
    return league


def league_update(
    *,
    league_id: int,
    name: str | None = None,
    overrides: dict | None = None,
    open_registration: bool | None = None,
    report_settings: dict | None = None,
) -> League:
    """Change a league's settings. House-rule overrides merge into the ones already set. `report_settings`
    ({reports_enabled, report_weekday, report_hour, timezone}) sets when the weekly report is written."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league_id)
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
            league.house_rules_overrides = house_rules.merge(league.house_rules_overrides, overrides)
        if name is not None:
            league.name = name
        if open_registration is not None:
            league.open_registration = open_registration
        league.save()
    return league


#: The league fields that say when its weekly report is written.
REPORT_SETTINGS = ("reports_enabled", "report_weekday", "report_hour", "timezone")


def league_replace_overrides(*, league_id: int, overrides: dict) -> League:
    """Set the league's overrides to exactly these (the dashboard edits the whole set at once)."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league_id)
        league.house_rules_overrides = league.rules.validate_house_rules(overrides)
        league.save(update_fields=["house_rules_overrides"])
    return league


def league_add_member(*, league: League, username: str, role: str) -> Membership:
    if role not in Membership.Role.values:
        raise RuleViolation("role is 'coach' or 'commissioner'.", field="role")
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise RuleViolation(f"No user called {username!r}.", field="username")
    membership, _ = Membership.objects.get_or_create(league=league, user=user, role=role)
    return membership


def league_join(*, league: League, user: AbstractBaseUser) -> Membership:
    """A user joins an open league as a coach."""
    if not league.open_registration:
        raise RuleViolation("This league is invite-only: ask its commissioner to add you.")
    membership, _ = Membership.objects.get_or_create(league=league, user=user, role=Membership.Role.COACH)
    return membership


def stadium_create(*, league: League, name: str, special_attribute: str = "") -> Stadium:
    if Stadium.objects.filter(league=league, name__iexact=name).exists():
        raise RuleViolation(f"The league already has a stadium called {name}.", field="name")
    return Stadium.objects.create(league=league, name=name, special_attribute=special_attribute)
