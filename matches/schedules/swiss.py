"""A Swiss' plan: its next round, paired by the standings."""

from __future__ import annotations

import datetime as dt

from campaigns import scheduling
from campaigns.errors import RuleViolation
from campaigns.scheduling import Round

from ..models import Match, MatchTeam, Schedule
from .base import (
    Planned,
    ScheduleConflict,
    check_start,
    keep_consecutive_rule,
    league_teams,
    new_schedule,
    previous_opponents,
)


def plan_swiss(league, user, existing, start, teams, days_per_round, limit):
    from ..selectors import league_standings

    if existing is None:
        start = check_start(start)
        ids = [t.pk for t in league_teams(league, teams)]
        schedule = new_schedule(league, user, Schedule.Format.SWISS, start, ids, days_per_round)
        played, had_bye, number = [], set(), 1
    else:
        if teams is not None:
            raise RuleViolation(
                "A Swiss keeps its teams: a team withdraws or joins late through the schedule's own calls.",
                field="teams",
            )
        schedule = existing
        ids = list(existing.teams)
        rounds = list(existing.rounds.order_by("number"))
        waiting = (
            Match.objects.filter(schedule_round__schedule=existing)
            .exclude(status=Match.Status.FINAL)
            .order_by("pk")
            .values_list("pk", flat=True)
            .first()
        )
        if waiting is not None:
            raise ScheduleConflict(f"Match {waiting} of the Swiss is not final yet: its round is still being played.")
        had_bye = {t for r in rounds for t in r.byes}
        number = rounds[-1].number + 1 if rounds else 1
        if start is None:
            start = rounds[-1].deadline + dt.timedelta(days=1) if rounds else existing.start
        start = check_start(start)
        by_match: dict[int, list[int]] = {}
        for match_id, team_id in MatchTeam.objects.filter(match__schedule_round__schedule=existing).values_list(
            "match_id", "team_id"
        ):
            by_match.setdefault(match_id, []).append(team_id)
        played = list(by_match.values())
    rank = {row["team"]: i for i, row in enumerate(league_standings(league=league))}
    ranked = sorted(ids, key=lambda t: rank.get(t, len(rank)))
    nxt = scheduling.swiss_round(
        ranked, played=played, had_bye=had_bye, number=number, start=start, days_per_round=days_per_round
    )
    previous = previous_opponents(league, ids, limit=limit)
    keep_consecutive_rule([Round(number, nxt.starts, nxt.deadline, nxt.pairings)], limit=limit, previous=previous)
    byes = (nxt.bye,) if nxt.bye is not None else ()
    return schedule, [Planned(number, nxt.starts, nxt.deadline, nxt.pairings, byes)]
