"""The league clock's acts through a real Celery worker on Redis (CI runs it against Redis): two ticks at the same
moment, run at once by a worker of two threads, confirm a result and forfeit a match once each — one audit entry,
one set of effects, one notification per person — because each act locks its match and reads its condition again.
The worker fixtures are the weekly report's (a queue of the test's own, the runs seen, a worker in a thread)."""

from __future__ import annotations

import os
from contextlib import ExitStack
from datetime import timedelta
from unittest import mock

import pytest

from dugout.tasks import league_clock_tick
from league.models import AuditEntry
from matches import disputes, services
from matches.models import Aftermath, Match, PlayerMatch
from notifications.models import Notification
from tests.dugout.reports.test_reports_worker import overlapped, queue, runs, slowly, worker  # noqa: F401 (fixtures)
from tests.factories import UserFactory
from tests.matches.conftest import full_team
from tests.matches.test_clock_acts import T0, house_rules, schedule, submit

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI runs it against Redis)"),
    pytest.mark.timeout(180),
]


def test_two_ticks_at_once_on_two_worker_threads_act_once(league, commissioner, home, away, coach, queue, runs):  # noqa: F811
    house_rules(league, auto_confirm_hours=2, on_deadline="double_forfeit")
    confirmed = submit(schedule(commissioner, league, home, away), coach, home, away)
    third, fourth = (
        full_team(league, UserFactory(username="carol"), "Third"),
        full_team(league, UserFactory(username="dave"), "Fourth"),
    )
    forfeited = schedule(commissioner, league, third, fourth)
    moment = (T0 + timedelta(hours=3)).isoformat()

    with (
        mock.patch.object(services, "match_confirm", slowly(services.match_confirm, 0.5)),
        mock.patch.object(disputes, "forfeit_record", slowly(disputes.forfeit_record, 0.5)),
        ExitStack() as stack,
    ):
        worker(stack, "clock-acts", queue, concurrency=2)
        results = [league_clock_tick.apply_async(kwargs={"now": moment}, ignore_result=False) for _ in range(2)]
        done = [result.get(timeout=90) for result in results]

    ticks = {k: run for k, run in runs.items() if run["task"] == "dugout.tasks.league_clock_tick"}  # (and the mails)
    assert len(ticks) == 2 and overlapped(ticks), runs
    assert sorted(d["confirmed"] for d in done) == [0, 1]
    assert sorted(d["forfeited"] for d in done) == [0, 1]
    assert Match.objects.get(pk=confirmed).status == Match.objects.get(pk=forfeited).status == "final"
    clock = AuditEntry.objects.filter(actor__isnull=True, reason="league clock")
    assert sorted(clock.values_list("action", flat=True)) == ["confirmation", "forfeit"]
    assert Aftermath.objects.filter(match_id=confirmed).count() == 2
    assert PlayerMatch.objects.filter(match_id=confirmed).count() == PlayerMatch.objects.count() > 0
    confirmed_to = Notification.objects.filter(kind="result_confirmed").values_list("user__username", flat=True)
    assert sorted(confirmed_to) == ["alice", "bob", "commish"]
    passed_to = Notification.objects.filter(kind="deadline_passed").values_list("user__username", flat=True)
    assert sorted(passed_to) == ["carol", "commish", "dave"]
