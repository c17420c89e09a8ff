"""`schedule_generate`: one service for every format (round robin, knockout, Swiss), previewed or published."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from campaigns.errors import NotPermitted, RuleViolation
from league.audit import audit_record, reason_text, reason_with
from league.models import League

from .. import policy
from ..locks import lock_teams
from ..models import Schedule
from .base import (
    FORMATS,
    ScheduleConflict,
    check_days,
    close_creation,
    publish,
    rounds_answer,
    tell_published,
)
from .knockout import plan_knockout
from .round_robin import plan_round_robin
from .swiss import plan_swiss


def schedule_generate(
    *,
    user: AbstractBaseUser,
    league_id: int,
    format: str,
    start: dt.date | None = None,
    teams: list[int] | None = None,
    legs: int = 1,
    days_per_round: int = 7,
    from_standings: int | None = None,
    preview: bool = False,
    per_division: bool = False,
    division: int | None = None,
    divisions: list[int] | None = None,
    top: int | None = None,
    reason: object = "",
) -> dict:
    """Generate the open season's `format` schedule (round robin: every round; knockout: the bracket's first
    round; Swiss: the next round) and, unless `preview`, publish it. Answers `{id, format, season, preview,
    rounds: [{round, starts, deadline, kind, matches, bye, byes}]}` — in a preview each match is `{teams: [home,
    away]}` and nothing is written. Commissioner only.

    Divisions: a round robin `per_division` (every division's) or of one `division`, its rounds
    aligned by date and no match across divisions; a knockout seeded from `divisions`' tables, the `top` of
    each (division winners first)."""
    if format not in FORMATS:
        raise RuleViolation(f"The format is one of {', '.join(FORMATS)}.", field="format")
    days_per_round = check_days(days_per_round)
    extras = {"per_division": per_division or None, "division": division, "divisions": divisions, "top": top}
    allowed = {
        Schedule.Format.ROUND_ROBIN: ("per_division", "division"),
        Schedule.Format.KNOCKOUT: ("divisions", "top"),
    }
    stray = next(
        (name for name, value in extras.items() if value is not None and name not in allowed.get(format, ())), None
    )
    if stray is not None:
        raise RuleViolation(f"`{stray}` does not go with a {Schedule.Format(format).label.lower()}.", field=stray)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league_id)
        if not policy.may_publish_schedule(user, league):
            raise NotPermitted("Only the commissioner generates the league's schedules.")
        reason = reason_text(reason)  # the commissioner's words, after the audit's own
        existing = Schedule.objects.filter(league=league, season=league.season, format=format).first()
        if existing is not None and format != Schedule.Format.SWISS:
            raise ScheduleConflict(
                f"Season {league.season} already has a {existing.get_format_display().lower()}: change it (a team "
                "withdraws or joins late) rather than generating another."
            )
        limit = league.rules.max_consecutive_meetings(league.house_rules)
        if format == Schedule.Format.ROUND_ROBIN:
            schedule, planned = plan_round_robin(
                league, user, start, teams, legs, days_per_round, limit, per_division=per_division, division=division
            )
        elif format == Schedule.Format.KNOCKOUT:
            schedule, planned = plan_knockout(
                league, user, start, teams, from_standings, days_per_round, limit, divisions=divisions, top=top
            )
        else:
            schedule, planned = plan_swiss(league, user, existing, start, teams, days_per_round, limit)
        answer = {"id": None, "format": format, "season": league.season, "preview": bool(preview)}
        if preview:
            return {**answer, "rounds": rounds_answer(planned, None)}
        team_ids = sorted({t for p in planned for x in p.pairings for t in x.teams} | set(schedule.teams))
        lock_teams(team_ids)
        if schedule.pk is None:
            schedule.save()
        made = publish(schedule, planned, author=user.pk)
        close_creation(team_ids)
        audit_record(
            league=league,
            actor=user,
            action="schedule",
            target=f"schedule {schedule.pk}",
            before=None,
            after={
                "format": format,
                "season": league.season,
                "rounds": [p.number for p in planned],
                "matches": sum(len(ids) for ids in made.values()),
                "teams": list(schedule.teams),
            },
            reason=reason_with(f"{schedule.get_format_display()} generated", reason),
        )
        tell_published(league, planned, actor=user)
    return {**answer, "id": schedule.pk, "rounds": rounds_answer(planned, made)}
