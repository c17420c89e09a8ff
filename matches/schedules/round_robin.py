"""A round robin's plan: all its rounds at once — of the league's teams, or one per division (`per_division`,
or `division` for one of them), rounds aligned by date, no team meeting another
division's."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns import scheduling
from campaigns.errors import RuleViolation
from campaigns.scheduling import Round
from league.models import Division
from matches.models import Schedule
from matches.schedules.base import (
    Planned,
    check_start,
    keep_consecutive_rule,
    league_teams,
    new_schedule,
    previous_opponents,
)
from teams.models import Team


def plan_round_robin(
    league, user, start, teams, legs, days_per_round, limit, *, per_division=False, division=None
) -> tuple[Schedule, list[Planned]]:
    start = check_start(start)
    if isinstance(legs, bool) or legs not in (1, 2):
        raise RuleViolation("A round robin has one leg or two.", field="legs")
    if not isinstance(per_division, bool):
        raise RuleViolation("per_division is true or false.", field="per_division")
    if per_division or division is not None:
        if teams is not None:
            raise RuleViolation("A division's round robin draws its own teams: list no teams.", field="teams")
        if per_division and division is not None:
            raise RuleViolation("Every division's round robin, or one division's: one of them.", field="division")
        groups = division_teams(league, division)
        ids = [t for group in groups.values() for t in group]
        previous = previous_opponents(league, ids, limit=limit)
        for division_id, group in groups.items():
            enough_ready(league, group, legs=legs, limit=limit, previous=previous, division=division_id)
        rounds = merged_rounds(
            scheduling.division_round_robins(
                {str(d): group for d, group in groups.items()},
                legs=legs,
                start=start,
                days_per_round=days_per_round,
                limit=limit,
                previous=previous,
            ).values()
        )
    else:
        ids = [t.pk for t in league_teams(league, teams)]
        previous = previous_opponents(league, ids, limit=limit)
        if teams is None:  # the teams ready to play are drawn: too few is refused naming the others
            enough_ready(league, ids, legs=legs, limit=limit, previous=previous)
        rounds = scheduling.round_robin(
            ids, legs=legs, start=start, days_per_round=days_per_round, limit=limit, previous=previous
        ).rounds
    keep_consecutive_rule(rounds, limit=limit, previous=previous)
    schedule = new_schedule(league, user, Schedule.Format.ROUND_ROBIN, start, ids, days_per_round, legs=legs)
    planned = [Planned(r.number, r.starts, r.deadline, r.pairings, r.byes) for r in rounds]
    return schedule, planned


def division_teams(league, division: object) -> dict[int, list[int]]:
    """Division id → its teams that have left creation (in the order they were founded): every division of the
    league, or only `division`. Two queries (the caller checks each has enough: `enough_ready`)."""
    if division is not None and (isinstance(division, bool) or not isinstance(division, int)):
        raise RuleViolation("Name the division by its id.", field="division")
    divisions = Division.objects.filter(league=league)
    ids = list((divisions if division is None else divisions.filter(pk=division)).values_list("pk", flat=True))
    if not ids:
        if division is not None:
            raise RuleViolation(f"Division {division} is not a division of this league.", field="division")
        raise RuleViolation("The league has no divisions: split its teams into divisions first.", field="per_division")
    groups: dict[int, list[int]] = {d: [] for d in ids}
    ready = Team.objects.filter(league=league, division_id__in=ids, creation_closed_at__isnull=False)
    for division_id, team_id in ready.order_by("pk").values_list("division_id", "pk"):
        groups[division_id].append(team_id)
    return groups


def enough_ready(
    league, ready: list[int], *, legs: int, limit: int | None, previous: dict, division: int | None = None
) -> None:
    """Refuse, in words, a round robin drawn from too few teams ready to play (the league's, or `division`'s):
    how many are ready, how many it needs (`scheduling.teams_needed`: two, or three when two alone would break
    the consecutive rule, and why), which teams are not ready yet and how one gets ready. Asks the database only
    when refusing (two queries)."""
    needed = scheduling.teams_needed(ready, legs=legs, limit=limit, previous=previous)
    if len(ready) >= needed:
        return
    teams = Team.objects.filter(league=league) if division is None else Team.objects.filter(division_id=division)
    rows = list(teams.order_by("pk").values_list("pk", "name", "creation_closed_at"))
    names = {pk: name for pk, name, _closed in rows}
    waiting = [name for _pk, name, closed in rows if closed is None]
    if division is None:
        of = _("the league")
    else:
        of = _("division {name}").format(name=Division.objects.filter(pk=division).values_list("name", flat=True)[0])
    if ready:
        words = ngettext(
            "Only {count} team of {of} is ready to play ({names})",
            "Only {count} teams of {of} are ready to play ({names})",
            len(ready),
        ).format(count=len(ready), of=of, names=", ".join(names[t] for t in ready))
    else:
        words = _("No team of {of} is ready to play").format(of=of)
    if needed > 2:
        run = scheduling.pair_run(ready[0], ready[1], legs=legs, previous=previous)
        words += _(
            ": a round robin needs {needed} (two teams alone would meet {run} times in a row, and the rules allow "
            "{limit} at most)."
        ).format(needed=needed, run=run, limit=limit)
    else:
        words += _(": a round robin needs {needed}.").format(needed=needed)
    if waiting:
        words += " " + _("Not ready yet (still in creation): {names}.").format(names=", ".join(waiting))
    if division is None:
        words += " " + _(
            "A coach declares his team ready on its team sheet; or list the teams to schedule (a listed team "
            "leaves creation)."
        )
    else:
        words += " " + _("A coach declares his team ready on its team sheet.")
    raise RuleViolation(words, field="teams" if division is None else "division")


def merged_rounds(schedules) -> tuple[Round, ...]:
    """The divisions' round robins as one schedule: round n holds every division's round n (all start on the
    same day: the same start and round length), the divisions' byes together."""
    per = [s.rounds for s in schedules]
    merged = []
    for number in range(1, max(len(rounds) for rounds in per) + 1):
        parts = [rounds[number - 1] for rounds in per if len(rounds) >= number]
        merged.append(
            Round(
                number,
                parts[0].starts,
                parts[0].deadline,
                tuple(p for r in parts for p in r.pairings),
                tuple(b for r in parts for b in r.byes),
            )
        )
    return tuple(merged)
