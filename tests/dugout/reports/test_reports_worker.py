"""The weekly report through a real Celery worker on the real Redis broker (not eager mode): the task travels
through Redis to a worker thread, which writes the report to the database and mails the members; two workers
taking the same task at once still write one report and send one e-mail per member.

Each test routes the report tasks to a queue of its own, so a worker of another test run sharing the Redis
server never takes them (nor this one theirs)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from datetime import UTC, datetime
from unittest import mock
from uuid import uuid4

import pytest
from celery.signals import task_postrun, task_prerun
from django.conf import settings
from django.core import mail
from django.db import connection, connections

from dugout import reports as reporting
from dugout.celery import app
from dugout.tasks import generate_league_report, weekly_reports_fanout
from league.models import League, LeagueReport, Membership, ReportDelivery
from tests.factories import LeagueFactory, UserFactory

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI runs it against Redis)"),
    pytest.mark.timeout(180),
]

MONDAY = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
WORKER = {"pool": "solo", "perform_ping_check": False, "shutdown_timeout": 30, "loglevel": "WARNING"}


@pytest.fixture
def queue():
    """A queue of this test's own for the report tasks (routes changed through `app.conf`, which resets the
    router), deleted afterwards; the app's queue selection (a worker's `queues=` changes it for the whole
    process) is put back, so later workers consume from the default queue again."""
    name = f"dugout-test-reports-{uuid4().hex[:12]}"
    queues = app.amqp.queues
    saved_routes = app.conf.task_routes
    saved_selection = (
        None if queues._consume_from is None else dict(queues._consume_from),
        dict(queues._default_consume_from),
    )
    app.conf.update(task_routes={"dugout.tasks.*": {"queue": name}})
    try:
        yield name
    finally:
        app.conf.update(task_routes=saved_routes)
        queues._consume_from, queues._default_consume_from = saved_selection
        queues.pop(name, None)
        with app.connection_for_write() as conn:
            conn.default_channel.queue_delete(name)
            conn.default_channel.client.delete(f"_kombu.binding.{name}")  # Redis keeps the binding otherwise


@pytest.fixture
def runs():
    """The tasks the workers ran: name, thread, start and end; each worker thread closes its database
    connections when its task ends (PostgreSQL can then drop the test database)."""
    seen: dict[str, dict] = {}

    def before(sender=None, task_id=None, **kwargs):
        seen[task_id] = {"task": sender.name, "thread": threading.get_ident(), "start": time.monotonic()}

    def after(task_id=None, **kwargs):
        seen[task_id]["end"] = time.monotonic()
        connections.close_all()

    task_prerun.connect(before, weak=False)
    task_postrun.connect(after, weak=False)
    try:
        yield seen
    finally:
        task_prerun.disconnect(before)
        task_postrun.disconnect(after)


def overlapped(runs: dict) -> bool:
    """Did the runs overlap in time, in different threads?"""
    first, second = sorted(runs.values(), key=lambda run: run["start"])[:2]
    return first["thread"] != second["thread"] and second["start"] < first["end"]


@pytest.fixture
def members():
    """A league (its commissioner), two coaches with addresses and one member without."""
    league = LeagueFactory(name="Worker Cup")
    for username, email in (("wk-alice", "alice@example.com"), ("wk-bob", "bob@example.com"), ("wk-nomail", "")):
        user = UserFactory(username=username, email=email)
        Membership.objects.create(league=league, user=user, role=Membership.Role.COACH)
    addresses = sorted([league.created_by.email, "alice@example.com", "bob@example.com"])
    return league, addresses


def worker(stack: ExitStack, name: str, queue: str, concurrency: int = 1):
    """A worker consuming only the test's queue, in a thread of its own: the solo pool (one task at a time),
    or with `concurrency` the threads pool (that many tasks at once, each in a thread)."""
    from celery.contrib.testing.worker import start_worker

    options = {**WORKER, "pool": "solo" if concurrency == 1 else "threads", "concurrency": concurrency}
    hostname = f"{name}-{uuid4().hex[:6]}@test"
    return stack.enter_context(start_worker(app, hostname=hostname, queues=[queue], **options))


def test_eager_mode_is_off_and_the_broker_is_redis():
    assert not getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False)
    assert app.conf.task_always_eager is False
    assert app.conf.broker_url.startswith("redis://")
    assert app.conf.result_backend.startswith("redis://")


def test_a_real_worker_writes_the_report_and_mails_the_members(members, queue, runs):
    league, addresses = members
    with ExitStack() as stack:
        worker(stack, "one", queue)
        result = generate_league_report.apply_async(
            args=[league.pk], kwargs={"now": MONDAY.isoformat()}, ignore_result=False
        )
        report_id = result.get(timeout=60)
        again = generate_league_report.apply_async(
            args=[league.pk], kwargs={"now": MONDAY.isoformat()}, ignore_result=False
        ).get(timeout=60)
    assert result.status == "SUCCESS"
    # It ran in the worker's thread, not in the test's (eager mode would run it here).
    assert [run["task"] for run in runs.values()] == ["dugout.tasks.generate_league_report"] * 2
    assert all(run["thread"] != threading.get_ident() for run in runs.values())
    report = LeagueReport.objects.get(league=league)
    assert report_id == again == report.pk
    assert report.week == "2026-W49" and report.html.strip() and report.text.strip()
    assert sorted(m.to[0] for m in mail.outbox) == addresses  # once each, the member without an address skipped
    for message in mail.outbox:
        assert message.body == report.text
        assert [tuple(a) for a in message.alternatives] == [(report.html, "text/html")]
    assert ReportDelivery.objects.filter(league=league, sent_at__isnull=False).count() == 3


def test_the_hourly_fanout_through_the_broker_writes_the_due_leagues_reports(members, queue, runs):
    league, addresses = members
    League.objects.filter(pk=league.pk).update(timezone="Asia/Tokyo")  # Monday 08:00 there is Sunday 23:00 UTC
    not_due = LeagueFactory(name="Not due")
    sunday_night = datetime(2026, 11, 29, 23, 0, tzinfo=UTC)
    with ExitStack() as stack:
        worker(stack, "beat", queue)
        fanned = weekly_reports_fanout.apply_async(kwargs={"now": sunday_night.isoformat()}, ignore_result=False)
        assert fanned.get(timeout=60) == [league.pk]
        deadline = time.monotonic() + 60
        while len(mail.outbox) < len(addresses) and time.monotonic() < deadline:
            time.sleep(0.2)
    assert list(LeagueReport.objects.values_list("league_id", "week")) == [(league.pk, "2026-W49")]
    assert not LeagueReport.objects.filter(league=not_due).exists()
    assert sorted(m.to[0] for m in mail.outbox) == addresses
    assert [run["task"] for run in runs.values()] == [
        "dugout.tasks.weekly_reports_fanout",
        "dugout.tasks.generate_league_report",
    ]


def slowly(function, seconds: float):
    """`function`, taking `seconds` longer: widens the window in which two workers overlap."""

    def run(*args, **kwargs):
        time.sleep(seconds)
        return function(*args, **kwargs)

    return run


# Two `start_worker` contexts in one process share kombu's process-wide event loop (hub), so they take tasks
# one at a time: the tests below run two tasks at once in one worker of two threads, and two workers in two
# processes (this one's and a `celery worker` subprocess, as in production).


def test_the_same_task_run_twice_at_once_writes_one_report_and_mails_each_member_once(members, queue, runs):
    league, addresses = members
    from django.core.mail import EmailMultiAlternatives

    build, send = reporting.build_report, EmailMultiAlternatives.send
    with (
        mock.patch.object(reporting, "build_report", slowly(build, 1.0)),
        mock.patch.object(EmailMultiAlternatives, "send", slowly(send, 0.3)),
        ExitStack() as stack,
    ):
        worker(stack, "pair", queue, concurrency=2)
        results = [
            generate_league_report.apply_async(
                args=[league.pk], kwargs={"now": MONDAY.isoformat()}, ignore_result=False
            )
            for _ in range(2)
        ]
        report_ids = [result.get(timeout=90) for result in results]
    assert len(runs) == 2 and overlapped(runs), runs  # they really ran at the same time
    report = LeagueReport.objects.get(league=league)
    assert report_ids == [report.pk, report.pk]
    assert sorted(m.to[0] for m in mail.outbox) == addresses
    assert ReportDelivery.objects.filter(league=league).count() == 3


def test_regenerating_twice_at_once_keeps_one_report_and_mails_nobody_twice(members, queue, runs):
    """The commissioner's "generate now" pressed twice: both regenerate the report in place, nobody mailed twice."""
    league, addresses = members
    build = reporting.build_report
    with mock.patch.object(reporting, "build_report", slowly(build, 0.5)), ExitStack() as stack:
        worker(stack, "pair", queue, concurrency=2)
        first = generate_league_report.apply_async(
            args=[league.pk], kwargs={"now": MONDAY.isoformat()}, ignore_result=False
        ).get(timeout=60)
        results = [
            generate_league_report.apply_async(
                args=[league.pk], kwargs={"now": MONDAY.isoformat(), "regenerate": True}, ignore_result=False
            )
            for _ in range(2)
        ]
        assert [result.get(timeout=90) for result in results] == [first, first]
    assert len(runs) == 3 and overlapped(dict(list(runs.items())[1:])), runs
    assert LeagueReport.objects.filter(league=league).count() == 1
    assert sorted(m.to[0] for m in mail.outbox) == addresses


def database_url() -> str:
    """The test database's URL, for a worker process of its own."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def worker_process(queue, tmp_path):
    """`celery worker` in a process of its own (solo pool, the console e-mail backend writing to its output),
    on the test's database and queue; stopped (warm shutdown) afterwards. Yields its output file."""
    hostname = f"proc-{uuid4().hex[:6]}@test"
    output = tmp_path / "worker.out"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
        "DJANGO_SETTINGS_MODULE": "dugout.settings",
    }
    command = [sys.executable, "-m", "celery", "-A", "dugout", "worker", "--pool=solo", "-Q", queue]
    command += ["-n", hostname, "--without-mingle", "--without-gossip", "--without-heartbeat", "--loglevel=INFO"]
    with open(output, "wb") as out:
        process = subprocess.Popen(command, cwd=settings.BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(destination=[hostname], timeout=0.5):
            assert process.poll() is None, output.read_text()
            assert time.monotonic() < deadline, output.read_text()
        yield output
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_two_worker_processes_taking_the_same_task_at_once_mail_each_member_once(members, queue, runs, worker_process):
    """One worker here (its report writing slowed down), one in another process: the second message goes to the
    other process while the first is being written; still one report, one e-mail per member in all."""
    league, addresses = members
    from django.core.mail import EmailMultiAlternatives

    build, send = reporting.build_report, EmailMultiAlternatives.send
    with (
        mock.patch.object(reporting, "build_report", slowly(build, 1.5)),
        mock.patch.object(EmailMultiAlternatives, "send", slowly(send, 0.3)),
        ExitStack() as stack,
    ):
        worker(stack, "here", queue)
        results = [
            generate_league_report.apply_async(
                args=[league.pk], kwargs={"now": MONDAY.isoformat()}, ignore_result=False
            )
            for _ in range(2)
        ]
        report_ids = [result.get(timeout=90) for result in results]
    report = LeagueReport.objects.get(league=league)
    assert report_ids == [report.pk, report.pk]
    assert len(runs) == 1, runs  # this process's worker ran one: the other process ran the other
    elsewhere = [
        line.split(":", 1)[1].strip() for line in worker_process.read_text().splitlines() if line.startswith("To:")
    ]
    assert sorted([m.to[0] for m in mail.outbox] + elsewhere) == addresses
    assert ReportDelivery.objects.filter(league=league, sent_at__isnull=False).count() == 3
