"""The generated schedules: each `Schedule` with its `ScheduleRound`s, read before the
matches, which name their round (`schedule_round`). Every field is checked where it is (a round's deadline
before its start is refused at `schedules[0].rounds[2].deadline`); the team ids a schedule holds (its teams in
seeding order, the withdrawn ones, each round's byes and a knockout's slots) are mapped to the new teams, and
every round's id to its new round, so the bracket and the fixtures show the same rounds. One bulk insert of
the chunk's schedules (and one update of their timestamps), one of their rounds."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from dugout.importer.checks import a_list, bad, day, field, integer, text, timestamp
from dugout.importer.state import ImportState, create_stamped
from matches.models import Match, Schedule, ScheduleRound
from matches.schedules import FORMATS, MAX_DAYS_PER_ROUND

#: A round's kind: a knockout round's playoff or final, or none (a round robin's, a Swiss').
ROUND_KINDS = ("", *Match.Kind.values)


def _teams(state: ImportState, record: Any, path: str, name: str, within: set[int] | None = None) -> list[int]:
    """A list of team ids of the document, each once (and, given `within`, of those), as the new teams' ids."""
    team = state.team_ref(null=False)
    found: list[int] = []
    for i, value in enumerate(field(record, path, name, a_list, [])):
        here = f"{path}.{name}[{i}]"
        new = team(value, here)
        if new in found:
            raise bad(here, "A team is listed once.")
        if within is not None and new not in within:
            raise bad(here, "Not a team of this schedule.")
        found.append(new)
    return found


def _slots(state: ImportState, record: Any, path: str, within: set[int]) -> list:
    """A knockout round's slots in bracket order: [home, away] for a match, a team id for a bye."""
    team = state.team_ref(null=False)
    slots: list = []
    for i, slot in enumerate(field(record, path, "slots", a_list, [])):
        here = f"{path}.slots[{i}]"
        if isinstance(slot, list):
            if len(slot) != 2:
                raise bad(here, "A match's slot is [home, away].")
            pair = [team(value, f"{here}[{j}]") for j, value in enumerate(slot)]
            for j, new in enumerate(pair):
                if new not in within:
                    raise bad(f"{here}[{j}]", "Not a team of this schedule.")
            slots.append(pair)
        else:
            new = team(slot, here)
            if new not in within:
                raise bad(here, "Not a team of this schedule.")
            slots.append(new)
    return slots


def _rounds(state: ImportState, record: Any, path: str, schedule: Schedule, seen: set[int]) -> list:
    within = {*schedule.teams, *schedule.withdrawn}
    rounds, numbers = [], set()
    for i, rnd in enumerate(field(record, path, "rounds", a_list, [])):
        here = f"{path}.rounds[{i}]"
        old = field(rnd, here, "id", integer(None))
        if old in state.rounds or old in seen:
            raise bad(f"{here}.id", "Two schedule rounds have this id.")
        seen.add(old)
        number = field(rnd, here, "number", integer(1, 32767))
        if number in numbers:
            raise bad(f"{here}.number", "Two rounds of a schedule have this number.")
        numbers.add(number)
        starts = field(rnd, here, "starts", day)
        deadline = field(rnd, here, "deadline", day)
        if deadline < starts:
            raise bad(f"{here}.deadline", "A round's last day is not before its first.")
        kind = field(rnd, here, "kind", text(choices=ROUND_KINDS), "")
        byes = _teams(state, rnd, here, "byes", within)
        slots = _slots(state, rnd, here, within)
        rounds.append(
            (old, ScheduleRound(starts=starts, deadline=deadline, number=number, kind=kind, byes=byes, slots=slots))
        )
    return rounds


def read_schedules(state: ImportState, chunk: list[tuple[str, Any]]) -> None:
    schedules, rounds, seen = [], [], set()
    for path, record in chunk:
        old = field(record, path, "id", integer(None))
        if old in state.schedule_ids:
            raise bad(f"{path}.id", "Two schedules have this id.")
        state.schedule_ids.add(old)
        season = field(record, path, "season", integer(1, 32767))
        state.match_seasons.setdefault(season, f"{path}.season")
        format = field(record, path, "format", text(choices=FORMATS))
        if (season, format) in state.schedule_formats:
            raise bad(f"{path}.format", "A season has one schedule of each format.")
        state.schedule_formats.add((season, format))
        teams = _teams(state, record, path, "teams")
        withdrawn = _teams(state, record, path, "withdrawn")
        both = [i for i, t in enumerate(withdrawn) if t in teams]
        if both:
            raise bad(f"{path}.withdrawn[{both[0]}]", "A team is in the schedule or withdrawn from it, not both.")
        field(record, path, "created_by", state.user_ref, None)  # a user: the importing one
        schedule = Schedule(
            league=state.league,
            season=season,
            format=format,
            legs=field(record, path, "legs", integer(1, 2), 1),
            days_per_round=field(record, path, "days_per_round", integer(1, MAX_DAYS_PER_ROUND), 7),
            start=field(record, path, "start", day),
            teams=teams,
            withdrawn=withdrawn,
            created_by=state.user,
            created_at=field(record, path, "created_at", timestamp(null=True), None) or timezone.now(),
        )
        schedules.append(schedule)
        rounds += [(old, schedule, r) for old, r in _rounds(state, record, path, schedule, seen)]
    create_stamped(Schedule, schedules, ("created_at",))
    for _, schedule, rnd in rounds:
        rnd.schedule_id = schedule.pk
    created = ScheduleRound.objects.bulk_create([r for _, _, r in rounds])
    for (old, schedule, _), rnd in zip(rounds, created, strict=True):
        state.rounds[old] = rnd.pk
        state.round_seasons[rnd.pk] = schedule.season
