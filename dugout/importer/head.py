"""The document's head: the league, its settings, house rules and stadiums."""

from __future__ import annotations

from typing import Any

from campaigns.errors import RuleViolation
from campaigns.rulesets import REGISTRY
from dugout.importer.checks import a_list, bad, boolean, field, integer, json_value, text, timestamp
from dugout.importer.state import ImportState
from league.models import League, Membership, Stadium, validate_timezone
from teams.models import Roster


def read_league(state: ImportState, record: Any, path: str) -> None:
    ruleset = field(record, path, "ruleset", text(choices=tuple(REGISTRY)))
    rules = REGISTRY[ruleset]
    overrides = field(record, path, "house_rules_overrides", json_value(dict), {})
    try:
        overrides = rules.validate_house_rules(overrides)
    except RuleViolation as error:
        where = f"{path}.house_rules_overrides" + (f".{error.field}" if error.field else "")
        raise bad(where, error.message) from None
    zone = field(record, path, "timezone", text(64), "UTC")
    try:
        validate_timezone(zone)
    except Exception:
        raise bad(f"{path}.timezone", f"{zone!r} is not a time zone.") from None
    league = League(
        name=field(record, path, "name", text(100)),
        ruleset=ruleset,
        created_by=state.user,
        house_rules_overrides=overrides,
        open_registration=field(record, path, "open_registration", boolean, True),
        reports_enabled=field(record, path, "reports_enabled", boolean, True),
        report_weekday=field(record, path, "report_weekday", integer(0, 6), 0),
        report_hour=field(record, path, "report_hour", integer(0, 23), 8),
        timezone=zone,
    )
    created_at = field(record, path, "created_at", timestamp(null=True), None)
    stadiums = []
    names = set()
    for i, stadium in enumerate(field(record, path, "stadiums", a_list, [])):
        here = f"{path}.stadiums[{i}]"
        name = field(stadium, here, "name", text(100))
        if name in names:
            raise bad(f"{here}.name", "Two stadiums of the league have this name.")
        names.add(name)
        old = field(stadium, here, "id", integer(None))
        if old in state.stadiums:
            raise bad(f"{here}.id", "Two stadiums have this id.")
        state.stadiums[old] = len(stadiums)
        stadiums.append(Stadium(name=name, special_attribute=field(stadium, here, "special_attribute", text(100), "")))
    league.save()
    if created_at:
        League.objects.filter(pk=league.pk).update(created_at=created_at)
    state.league = league
    Membership.objects.create(league=league, user=state.user, role=Membership.Role.COMMISSIONER)
    for stadium in stadiums:
        stadium.league = league
    created = Stadium.objects.bulk_create(stadiums)
    state.stadiums = {old: created[i].pk for old, i in state.stadiums.items()}
    rosters = Roster.objects.filter(ruleset=ruleset).prefetch_related("positions")
    state.positions = {r.key: {p.key: p for p in r.positions.all()} for r in rosters}
    state.rosters = {r.key: r for r in rosters}
