"""Print the address `make run` serves and the demo's logins, last, once the services are up.

Started beside the server by the Procfile's `web` line with the same `PORT`, so the address printed is the one
really served (not a default written in a message before the server is up). It waits for the web server to
answer, then for the Celery worker to answer a ping and finish the demo reports `make run` queued (their mails
are a line each in the worker's log), so that the address and the logins are the last lines a newcomer sees.
Exits once it has printed; gives up waiting, saying so, if nothing answers within a minute (the server's or the
worker's own lines then say why) — the address is printed all the same once the server answers.
"""

from __future__ import annotations

import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent


def wait_for_server(port: int, *, timeout: float = 60.0, interval: float = 0.25) -> bool:
    """Whether the web server answers at 127.0.0.1:`port` within `timeout` seconds (any HTTP status counts)."""
    probe = f"http://127.0.0.1:{port}/favicon.ico"  # answers without the database: not a page's first render
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(probe, timeout=2).close()
        except urllib.error.HTTPError:
            return True  # any HTTP status means the server answers
        except OSError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(interval)
            continue
        return True


def wait_for_worker(*, timeout: float = 60.0, settle: float = 30.0) -> bool:
    """Whether a Celery worker answers a ping within `timeout` seconds; then up to `settle` more seconds for the
    queue to empty and the worker to be idle (the demo's reports written and mailed), so their log lines come
    before the announcement. Needs Django's settings (the broker's address), read here, not at import."""
    import os

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dugout.settings")
    import django

    django.setup()
    from dugout.celery import app

    deadline = time.monotonic() + timeout
    while not app.control.ping(timeout=1.0):
        if time.monotonic() >= deadline:
            return False
    deadline = time.monotonic() + settle
    while time.monotonic() < deadline:
        inspect = app.control.inspect(timeout=1.0)
        busy = [tasks for answer in (inspect.active(), inspect.reserved()) for tasks in (answer or {}).values()]
        if _queued(app) == 0 and not any(busy):
            break
        time.sleep(0.5)
    return True


def _queued(app) -> int:
    """How many tasks wait in the default queue (Redis keeps no key for an empty queue: a refused passive
    declaration is an empty queue)."""
    from kombu.exceptions import ChannelError

    with app.connection_for_write() as connection:
        try:
            return connection.default_channel.queue_declare(app.conf.task_default_queue, passive=True).message_count
        except ChannelError:
            return 0


def logins() -> str:
    """The demo's logins, as `load_demo` words them."""
    from dugout.management.commands.load_demo import LOGINS

    return LOGINS


def wait_and_announce(
    port: int,
    *,
    timeout: float = 60.0,
    interval: float = 0.25,
    out: TextIO = sys.stdout,
    worker: Callable[[], bool] | None = None,
    footer: Callable[[], str] | None = None,
) -> bool:
    """Wait for the server on `port`, then for the worker (`worker`, by default `wait_for_worker`); print the
    address and `footer` (by default the logins). False, said in words, when the server never answered."""
    url = f"http://127.0.0.1:{port}/"
    if not wait_for_server(port, timeout=timeout, interval=interval):
        print(f"Dugout did not answer at {url} within {timeout:.0f} s: see the web lines.", file=out, flush=True)
        return False
    worker_up = (worker or wait_for_worker)()
    lines = [f"Dugout is at {url}", (footer or logins)().rstrip("\n")]
    if not worker_up:
        lines.append("  The worker did not answer within a minute: see the worker lines (reports wait for it).")
    lines.append("  Ctrl-C stops the web server, the worker and beat.")
    print("\n".join(line for line in lines if line), file=out, flush=True)
    return True


if __name__ == "__main__":
    sys.exit(0 if wait_and_announce(int(sys.argv[1]) if len(sys.argv) > 1 else 8000) else 1)
