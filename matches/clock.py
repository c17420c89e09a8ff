"""The league clock: reminders to both coaches of a match two days before its deadline
and on the day, each given once, and the read of the matches past their deadline (overdue) that the
commissioner's queue shows. Celery beat runs `clock_tick` every ten minutes (dugout.tasks.league_clock_tick);
each tick first does what the league's house rules ask when nobody acts (matches/clock_acts.py: results
confirmed, unplayed matches forfeited, passed deadlines announced), so "after N hours" holds within minutes.

When a reminder falls due, in the league's own time zone: the deadline's day is the local date of the last
moment before the deadline (a deadline at midnight belongs to the day that ends there); the day's reminder is
due at REMINDER_HOUR local that day, the other at the same hour two days earlier. A deadline that comes before
REMINDER_HOUR on its day moves both to the start of their days. The two-day reminder is due on its own day only,
the day's from its hour to the deadline: a deadline set the day before is reminded once, on the day, never with
a late "in two days".

A reminder is a `deadline_soon` notification (matches/notices.py), so the coach's choices and the one
notifications outbox decide whether it is also mailed or pushed. `MatchReminder` (one row per coach, kind and
deadline) stays the guard that gives it once: rows are written when due (a unique row: a second tick, or a
second worker, writes none), then claimed by a conditional update in the transaction that writes the
notification — never given twice. A moved deadline is a new deadline, reminded again; a row whose deadline
passed (or moved, or whose match was played) before it went out is expired, not given. (`sending` was the state
of a row being mailed by the clock itself, before reminders became notifications: a row left in it is logged.)

Overdue is read, not stored: a match still to be played past its deadline (`overdue_matches`) — so a deadline
the commissioner moves takes the match out of the queue at once, with no flag to clear.
"""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from league.models import League

from . import notices, overdue
from .clock_acts import clock_acts
from .models import Match, MatchReminder, MatchTeam

log = logging.getLogger(__name__)

#: The local hour a reminder goes out at (within the tick's ten minutes after it).
REMINDER_HOUR = 8
#: How far ahead of a deadline the clock looks: the two-day reminder of a deadline late on its day is due at
#: most two days and sixteen hours before it.
LOOKAHEAD = timedelta(days=3)
Kind, State = MatchReminder.Kind, MatchReminder.State


def reminder_moments(deadline: datetime, tz: str) -> dict[str, datetime]:
    """When each reminder of `deadline` falls due, for a league in the time zone `tz` (pure)."""
    zone = ZoneInfo(tz)
    day = (deadline - timedelta(microseconds=1)).astimezone(zone).date()
    at = time(REMINDER_HOUR) if datetime.combine(day, time(REMINDER_HOUR), tzinfo=zone) < deadline else time(0)
    return {
        Kind.TWO_DAYS: datetime.combine(day - timedelta(days=2), at, tzinfo=zone),
        Kind.DAY: datetime.combine(day, at, tzinfo=zone),
    }


def due_kind(deadline: datetime, tz: str, now: datetime) -> str | None:
    """The reminder due at `now` for `deadline`, or None: none yet, its day missed, or the deadline passed."""
    if now >= deadline:
        return None
    moments = reminder_moments(deadline, tz)
    if moments[Kind.DAY] <= now:
        return Kind.DAY
    two_days = moments[Kind.TWO_DAYS]
    if two_days <= now and now.astimezone(two_days.tzinfo).date() == two_days.date():
        return Kind.TWO_DAYS
    return None


def _coaches(match: Match) -> set[int]:
    return {side.team.coach_id for side in match.sides.all() if side.team.coach_id}


def reminders_fill(now: datetime) -> int:
    """Write the reminders due at `now` (one row per coach); those already written are kept as they are. Three
    queries whatever the number of matches. Returns how many reminders are due now (written now or before)."""
    soon = (
        Match.objects.filter(status=Match.Status.SCHEDULED, deadline__gt=now, deadline__lte=now + LOOKAHEAD)
        .select_related("league")
        .prefetch_related(Prefetch("sides", queryset=MatchTeam.objects.select_related("team")))
        .order_by("deadline", "pk")
    )
    rows = [
        MatchReminder(match=match, kind=kind, deadline=match.deadline, user_id=user_id)
        for match in soon
        if (kind := due_kind(match.deadline, match.league.timezone, now))
        for user_id in sorted(_coaches(match))
    ]
    if rows:
        MatchReminder.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def _stale(reminder: MatchReminder, now: datetime) -> bool:
    """The reminder is no longer the one due: its deadline passed or moved, its day went by, or it was played."""
    match = reminder.match
    if match.deadline != reminder.deadline or match.status != Match.Status.SCHEDULED:
        return True
    return due_kind(reminder.deadline, match.league.timezone, now) != reminder.kind


def reminders_send(now: datetime) -> int:
    """Tell the coaches of every pending reminder, each once: a `deadline_soon` notification (the user's choices
    then decide whether it is also mailed or pushed, through the notifications' outbox). A match's reminders of
    one kind and deadline are one event: in one transaction, each row is claimed by a conditional update (one
    winner among any number of workers: the other waits for the row and then finds it sent), and the coaches
    whose rows were claimed are told in one notification each — claim and notification commit together, or
    neither does and the next tick tries again. Rows gone stale (`_stale`) are expired instead. Returns how many
    were sent now."""
    pending = (
        MatchReminder.objects.filter(state=State.PENDING)
        .select_related("match__league")
        .prefetch_related(Prefetch("match__sides", queryset=MatchTeam.objects.select_related("team")))
        .order_by("match_id", "kind", "deadline", "pk")
    )
    events: dict[tuple, list[MatchReminder]] = {}
    for reminder in pending:
        events.setdefault((reminder.match_id, reminder.kind, reminder.deadline), []).append(reminder)
    sent = 0
    for reminders in events.values():
        first = reminders[0]
        if _stale(first, now):
            MatchReminder.objects.filter(pk__in=[r.pk for r in reminders], state=State.PENDING).update(
                state=State.EXPIRED
            )
            continue
        with transaction.atomic():
            stamp = timezone.now()
            claimed = [
                r.user_id
                for r in reminders
                if MatchReminder.objects.filter(pk=r.pk, state=State.PENDING).update(
                    state=State.SENT, claimed_at=stamp, sent_at=stamp
                )
            ]
            if claimed:
                match = first.match
                notices.deadline_soon(
                    match,
                    list(match.sides.all()),
                    recipients=claimed,
                    deadline=first.deadline,
                    today=first.kind == Kind.DAY,
                )
        sent += len(claimed)
    return sent


def clock_tick(now: datetime | None = None) -> dict[str, int]:
    """One beat of the clock: do what the house rules ask of it at `now` (`clock_acts`: results confirmed,
    matches forfeited, deadlines announced, each once), then write the reminders due now and tell the coaches of
    the pending ones."""
    now = now or timezone.now()
    acts = clock_acts(now)
    stuck = MatchReminder.objects.filter(state=State.SENDING).values_list("pk", "user_id", "claimed_at")
    for row in stuck:
        log.error("match reminder %s (user %s) claimed at %s and never marked sent: not resent", *row)
    return {"due": reminders_fill(now), "sent": reminders_send(now), **acts}


def overdue_matches(*, league: League, now: datetime | None = None) -> QuerySet[Match]:
    """`matches.overdue.overdue_matches` (the one definition of overdue), each with its sides and their teams
    (two queries when evaluated), for the clock's pages and mails."""
    sides = Prefetch("sides", queryset=MatchTeam.objects.select_related("team").order_by("order"))
    return overdue.overdue_matches(league=league, now=now).prefetch_related(sides)
