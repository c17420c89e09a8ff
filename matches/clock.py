"""The league clock: reminders to both coaches of a match two days before its deadline
and on the day, each mailed once, and the read of the matches past their deadline (overdue) that the
commissioner's queue shows. Celery beat runs `clock_tick` every ten minutes (dugout.tasks.league_clock_tick);
each tick first does what the league's house rules ask when nobody acts (matches/clock_acts.py: results
confirmed, unplayed matches forfeited, passed deadlines announced), so "after N hours" holds within minutes.

When a reminder falls due, in the league's own time zone: the deadline's day is the local date of the last
moment before the deadline (a deadline at midnight belongs to the day that ends there); the day's reminder is
due at REMINDER_HOUR local that day, the other at the same hour two days earlier. A deadline that comes before
REMINDER_HOUR on its day moves both to the start of their days. The two-day reminder is due on its own day only,
the day's from its hour to the deadline: a deadline set the day before is reminded once, on the day, never with
a late "in two days".

The mail goes through an outbox like the weekly report's (`MatchReminder`, one row per coach, kind and
deadline): rows are written when due (a unique row: a second tick, or a second worker, writes none), then each
is claimed by one conditional update, mailed, and marked sent — never mailed twice. A moved deadline is a new
deadline, reminded again; a row whose deadline passed (or moved, or whose match was played) before it went out
is expired, not mailed.

Overdue is read, not stored: a match still to be played past its deadline (`overdue_matches`) — so a deadline
the commissioner moves takes the match out of the queue at once, with no flag to clear.
"""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.core.mail import EmailMessage
from django.db.models import Prefetch, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from league.models import League

from . import overdue
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
    return {side.team.coach_id for side in match.sides.all() if side.team.coach_id and side.team.coach.email}


def reminders_fill(now: datetime) -> int:
    """Write the reminders due at `now` (one row per coach with an address); those already written are kept as
    they are. Three queries whatever the number of matches. Returns how many reminders are due now (written
    now or before)."""
    soon = (
        Match.objects.filter(status=Match.Status.SCHEDULED, deadline__gt=now, deadline__lte=now + LOOKAHEAD)
        .select_related("league")
        .prefetch_related(Prefetch("sides", queryset=MatchTeam.objects.select_related("team__coach")))
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


def reminders_send(now: datetime, *, base_url: str = "") -> int:
    """Mail every pending reminder, each once: claimed by a conditional update (one winner among any number of
    workers), mailed, marked sent. Run outside a transaction, so each claim commits before its mail goes out.
    Rows gone stale (`_stale`) are expired instead. Returns how many were sent now."""
    sent = 0
    pending = (
        MatchReminder.objects.filter(state=State.PENDING)
        .select_related("user", "match__league")
        .prefetch_related(Prefetch("match__sides", queryset=MatchTeam.objects.select_related("team")))
        .order_by("pk")
    )
    for reminder in pending:
        row = MatchReminder.objects.filter(pk=reminder.pk, state=State.PENDING)
        if _stale(reminder, now):
            row.update(state=State.EXPIRED)
            continue
        if not row.update(state=State.SENDING, claimed_at=timezone.now()):
            continue  # another worker has it
        _send(reminder, base_url)
        MatchReminder.objects.filter(pk=reminder.pk).update(state=State.SENT, sent_at=timezone.now())
        sent += 1
    return sent


def reminder_text(reminder: MatchReminder, base_url: str = "") -> tuple[str, str]:
    """The reminder's subject and body (its link to the match page built on `base_url`)."""
    match = reminder.match
    league = match.league
    teams = [side.team.name for side in match.sides.all()]
    zone = ZoneInfo(league.timezone)
    deadline = reminder.deadline.astimezone(zone)
    kickoff = match.scheduled_for.astimezone(zone) if match.scheduled_for else None
    day = reminder.kind == Kind.DAY
    link = base_url + reverse("match-detail", args=[match.pk])
    context = {"league": league, "teams": teams, "deadline": deadline, "kickoff": kickoff, "day": day, "link": link}
    when = "today" if day else "in two days"
    subject = f"{league.name}: {' v '.join(teams)} — result due {when} ({deadline:%a %d %b %H:%M})"
    return subject, render_to_string("matches/reminder_email.txt", context)


def _send(reminder: MatchReminder, base_url: str) -> None:
    """Mail one coach; a refused mail (nothing went out) puts the row back to pending for the task's retry; a
    timeout leaves it `sending` (the server may have taken it)."""
    subject, body = reminder_text(reminder, base_url)
    try:
        EmailMessage(subject=subject, body=body, to=[reminder.user.email]).send()
    except TimeoutError:
        raise
    except Exception:
        MatchReminder.objects.filter(pk=reminder.pk, state=State.SENDING).update(state=State.PENDING, claimed_at=None)
        raise


def clock_tick(now: datetime | None = None, *, base_url: str = "") -> dict[str, int]:
    """One beat of the clock: do what the house rules ask of it at `now` (`clock_acts`: results confirmed,
    matches forfeited, deadlines announced, each once), then write the reminders due now and mail the pending
    ones (their links built on `base_url`, the site's address: the wiring that runs the clock knows it)."""
    now = now or timezone.now()
    acts = clock_acts(now)
    stuck = MatchReminder.objects.filter(state=State.SENDING).values_list("pk", "user_id", "claimed_at")
    for row in stuck:
        log.error("match reminder %s (user %s) claimed at %s and never marked sent: not resent", *row)
    return {"due": reminders_fill(now), "sent": reminders_send(now, base_url=base_url), **acts}


def overdue_matches(*, league: League, now: datetime | None = None) -> QuerySet[Match]:
    """`matches.overdue.overdue_matches` (the one definition of overdue), each with its sides and their teams
    (two queries when evaluated), for the clock's pages and mails."""
    sides = Prefetch("sides", queryset=MatchTeam.objects.select_related("team").order_by("order"))
    return overdue.overdue_matches(league=league, now=now).prefetch_related(sides)
