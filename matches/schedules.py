"""Generated schedules (issue 13, "Schedules"; contract: docs api-v1 "Contract additions (v1.1)"): the pure
generators of campaigns/scheduling/ turned into matches of the league's open season.

- `schedule_generate`: a round robin (all its rounds at once), a knockout's first round, or a Swiss' next round
  — previewed (nothing written) or published: a `Schedule` with its `ScheduleRound`s and their matches (each
  with `season`, `round`, `scheduled_for` = the round's start and `deadline` = start + `days_per_round`), made in
  bulk (a constant number of queries whatever the number of teams) and an audit entry (action "schedule").
- `schedule_round_final`: the hook the confirm and forfeit services call once a match is final; when that
  match closes a knockout round, the bracket's next round is created (a drawn knockout match: the better seed
  goes through — H, docs/decisions.md "Generated schedules as matches").
- `schedule_withdraw`, `schedule_add_team`: a team leaves a round robin or Swiss (its unplayed matches become
  byes) or joins one late (its matches added to the remaining rounds).
- Reads for the API and the pages: `schedule_rounds_out`, `league_schedules`, `league_bracket`.

Blitz Bowl's "not three in a row against the same team" (R, ../shared/rules/blitzbowl.md "League") holds for
everything generated here: the pairs are checked with `consecutive_violations` against each team's recent
opponents (one query) and a schedule that cannot keep it is refused in words.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns import scheduling
from campaigns.errors import Conflict, NotPermitted, RuleViolation
from campaigns.scheduling import KnockoutRound, Pairing, Round
from league.audit import audit_record, reason_text, reason_with
from league.models import League, league_activity_changed
from teams.models import LedgerEntry, Team

from . import lifecycle, policy
from .locks import lock_teams
from .models import Match, MatchTeam, Schedule, ScheduleRound

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


# --- reads -----------------------------------------------------------------------------------------------------


def _round_out(number: int, starts: dt.date, deadline: dt.date, matches: list, byes: Sequence[int], kind: str) -> dict:
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
    return [_round_out(r.number, r.starts, r.deadline, ids[r.pk], r.byes, r.kind) for r in rounds]


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


def league_bracket(*, league: League, season: int | None = None) -> dict:
    """The season's knockout as `GET /leagues/{id}/bracket/` answers it: `{rounds: [{round, kind, starts,
    deadline, matches: [{id, teams, winner, status}], byes}], champion, seeds, names}` (the champion: the
    final's winner, once final; `names` team id → name). An empty bracket when the season has no knockout.
    Four queries."""
    listed = league_schedules(league=league, season=season, format=Schedule.Format.KNOCKOUT)
    if not listed:
        return {"rounds": [], "champion": None, "seeds": [], "names": {}}
    seeds = listed[0]["teams"]
    champion = None
    rounds = []
    for rnd in listed[0]["rounds"]:
        matches = []
        for m in rnd["matches"]:
            winner = next((t["id"] for t in m["teams"] if t["outcome"] == MatchTeam.Outcome.WIN), None)
            if winner is None and m["status"] == Match.Status.FINAL:  # a draw: the better seed goes through
                winner = _better_seed(seeds, [t["id"] for t in m["teams"]])
            matches.append(
                {"id": m["id"], "teams": [t["id"] for t in m["teams"]], "winner": winner, "status": m["status"]}
            )
            if rnd["kind"] == Match.Kind.FINAL and m["status"] == Match.Status.FINAL:
                champion = winner
        rounds.append(
            {
                "round": rnd["round"],
                "kind": rnd["kind"],
                "starts": rnd["starts"].isoformat(),
                "deadline": rnd["deadline"].isoformat(),
                "matches": matches,
                "byes": [b["id"] for b in rnd["byes"]],
            }
        )
    names = {t["id"]: t["name"] for rnd in listed[0]["rounds"] for m in rnd["matches"] for t in m["teams"]}
    names.update({b["id"]: b["name"] for rnd in listed[0]["rounds"] for b in rnd["byes"]})
    return {"rounds": rounds, "champion": champion, "seeds": list(seeds), "names": names}


def _better_seed(seeds: Sequence[int], teams: Sequence[int]) -> int:
    rank = {t: i for i, t in enumerate(seeds)}
    return min(teams, key=lambda t: rank.get(t, len(rank)))


# --- helpers ---------------------------------------------------------------------------------------------------


def _day_start(day: dt.date) -> dt.datetime:
    """Midnight at the start of `day`, in the site's time zone."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def _check_days(days_per_round: object) -> int:
    if isinstance(days_per_round, bool) or not isinstance(days_per_round, int):
        raise RuleViolation("The days per round are a whole number.", field="days_per_round")
    if not 1 <= days_per_round <= MAX_DAYS_PER_ROUND:
        raise RuleViolation(f"A round lasts 1 to {MAX_DAYS_PER_ROUND} days.", field="days_per_round")
    return days_per_round


def _check_start(start: object) -> dt.date:
    if not isinstance(start, dt.date):
        raise RuleViolation("Give the first round's start, a date (YYYY-MM-DD).", field="start")
    return start


def _league_teams(league: League, listed: object) -> list[Team]:
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


def _previous_opponents(
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


def _keep_consecutive_rule(rounds: Sequence[Round], *, limit: int | None, previous: dict) -> None:
    found = scheduling.consecutive_violations(rounds, limit=limit, previous=previous)
    if found:
        v = found[0]
        raise RuleViolation(
            f"Round {v.round} would make team {v.team} meet team {v.opponent} {v.run} times in a row; the rules "
            f"allow {limit} at most.",
            field="teams",
        )


def _close_creation(team_ids: Iterable[int]) -> None:
    """H (as match_schedule): a team is in creation until its first match is scheduled."""
    Team.objects.filter(pk__in=list(team_ids), creation_closed_at__isnull=True).update(
        creation_closed_at=timezone.now()
    )


def _publish(schedule: Schedule, planned: Sequence[Planned], *, author: int) -> dict[int, list[int]]:
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
    return _publish_matches(schedule, list(zip(rows, planned, strict=True)), author=author, tests_to_win=tests_to_win)


def _publish_matches(
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
                    scheduled_for=_day_start(row.starts),
                    deadline=_day_start(row.starts + dt.timedelta(days=schedule.days_per_round)),
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


def _answer(planned: Sequence[Planned], made: dict[int, list[int]] | None) -> list[dict]:
    return [
        _round_out(
            p.number,
            p.starts,
            p.deadline,
            made[p.number] if made is not None else [{"teams": list(x.teams)} for x in p.pairings],
            p.byes,
            p.kind,
        )
        for p in planned
    ]


def _new_schedule(league, user, format, start, teams, days_per_round, legs=1) -> Schedule:
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


def _planned_knockout(rnd: KnockoutRound) -> Planned:
    return Planned(rnd.number, rnd.starts, rnd.deadline, rnd.pairings, rnd.byes, rnd.kind, rnd.slots)


# --- services --------------------------------------------------------------------------------------------------


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
    reason: object = "",
) -> dict:
    """Generate the open season's `format` schedule (round robin: every round; knockout: the bracket's first
    round; Swiss: the next round) and, unless `preview`, publish it. Answers `{id, format, season, preview,
    rounds: [{round, starts, deadline, kind, matches, bye, byes}]}` — in a preview each match is `{teams: [home,
    away]}` and nothing is written. Commissioner only."""
    if format not in FORMATS:
        raise RuleViolation(f"The format is one of {', '.join(FORMATS)}.", field="format")
    days_per_round = _check_days(days_per_round)
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
            schedule, planned = _plan_round_robin(league, user, start, teams, legs, days_per_round, limit)
        elif format == Schedule.Format.KNOCKOUT:
            schedule, planned = _plan_knockout(league, user, start, teams, from_standings, days_per_round, limit)
        else:
            schedule, planned = _plan_swiss(league, user, existing, start, teams, days_per_round, limit)
        answer = {"id": None, "format": format, "season": league.season, "preview": bool(preview)}
        if preview:
            return {**answer, "rounds": _answer(planned, None)}
        team_ids = sorted({t for p in planned for x in p.pairings for t in x.teams} | set(schedule.teams))
        lock_teams(team_ids)
        if schedule.pk is None:
            schedule.save()
        made = _publish(schedule, planned, author=user.pk)
        _close_creation(team_ids)
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
    return {**answer, "id": schedule.pk, "rounds": _answer(planned, made)}


def _plan_round_robin(league, user, start, teams, legs, days_per_round, limit) -> tuple[Schedule, list[Planned]]:
    start = _check_start(start)
    if isinstance(legs, bool) or legs not in (1, 2):
        raise RuleViolation("A round robin has one leg or two.", field="legs")
    ids = [t.pk for t in _league_teams(league, teams)]
    previous = _previous_opponents(league, ids, limit=limit)
    generated = scheduling.round_robin(
        ids, legs=legs, start=start, days_per_round=days_per_round, limit=limit, previous=previous
    )
    _keep_consecutive_rule(generated.rounds, limit=limit, previous=previous)
    schedule = _new_schedule(league, user, Schedule.Format.ROUND_ROBIN, start, ids, days_per_round, legs=legs)
    planned = [Planned(r.number, r.starts, r.deadline, r.pairings, r.byes) for r in generated.rounds]
    return schedule, planned


def _plan_knockout(league, user, start, teams, from_standings, days_per_round, limit):
    from .selectors import league_standings

    start = _check_start(start)
    if (teams is None) == (from_standings is None):
        raise RuleViolation("Seed the knockout from a list of teams or from the standings, one of them.", field="teams")
    if teams is not None:
        seeds = [t.pk for t in _league_teams(league, teams)]
    else:
        if isinstance(from_standings, bool) or not isinstance(from_standings, int):
            raise RuleViolation("Take a whole number of teams from the standings.", field="from_standings")
        table = [row["team"] for row in league_standings(league=league)]
        try:
            seeds = scheduling.seeds_from_standings(table, from_standings)
        except RuleViolation as exc:
            raise RuleViolation(exc.message, field="from_standings") from exc
    first = scheduling.knockout(seeds, start=start, days_per_round=days_per_round)
    previous = _previous_opponents(league, seeds, limit=limit)
    _keep_consecutive_rule([Round(1, first.starts, first.deadline, first.pairings)], limit=limit, previous=previous)
    schedule = _new_schedule(league, user, Schedule.Format.KNOCKOUT, start, seeds, days_per_round)
    return schedule, [_planned_knockout(first)]


def _plan_swiss(league, user, existing, start, teams, days_per_round, limit):
    from .selectors import league_standings

    if existing is None:
        start = _check_start(start)
        ids = [t.pk for t in _league_teams(league, teams)]
        schedule = _new_schedule(league, user, Schedule.Format.SWISS, start, ids, days_per_round)
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
        start = _check_start(start)
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
    previous = _previous_opponents(league, ids, limit=limit)
    _keep_consecutive_rule([Round(number, nxt.starts, nxt.deadline, nxt.pairings)], limit=limit, previous=previous)
    byes = (nxt.bye,) if nxt.bye is not None else ()
    return schedule, [Planned(number, nxt.starts, nxt.deadline, nxt.pairings, byes)]


def schedule_round_final(match: Match) -> None:
    """The hook of the confirm and forfeit services (inside their transaction, once `match` is final): when the
    match closes a knockout round, the bracket's next round is created (its matches by the schedule's
    publisher). Nothing — and no query — for a match not generated by a schedule."""
    if match.schedule_round_id is None:
        return
    # The round's row is locked so two results closing the same round at once create the next round once.
    rnd = (
        ScheduleRound.objects.select_for_update(of=("self",)).select_related("schedule").get(pk=match.schedule_round_id)
    )
    schedule = rnd.schedule
    if schedule.format != Schedule.Format.KNOCKOUT or rnd.kind == Match.Kind.FINAL:
        return
    if ScheduleRound.objects.filter(schedule=schedule, number=rnd.number + 1).exists():
        return
    sides: dict[int, list[MatchTeam]] = {}
    statuses = {}
    for side in MatchTeam.objects.filter(match__schedule_round=rnd).select_related("match").order_by("order"):
        sides.setdefault(side.match_id, []).append(side)
        statuses[side.match_id] = side.match.status
    if any(status != Match.Status.FINAL for status in statuses.values()):
        return
    winners = []
    for teams in sides.values():
        won = [s.team_id for s in teams if s.outcome == MatchTeam.Outcome.WIN]
        winners.append(won[0] if won else _better_seed(schedule.teams, [s.team_id for s in teams]))
    previous = KnockoutRound(
        rnd.number,
        rnd.starts,
        rnd.deadline,
        schedule.days_per_round,
        rnd.kind or Match.Kind.PLAYOFF,
        tuple(Pairing(*slot) if isinstance(slot, list) else slot for slot in rnd.slots),
        tuple(schedule.teams),
    )
    nxt = scheduling.next_round(previous, winners)
    _publish(schedule, [_planned_knockout(nxt)], author=schedule.created_by_id)


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
        _close_creation([team])
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
    if from_round is None:
        today = timezone.localdate()
        from_round = next((r.number for r in rows if r.deadline >= today), (rows[-1].number + 1) if rows else 1)
    elif isinstance(from_round, bool) or not isinstance(from_round, int):
        raise RuleViolation("The first round is a round number.", field="from_round")
    limit = league.rules.max_consecutive_meetings(league.house_rules)
    previous = _previous_opponents(league, [*pure.teams, team], limit=limit, exclude=schedule)
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
    made = _publish_matches(
        schedule, [(r, p) for r, p in touched if p.pairings], author=user.pk, tests_to_win=tests_to_win
    )
    if new_rounds:
        made.update(_publish(schedule, new_rounds, author=user.pk))
    return sorted(mid for ids in made.values() for mid in ids)
