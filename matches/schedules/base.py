"""What the schedules' modules share: the refusal, a planned round, the checks of a request, the teams a
schedule draws, the consecutive-meetings rule, and publishing planned rounds as matches in bulk."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils import timezone

from campaigns import scheduling
from campaigns.errors import Conflict, RuleViolation
from campaigns.scheduling import KnockoutRound, Pairing, Round
from league.models import League, league_activity_changed
from teams.models import Team

from .. import notices
from ..models import Match, MatchTeam, Schedule, ScheduleRound

FORMATS = tuple(Schedule.Format.values)
#: The longest round (a year): beyond it a "round" is a typing slip.
MAX_DAYS_PER_ROUND = 365


class ScheduleConflict(Conflict):
    """The schedule cannot be made or changed in the state the season is in (answered 409, in words)."""


@dataclass(frozen=True)
class Planned:
    """One round to publish: what the pure generators answer, whatever the format."""

    number: int
    starts: dt.date
    deadline: dt.date
    pairings: tuple[Pairing, ...]
    byes: tuple[int, ...]
    kind: str = Match.Kind.LEAGUE
    slots: tuple = ()


def round_out(number: int, starts: dt.date, deadline: dt.date, matches: list, byes: Sequence[int], kind: str) -> dict:
    """One round as the API answers it: `bye` is the contract's single resting team (null when none), `byes`
    all of them (a knockout's first round may have several)."""
    return {
        "round": number,
        "starts": starts.isoformat(),
        "deadline": deadline.isoformat(),
        "kind": kind or Match.Kind.LEAGUE,
        "matches": matches,
        "bye": byes[0] if byes else None,
        "byes": list(byes),
    }


def better_seed(seeds: Sequence[int], teams: Sequence[int]) -> int:
    rank = {t: i for i, t in enumerate(seeds)}
    return min(teams, key=lambda t: rank.get(t, len(rank)))


def day_start(day: dt.date) -> dt.datetime:
    """Midnight at the start of `day`, in the site's time zone."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def check_days(days_per_round: object) -> int:
    if isinstance(days_per_round, bool) or not isinstance(days_per_round, int):
        raise RuleViolation("The days per round are a whole number.", field="days_per_round")
    if not 1 <= days_per_round <= MAX_DAYS_PER_ROUND:
        raise RuleViolation(f"A round lasts 1 to {MAX_DAYS_PER_ROUND} days.", field="days_per_round")
    return days_per_round


def check_start(start: object) -> dt.date:
    if not isinstance(start, dt.date):
        raise RuleViolation("Give the first round's start, a date (YYYY-MM-DD).", field="start")
    return start


def league_teams(league: League, listed: object) -> list[Team]:
    """The teams a schedule draws: the listed ones (in their order, all of this league), else every team of the
    league that has left creation (in the order they were founded). One query."""
    if listed is None:
        return list(Team.objects.filter(league=league, creation_closed_at__isnull=False).order_by("pk"))
    if not isinstance(listed, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in listed):
        raise RuleViolation("List the teams by their ids.", field="teams")
    if len(set(listed)) != len(listed):
        raise RuleViolation("A team can only be listed once.", field="teams")
    found = {t.pk: t for t in Team.objects.filter(league=league, pk__in=listed)}
    missing = [t for t in listed if t not in found]
    if missing:
        raise RuleViolation(f"Team {missing[0]} is not a team of this league.", field="teams")
    return [found[t] for t in listed]


def previous_opponents(
    league: League, team_ids: Iterable[int], *, limit: int | None, exclude: Schedule | None = None
) -> dict[int, list[int]]:
    """Each team's latest `limit` opponents in the league (oldest first; matches of two teams, in the order they
    were scheduled — the reading of matches/services.py's check), in one query; {} when there is no rule.
    `exclude`: a schedule whose own matches are not "previous" (they are the schedule being changed)."""
    if not limit:
        return {}
    ids = set(team_ids)
    sides = MatchTeam.objects.filter(
        match__league=league, match__in=MatchTeam.objects.filter(team_id__in=ids).values("match_id")
    )
    if exclude is not None:
        sides = sides.exclude(match__schedule_round__schedule=exclude)
    by_match: dict[int, list[int]] = {}
    for match_id, team_id in sides.order_by("match__created_at", "match_id", "order").values_list(
        "match_id", "team_id"
    ):
        by_match.setdefault(match_id, []).append(team_id)
    opponents: dict[int, list[int]] = {}
    for teams in by_match.values():  # dicts keep insertion order: the matches in scheduling order
        if len(teams) != 2:
            continue
        for team, other in (teams, teams[::-1]):
            if team in ids:
                opponents.setdefault(team, []).append(other)
    return {team: seen[-limit:] for team, seen in opponents.items()}


def keep_consecutive_rule(rounds: Sequence[Round], *, limit: int | None, previous: dict) -> None:
    found = scheduling.consecutive_violations(rounds, limit=limit, previous=previous)
    if found:
        v = found[0]
        raise RuleViolation(
            f"Round {v.round} would make team {v.team} meet team {v.opponent} {v.run} times in a row; the rules "
            f"allow {limit} at most.",
            field="teams",
        )


def close_creation(team_ids: Iterable[int]) -> None:
    """H (as match_schedule): a team is in creation until its first match is scheduled."""
    Team.objects.filter(pk__in=list(team_ids), creation_closed_at__isnull=True).update(
        creation_closed_at=timezone.now()
    )


def publish(schedule: Schedule, planned: Sequence[Planned], *, author: int) -> dict[int, list[int]]:
    """Create the planned rounds and their matches in bulk (three inserts whatever their number): each match of
    the open season with its round, its start and its deadline. Returns round number → its match ids."""
    tests_to_win = schedule.league.house_rules.get("tests_to_win")
    rows = ScheduleRound.objects.bulk_create(
        [
            ScheduleRound(
                schedule=schedule,
                number=p.number,
                starts=p.starts,
                deadline=p.deadline,
                byes=list(p.byes),
                kind="" if p.kind == Match.Kind.LEAGUE else p.kind,
                slots=[list(s.teams) if isinstance(s, Pairing) else s for s in p.slots],
            )
            for p in planned
        ]
    )
    return publish_matches(schedule, list(zip(rows, planned, strict=True)), author=author, tests_to_win=tests_to_win)


def publish_matches(
    schedule: Schedule, rounds: Sequence[tuple[ScheduleRound, Planned]], *, author: int, tests_to_win
) -> dict[int, list[int]]:
    """The matches of `rounds` (rows already saved), by user id `author`, with their sides: two inserts."""
    matches, pairs = [], []
    for row, p in rounds:
        for pairing in p.pairings:
            matches.append(
                Match(
                    league_id=schedule.league_id,
                    season=schedule.season,
                    round=row.number,
                    scheduled_for=day_start(row.starts),
                    deadline=day_start(row.starts + dt.timedelta(days=schedule.days_per_round)),
                    kind=p.kind,
                    tests_to_win=tests_to_win,
                    created_by_id=author,
                    schedule_round=row,
                )
            )
            pairs.append(pairing)
    Match.objects.bulk_create(matches)
    MatchTeam.objects.bulk_create(
        [
            MatchTeam(match=match, team_id=team_id, order=order)
            for match, pairing in zip(matches, pairs, strict=True)
            for order, team_id in enumerate(pairing.teams)
        ]
    )
    made: dict[int, list[int]] = {row.number: [] for row, _p in rounds}
    for match in matches:
        made[match.round].append(match.pk)
    if matches:
        league_activity_changed(schedule.league_id)  # new fixtures on the league page
    return made


def tell_published(league: League, planned: Sequence[Planned], *, actor) -> None:
    """Tell every coach with a match in the `planned` rounds just published (once each; `actor` None: a round
    nobody published, the bracket's next one) — `matches.notices.round_published`, in the caller's transaction."""
    team_ids = {team for p in planned for pairing in p.pairings for team in pairing.teams}
    rounds = [(p.number, p.starts, p.deadline) for p in planned if p.pairings]
    notices.round_published(league, actor=actor, rounds=rounds, team_ids=team_ids)


def rounds_answer(planned: Sequence[Planned], made: dict[int, list[int]] | None) -> list[dict]:
    return [
        round_out(
            p.number,
            p.starts,
            p.deadline,
            made[p.number] if made is not None else [{"teams": list(x.teams)} for x in p.pairings],
            p.byes,
            p.kind,
        )
        for p in planned
    ]


def new_schedule(league, user, format, start, teams, days_per_round, legs=1) -> Schedule:
    """An unsaved schedule of the open season (saved when it is published, never in a preview)."""
    return Schedule(
        league=league,
        season=league.season,
        format=format,
        legs=legs,
        days_per_round=days_per_round,
        start=start,
        teams=teams,
        created_by=user,
    )


def planned_knockout(rnd: KnockoutRound) -> Planned:
    return Planned(rnd.number, rnd.starts, rnd.deadline, rnd.pairings, rnd.byes, rnd.kind, rnd.slots)
