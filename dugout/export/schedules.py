"""The export's generated schedules (matches/schedules.py makes them): each `Schedule` of
the league, oldest season first, with its `ScheduleRound`s in their order — the format, legs, days per round,
start, the teams still in it in seeding order and the withdrawn ones; each round's dates, byes, kind and, for a
knockout, its slots in bracket order ([home, away] for a match, a team id for a bye). The matches name their
round (`schedule_round`, a round's id here), which is how the bracket and the fixtures find them again.

Two queries whatever the number of schedules and rounds (the rounds through one cursor)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING

from dugout.export.columns import columns, fields_of, row_writer
from dugout.export.encoding import json_array
from matches.models import Schedule, ScheduleRound

if TYPE_CHECKING:
    from dugout.export.sections import Context

#: A schedule as the export records it (its creator as a user id, like every user of the document).
SCHEDULE_FIELDS = fields_of(
    Schedule,
    ("id", "season", "format", "legs", "days_per_round", "start", "teams", "withdrawn", "created_by", "created_at"),
)
#: One of its rounds.
ROUND_FIELDS = fields_of(ScheduleRound, ("id", "number", "starts", "deadline", "kind", "byes", "slots"))


def schedules_section(ctx: Context) -> Iterator[bytes]:
    """The league's schedules (season, then the order they were made), each with its rounds by number."""
    return json_array(_schedules(ctx), ctx.limits.batch // 10 or 1)


def _schedules(ctx: Context) -> Iterator[dict]:
    schedule_out, round_out = row_writer(SCHEDULE_FIELDS), row_writer(ROUND_FIELDS)
    rounds: dict[int, list[dict]] = defaultdict(list)
    rows = (
        ScheduleRound.objects.filter(schedule__league=ctx.league)
        .order_by("schedule_id", "number")
        .values_list("schedule_id", *columns(ROUND_FIELDS))
    )
    for row in rows.iterator(chunk_size=ctx.limits.chunk):
        rounds[row[0]].append(round_out(row[1:]))
    schedules = (
        Schedule.objects.filter(league=ctx.league).order_by("season", "id").values_list(*columns(SCHEDULE_FIELDS))
    )
    for row in schedules:
        doc = schedule_out(row)
        doc["start"] = doc["start"].isoformat()
        for rnd in rounds.get(doc["id"], ()):
            rnd["starts"], rnd["deadline"] = rnd["starts"].isoformat(), rnd["deadline"].isoformat()
        doc["rounds"] = rounds.get(doc["id"], [])
        yield doc
