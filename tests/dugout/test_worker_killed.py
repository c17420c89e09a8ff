"""A worker killed with SIGKILL in the middle of the weekly report: a real `celery worker` process (prefork, as
in production) on the real Redis broker takes the report task, mails the first member and is killed — the
whole process group — before it records that mail as sent. A fresh worker then gets the unacknowledged task
back once the visibility timeout (shortened to 10 s for the test through CELERY_VISIBILITY_TIMEOUT) has passed,
and the members are mailed: each exactly once, the first one's mail not sent again.

The mails are recorded by `tests.dugout.reports.mail_recorder.RecordingBackend` (the workers' EMAIL_BACKEND), which
writes each recipient to a file before the send returns."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import pytest
from django.conf import settings

from dugout.celery import app
from dugout.tasks import generate_league_report
from league.models import LeagueReport, Membership, ReportDelivery
from tests.dugout.reports.test_reports_worker import database_url
from tests.factories import LeagueFactory, UserFactory

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI runs it against Redis)"),
    pytest.mark.timeout(420),
]

MONDAY = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
VISIBILITY_TIMEOUT = 10
#: The issue's promise: the report and its mail within 5 minutes of a fresh worker starting.
WITHIN = 300


@pytest.fixture
def members():
    league = LeagueFactory(name="Killed Cup")
    for username in ("kw-alice", "kw-bob"):
        user = UserFactory(username=username, email=f"{username}@example.com")
        Membership.objects.create(league=league, user=user, role=Membership.Role.COACH)
    return league, sorted([league.created_by.email, "kw-alice@example.com", "kw-bob@example.com"])


@pytest.fixture
def queue():
    """A queue of this test's own (so no other worker on the Redis server takes its task), deleted afterwards."""
    name = f"dugout-test-killed-{uuid4().hex[:12]}"
    yield name
    with app.connection_for_write() as conn:
        conn.default_channel.queue_delete(name)
        conn.default_channel.client.delete(f"_kombu.binding.{name}")


class Workers:
    """`celery worker` processes, each the leader of a process group of its own (so SIGKILL reaches its pool's
    children too), on the test database and queue, recording their mail to one file."""

    def __init__(self, queue: str, tmp_path: Path):
        self.queue, self.tmp_path = queue, tmp_path
        self.record = tmp_path / "mailed.txt"
        self.record.touch()
        self.processes: list[subprocess.Popen] = []

    def start(self, name: str, **env: str) -> subprocess.Popen:
        hostname = f"{name}-{uuid4().hex[:6]}@test"
        environment = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "DJANGO_SETTINGS_MODULE": "dugout.settings",
            "EMAIL_BACKEND": "tests.dugout.reports.mail_recorder.RecordingBackend",
            "MAIL_RECORD_FILE": str(self.record),
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
            **env,
        }
        command = [sys.executable, "-m", "celery", "-A", "dugout", "worker", "--pool=prefork", "--concurrency=1"]
        command += ["-Q", self.queue, "-n", hostname, "--without-mingle", "--without-gossip", "--loglevel=INFO"]
        output = open(self.tmp_path / f"{name}.out", "wb")  # noqa: SIM115 (closed with the process)
        process = subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killpg reaches the pool's children
        )
        process.output = output
        process.output_path = self.tmp_path / f"{name}.out"
        self.processes.append(process)
        deadline = time.monotonic() + 60
        while not app.control.ping(destination=[hostname], timeout=0.5):
            assert process.poll() is None, process.output_path.read_text()
            assert time.monotonic() < deadline, process.output_path.read_text()
        return process

    def kill(self, process: subprocess.Popen) -> None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)

    def mailed(self) -> list[str]:
        return self.record.read_text().split()

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
            process.output.close()


@pytest.fixture
def workers(queue, tmp_path):
    pool = Workers(queue, tmp_path)
    try:
        yield pool
    finally:
        pool.stop_all()


def wait_for(condition, seconds: float, why: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, why
        time.sleep(0.5)


def test_a_worker_killed_mid_report_costs_minutes_and_mails_each_member_exactly_once(members, queue, workers, tmp_path):
    league, addresses = members
    first = workers.start("doomed", MAIL_BLOCK_FILE=str(tmp_path / "never-created"))
    generate_league_report.apply_async(args=[league.pk], kwargs={"now": MONDAY.isoformat()}, queue=queue)

    wait_for(lambda: len(workers.mailed()) == 1, 120, "the first worker never mailed anyone")
    workers.kill(first)  # it mailed one member and is stuck before recording it

    assert LeagueReport.objects.filter(league=league).count() == 1  # committed before any mail went out
    states = Counter(ReportDelivery.objects.filter(league=league).values_list("state", flat=True))
    assert states == {ReportDelivery.State.SENDING: 1, ReportDelivery.State.PENDING: 2}

    workers.start("fresh")
    wait_for(lambda: len(workers.mailed()) >= len(addresses), WITHIN, "the fresh worker never finished the mail")
    # Let the fresh worker finish its task (the last row marked sent) before looking at the rows.
    wait_for(
        lambda: ReportDelivery.objects.filter(league=league, state=ReportDelivery.State.SENT).count() == 2,
        60,
        "the fresh worker never marked its mails sent",
    )

    assert sorted(workers.mailed()) == addresses  # each member exactly once
    assert LeagueReport.objects.filter(league=league).count() == 1
    stuck = ReportDelivery.objects.get(league=league, state=ReportDelivery.State.SENDING)
    assert stuck.user.email == workers.mailed()[0]  # the killed worker's mail: not sent again
