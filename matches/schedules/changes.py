"""A team withdraws from a round robin or Swiss, or joins one late."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns import scheduling
from campaigns.errors import NotPermitted, RuleViolation
from campaigns.scheduling import Pairing, Round
from league.audit import audit_record, reason_text, reason_with
from league.models import League, league_activity_changed
from teams.models import LedgerEntry, Team

from .. import lifecycle, policy
from ..locks import lock_teams
from ..models import Match, MatchTeam, Schedule, ScheduleRound
from .base import (
    Planned,
    ScheduleConflict,
    close_creation,
    previous_opponents,
    publish,
    publish_matches,
)
from .reads import schedule_rounds_out


def _stored(schedule: Schedule) -> tuple[scheduling.Schedule, list[ScheduleRound], dict[int, list]]:
    """The published schedule as the pure layer's Schedule, its round rows and each round's matches (id, status,
    pairing) by round number — three queries."""
    rows = list(schedule.rounds.order_by("number"))
    by_match: dict[int, list[int]] = {}
    status: dict[int, tuple[int, str]] = {}
    for match_id, team_id, number, match_status in (
        MatchTeam.objects.filter(match__schedule_round__schedule=schedule)
        .order_by("match_id", "order")
        .values_list("match_id", "team_id", "match__round", "match__status")
    ):
        by_match.setdefault(match_id, []).append(team_id)
        status[match_id] = (number, match_status)
    matches: dict[int, list] = {r.number: [] for r in rows}
    for match_id, teams in by_match.items():
        number, match_status = status[match_id]
        matches[number].append((match_id, match_status, Pairing(*teams)))
    rounds = tuple(
        Round(r.number, r.starts, r.deadline, tuple(p for _i, _s, p in matches[r.number]), tuple(r.byes)) for r in rows
    )
    pure = scheduling.Schedule(
        teams=tuple(schedule.teams), legs=schedule.legs, days_per_round=schedule.days_per_round, rounds=rounds
    )
    return pure, rows, matches


def _changeable(league_id: int, user: AbstractBaseUser, format: object) -> tuple[League, Schedule]:
    if format not in (Schedule.Format.ROUND_ROBIN, Schedule.Format.SWISS):
        raise RuleViolation(
            "A team withdraws from or joins a round robin or a Swiss (in a knockout it forfeits its match).",
            field="format",
        )
    league = League.objects.select_for_update().get(pk=league_id)
    if not policy.may_publish_schedule(user, league):
        raise NotPermitted("Only the commissioner changes the league's schedules.")
    schedule = Schedule.objects.filter(league=league, season=league.season, format=format).first()
    if schedule is None:
        raise ScheduleConflict(f"Season {league.season} has no {Schedule.Format(format).label.lower()} to change.")
    return league, schedule


def _team_id(team: object) -> int:
    if isinstance(team, bool) or not isinstance(team, int):
        raise RuleViolation("Name the team by its id.", field="team")
    return team


def schedule_withdraw(
    *,
    user: AbstractBaseUser,
    league_id: int,
    team: int,
    format: str = Schedule.Format.ROUND_ROBIN,
    reason: object = "",
) -> dict:
    """A team leaves the open season's round robin (or Swiss): its matches not played yet are deleted and each of
    their opponents rests that round instead (a bye); its final results stand. Refused (409) while one of its
    results waits for confirmation or a ruling. Commissioner only; audited. Answers the schedule's rounds."""
    team = _team_id(team)
    with transaction.atomic():
        league, schedule = _changeable(league_id, user, format)
        reason = reason_text(reason)
        if team not in schedule.teams:
            raise RuleViolation("That team is not in this schedule.", field="team")
        pure, rows, matches = _stored(schedule)
        mine = [(mid, st, p) for ms in matches.values() for mid, st, p in ms if team in p.teams]
        waiting = next((mid for mid, st, _p in mine if st in lifecycle.WAITING), None)
        if waiting is not None:
            raise ScheduleConflict(f"Match {waiting} has a result waiting: confirm, correct or reject it first.")
        played = [p for _mid, st, p in mine if st == Match.Status.FINAL]
        changed = scheduling.withdraw(pure, team, played=played)
        dropped = [mid for mid, st, _p in mine if st != Match.Status.FINAL]
        spent = LedgerEntry.objects.filter(match_id__in=dropped).order_by("match_id").values("match_id").first()
        if spent is not None:  # the ledger keeps its entries and what they belong to
            raise ScheduleConflict(
                f"Match {spent['match_id']}'s pre-match sequence has moved gil: record a forfeit for it first."
            )
        lock_teams([team])
        Match.objects.filter(pk__in=dropped).delete()
        league_activity_changed(league.pk)  # its fixtures leave the league page
        for row, rnd in zip(rows, changed.rounds, strict=True):
            row.byes = list(rnd.byes)
        ScheduleRound.objects.bulk_update(rows, ["byes"])
        schedule.teams = list(changed.teams)
        schedule.withdrawn = [*schedule.withdrawn, team]
        schedule.save(update_fields=["teams", "withdrawn"])
        audit_record(
            league=league,
            actor=user,
            action="schedule",
            target=f"schedule {schedule.pk}",
            before={"teams": list(pure.teams)},
            after={"teams": list(changed.teams), "withdrawn": team, "matches_removed": dropped},
            reason=reason_with(f"Team {team} withdrew", reason),
        )
    return {"id": schedule.pk, "format": schedule.format, "rounds": schedule_rounds_out(schedule)}


def schedule_add_team(
    *,
    user: AbstractBaseUser,
    league_id: int,
    team: int,
    from_round: int | None = None,
    format: str = Schedule.Format.ROUND_ROBIN,
    reason: object = "",
) -> dict:
    """A team joins the open season's round robin late: from `from_round` (default: the first round whose
    deadline has not passed) it plays the teams resting in each round, and what it still owes goes into rounds
    added after the last (campaigns/scheduling/changes.py); no fixture already published moves. In a Swiss it
    is paired from the next round on. Commissioner only; audited. Answers the schedule's rounds."""
    team = _team_id(team)
    with transaction.atomic():
        league, schedule = _changeable(league_id, user, format)
        reason = reason_text(reason)
        found = Team.objects.filter(league=league, pk=team).first()
        if found is None:
            raise RuleViolation("That team is not a team of this league.", field="team")
        if team in schedule.teams or team in schedule.withdrawn:
            raise RuleViolation("That team is already in this schedule (or withdrew from it).", field="team")
        lock_teams([team])
        if schedule.format == Schedule.Format.SWISS:
            schedule.teams = [*schedule.teams, team]
            schedule.save(update_fields=["teams"])
            added: list[int] = []
        else:
            added = _add_to_round_robin(league, schedule, team, from_round, user)
        close_creation([team])
        audit_record(
            league=league,
            actor=user,
            action="schedule",
            target=f"schedule {schedule.pk}",
            before=None,
            after={"joined": team, "matches_added": added},
            reason=reason_with(f"Team {team} joined late", reason),
        )
    return {"id": schedule.pk, "format": schedule.format, "rounds": schedule_rounds_out(schedule)}


def _add_to_round_robin(league: League, schedule: Schedule, team: int, from_round: object, user) -> list[int]:
    pure, rows, _matches = _stored(schedule)
    division_of = dict(Team.objects.filter(pk__in=pure.teams).values_list("pk", "division_id"))
    pairs = [p for r in pure.rounds for p in r.pairings]
    within = all(division_of.get(p.teams[0]) == division_of.get(p.teams[1]) for p in pairs)
    if pairs and within and len({division_of.get(t) for t in pure.teams}) > 1:
        # H (docs/decisions/ "Divisions"): joining late would pair the team with other divisions' resting teams.
        raise ScheduleConflict("This round robin is played per division: a team cannot join it late.")
    if from_round is None:
        today = timezone.localdate()
        from_round = next((r.number for r in rows if r.deadline >= today), (rows[-1].number + 1) if rows else 1)
    elif isinstance(from_round, bool) or not isinstance(from_round, int):
        raise RuleViolation("The first round is a round number.", field="from_round")
    limit = league.rules.max_consecutive_meetings(league.house_rules)
    previous = previous_opponents(league, [*pure.teams, team], limit=limit, exclude=schedule)
    changed = scheduling.add_late_team(pure, team, from_round=from_round, limit=limit, previous=previous)
    old = {r.number: r for r in pure.rounds}
    by_number = {r.number: r for r in rows}
    touched, new_rounds = [], []
    for rnd in changed.rounds:
        before = old.get(rnd.number)
        fresh = tuple(p for p in rnd.pairings if before is None or p not in before.pairings)
        planned = Planned(rnd.number, rnd.starts, rnd.deadline, fresh, rnd.byes)
        if before is None:
            new_rounds.append(planned)
        else:
            row = by_number[rnd.number]
            row.byes = list(rnd.byes)
            touched.append((row, planned))
    ScheduleRound.objects.bulk_update([row for row, _p in touched], ["byes"])
    schedule.teams = list(changed.teams)
    schedule.save(update_fields=["teams"])
    tests_to_win = league.house_rules.get("tests_to_win")
    made = publish_matches(
        schedule, [(r, p) for r, p in touched if p.pairings], author=user.pk, tests_to_win=tests_to_win
    )
    if new_rounds:
        made.update(publish(schedule, new_rounds, author=user.pk))
    return sorted(mid for ids in made.values() for mid in ids)
