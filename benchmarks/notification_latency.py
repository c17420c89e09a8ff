"""Notification latency: from an event's commit to its mail written and its push received, with a real Celery
worker running (prefork, as in production) on the broker of the environment.

Run: `DATABASE_URL=postgres://… REDIS_URL=redis://127.0.0.1:6379/N .venv/bin/python benchmarks/notification_latency.py`
(a throwaway `test_…` database on that server; without REDIS_URL the embedded filesystem broker, which polls).
Each event is `notify` in a transaction, to recipients with an e-mail address and one push subscription each.
"Committed" is taken in an on-commit callback registered before the writer's; "mail written" is the .eml file's
modification time (dugout/mail_files.py in the worker); "push received" is when the local push service
(tests/notifications/push_receiver.py) has decrypted it and checked its VAPID signature. Events go one at a time
(`--events`, one recipient each: the idle latency), then one event to `--burst` recipients (the time to the last).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from uuid import uuid4

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dugout.settings")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=30, help="single events, one after the other")
    parser.add_argument("--burst", type=int, default=50, help="recipients of the one big event")
    parser.add_argument("--concurrency", type=int, default=2, help="the worker's processes")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection, transaction
    from django.test.utils import get_runner, setup_test_environment

    from dugout.celery import app
    from notifications.models import Delivery, PushSubscription
    from notifications.vapid import development_keys
    from notifications.writer import notify
    from tests.factories import UserFactory
    from tests.notifications.push_receiver import PushService

    setup_test_environment()
    if not settings.VAPID_PRIVATE_KEY:
        settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = development_keys(settings.VAR_DIR / "vapid.json")
    runner = get_runner(settings)(verbosity=0, interactive=False)
    old_config = runner.setup_databases()
    mail_dir = Path(tempfile.mkdtemp(prefix="dugout-latency-mail-"))
    queue = f"dugout-bench-notify-{uuid4().hex[:8]}"
    app.conf.update(task_routes={"dugout.tasks.notifications_*": {"queue": queue}})
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        database_url = f"sqlite:///{db['NAME']}"
    else:
        credentials = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
        database_url = f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    hostname = f"bench-{uuid4().hex[:6]}@bench"
    environment = {
        **os.environ,
        "DATABASE_URL": database_url,
        "EMAIL_BACKEND": "dugout.mail_files.EmlFileBackend",
        "EMAIL_FILE_PATH": str(mail_dir),
        "WEBHOOK_ALLOW_PRIVATE_HOSTS": "1",
        "VAPID_PRIVATE_KEY": settings.VAPID_PRIVATE_KEY,
        "VAPID_PUBLIC_KEY": settings.VAPID_PUBLIC_KEY,
        "VAPID_SUBJECT": settings.VAPID_SUBJECT,
        "LOG_LEVEL": "WARNING",
    }
    command = [sys.executable, "-m", "celery", "-A", "dugout", "worker", "--pool=prefork"]
    command += [f"--concurrency={args.concurrency}", "-Q", queue, "-n", hostname, "--without-mingle"]
    command += ["--without-gossip", "--loglevel=WARNING"]
    worker = subprocess.Popen(command, cwd=settings.BASE_DIR, env=environment, start_new_session=True)  # noqa: S603
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(destination=[hostname], timeout=0.5):
            if worker.poll() is not None or time.monotonic() > deadline:
                print("the worker did not start", file=sys.stderr)
                return 1
        with PushService(settings.VAPID_PUBLIC_KEY, settings.VAPID_SUBJECT) as service:

            def recipients(count: int, prefix: str) -> list:
                users = []
                for n in range(count):
                    user = UserFactory(username=f"{prefix}{n}", email=f"{prefix}{n}@example.com")
                    sub = service.subscribe(f"{prefix}{n}")
                    PushSubscription.objects.create(
                        user=user, endpoint=sub["endpoint"], p256dh=sub["p256dh"], auth=sub["auth"]
                    )
                    users.append(user)
                return users

            def event(users) -> float:
                committed = {}
                with transaction.atomic():
                    transaction.on_commit(lambda: committed.setdefault("at", time.time()))
                    notify("your_turn", recipients=users, actor=None, text="Your turn.", url="/matches/1/")
                return committed["at"]

            def arrivals(count: int, seen_mails: int, seen_pushes: int, limit: float = 120) -> tuple[list, list]:
                deadline = time.monotonic() + limit
                while time.monotonic() < deadline:
                    mails = sorted(mail_dir.glob("*.eml"), key=lambda p: p.stat().st_mtime)[seen_mails:]
                    pushes = service.received[seen_pushes:]
                    if len(mails) >= count and len(pushes) >= count:
                        return [p.stat().st_mtime for p in mails], [p["at"] for p in pushes]
                    time.sleep(0.002)
                raise RuntimeError(f"not all arrived: {list(Delivery.objects.values_list('state', 'error'))}")

            event(recipients(1, "warm"))  # the worker's first task pays for its imports
            arrivals(1, 0, 0)
            mail_ms, push_ms = [], []
            for n, user in enumerate(recipients(args.events, "single")):
                at = event([user])
                mails, pushes = arrivals(1, n + 1, n + 1)
                mail_ms.append((mails[0] - at) * 1000)
                push_ms.append((pushes[0] - at) * 1000)
            at = event(recipients(args.burst, "burst"))
            mails, pushes = arrivals(args.burst, args.events + 1, args.events + 1)
            print(
                f"broker: {settings.CELERY_BROKER_URL.split(':')[0]}, database: {connection.vendor}, "
                f"worker: prefork × {args.concurrency}"
            )
            for name, values in (("event → mail written", mail_ms), ("event → push received", push_ms)):
                values.sort()
                p95 = values[max(0, round(len(values) * 0.95) - 1)]
                print(
                    f"  {name:22} {len(values)} single events: median {statistics.median(values):6.1f} ms, "
                    f"p95 {p95:6.1f} ms, max {values[-1]:6.1f} ms"
                )
            print(
                f"  one event to {args.burst} recipients: last mail after {(max(mails) - at) * 1000:.0f} ms, "
                f"last push after {(max(pushes) - at) * 1000:.0f} ms"
            )
            if service.refused:
                print(f"  refused pushes: {service.refused}", file=sys.stderr)
                return 1
    finally:
        os.killpg(worker.pid, 15)
        worker.wait(timeout=60)
        with app.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)
            if settings.REDIS_URL:
                conn.default_channel.client.delete(f"_kombu.binding.{queue}")
        connection.close()
        runner.teardown_databases(old_config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
