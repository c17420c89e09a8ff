"""The league clock through a real Celery worker on the real Redis broker (CI runs it against Redis): the beat's
task travels through Redis to a worker thread, which writes the due reminders and tells both coaches (a
`deadline_soon` notification each, with its e-mail in the notifications' outbox); run again, and run twice at
once, it tells nobody twice. The worker fixtures are the weekly report's (a queue of the test's
own, the runs seen, a worker in a thread)."""

from __future__ import annotations

import os
import threading
from contextlib import ExitStack
from datetime import UTC, datetime
from unittest import mock

import pytest

from dugout.tasks import league_clock_tick
from matches import notices, services
from matches.models import Match, MatchReminder
from notifications.models import Delivery, Notification
from tests.dugout.reports.test_reports_worker import overlapped, queue, runs, slowly, worker  # noqa: F401 (fixtures)
from tests.matches.test_league_clock import QUIET

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI runs it against Redis)"),
    pytest.mark.timeout(180),
]

DEADLINE = datetime(2026, 12, 10, 20, 0, tzinfo=UTC)
TWO_DAYS_BEFORE = datetime(2026, 12, 8, 8, 5, tzinfo=UTC)


@pytest.fixture
def coaches(league, commissioner, home, away, coach, other_coach):
    match = services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    Match.objects.filter(pk=match.pk).update(deadline=DEADLINE)
    return sorted([coach.email, other_coach.email])


def told() -> list[str]:
    """The addresses of the coaches told by the clock, one entry per notification, and each one's e-mail row."""
    notes = Notification.objects.filter(kind="deadline_soon").select_related("user")
    emails = Delivery.objects.filter(notification__kind="deadline_soon", channel="email").count()
    assert emails == len(notes)
    return sorted(n.user.email for n in notes)


def test_a_real_worker_runs_the_clock_and_tells_each_coach_once(coaches, queue, runs):  # noqa: F811
    with ExitStack() as stack:
        worker(stack, "clock", queue)
        first = league_clock_tick.apply_async(kwargs={"now": TWO_DAYS_BEFORE.isoformat()}, ignore_result=False)
        assert first.get(timeout=60) == {"due": 2, "sent": 2, **QUIET}
        again = league_clock_tick.apply_async(kwargs={"now": TWO_DAYS_BEFORE.isoformat()}, ignore_result=False)
        assert again.get(timeout=60) == {"due": 2, "sent": 0, **QUIET}
    ticks = [run for run in runs.values() if run["task"] == "dugout.tasks.league_clock_tick"]  # (and the mails)
    assert len(ticks) == 2
    assert all(run["thread"] != threading.get_ident() for run in ticks)  # not eager: the worker ran it
    assert told() == coaches
    assert MatchReminder.objects.filter(state=MatchReminder.State.SENT).count() == 2


def test_two_ticks_at_once_in_two_worker_threads_tell_each_coach_once(coaches, queue, runs):  # noqa: F811
    with mock.patch.object(notices, "notify", slowly(notices.notify, 0.5)), ExitStack() as stack:
        worker(stack, "pair", queue, concurrency=2)
        results = [
            league_clock_tick.apply_async(kwargs={"now": TWO_DAYS_BEFORE.isoformat()}, ignore_result=False)
            for _ in range(2)
        ]
        done = [result.get(timeout=90) for result in results]
    ticks = {k: run for k, run in runs.items() if run["task"] == "dugout.tasks.league_clock_tick"}
    assert len(ticks) == 2 and overlapped(ticks), runs
    assert sum(d["sent"] for d in done) == 2
    assert told() == coaches
