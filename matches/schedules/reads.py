"""Reads for the API and the pages: a schedule's rounds, the season's schedules."""

from __future__ import annotations

from collections.abc import Iterable

from league.models import League
from teams.models import Team

from ..models import Match, MatchTeam, Schedule, ScheduleRound
from .base import (
    round_out,
)


def schedule_rounds_out(schedule: Schedule, *, numbers: Iterable[int] | None = None) -> list[dict]:
    """The schedule's rounds (or only `numbers`) with their match ids, as the API answers them (two queries)."""
    rounds = list(schedule.rounds.order_by("number"))
    if numbers is not None:
        wanted = set(numbers)
        rounds = [r for r in rounds if r.number in wanted]
    ids: dict[int, list[int]] = {r.pk: [] for r in rounds}
    for match_id, round_id in (
        Match.objects.filter(schedule_round__in=rounds).order_by("pk").values_list("pk", "schedule_round_id")
    ):
        ids[round_id].append(match_id)
    return [round_out(r.number, r.starts, r.deadline, ids[r.pk], r.byes, r.kind) for r in rounds]


def league_schedules(*, league: League, season: int | None = None, format: str | None = None) -> list[dict]:
    """The season's schedules (default: the open one; only `format`'s when given) with their rounds, each
    round's matches with their teams (home first), outcomes and status — what the fixtures, schedule and bracket
    pages show (four queries)."""
    season = league.season if season is None else season
    schedules = Schedule.objects.filter(league=league, season=season).order_by("pk")
    schedules = list(schedules if format is None else schedules.filter(format=format))
    if not schedules:
        return []
    rounds = list(ScheduleRound.objects.filter(schedule__in=schedules).order_by("schedule_id", "number"))
    listed = {t for schedule in schedules for t in (*schedule.teams, *schedule.withdrawn)}
    names = dict(Team.objects.filter(pk__in=listed).values_list("pk", "name"))
    matches: dict[int, list[dict]] = {r.pk: [] for r in rounds}
    for match_id, round_id, status, team_id, outcome in (
        MatchTeam.objects.filter(match__schedule_round__in=rounds)
        .order_by("match_id", "order")
        .values_list("match_id", "match__schedule_round_id", "match__status", "team_id", "outcome")
    ):
        row = matches[round_id]
        if not row or row[-1]["id"] != match_id:
            row.append({"id": match_id, "status": status, "teams": []})
        row[-1]["teams"].append({"id": team_id, "name": names.get(team_id, ""), "outcome": outcome})
    return [
        {
            "id": schedule.pk,
            "format": schedule.format,
            "format_name": schedule.get_format_display(),
            "legs": schedule.legs,
            "days_per_round": schedule.days_per_round,
            "teams": list(schedule.teams),
            "withdrawn": list(schedule.withdrawn),
            "rounds": [
                {
                    "round": r.number,
                    "starts": r.starts,
                    "deadline": r.deadline,
                    "kind": r.kind or Match.Kind.LEAGUE,
                    "matches": matches[r.pk],
                    "byes": [{"id": t, "name": names.get(t, "")} for t in r.byes],
                }
                for r in rounds
                if r.schedule_id == schedule.pk
            ],
        }
        for schedule in schedules
    ]
