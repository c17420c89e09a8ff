"""`make prod` runs production on one machine (docs/deploy.md): gunicorn, a Celery worker and beat under honcho
(Procfile.prod), DEBUG off, on PostgreSQL and Redis.

Started for real against a database of its own and a free port, asked for the home page and the league list,
and stopped — bounded in time, and skipped without REDIS_URL or a reachable PostgreSQL (PGHOST/PGPORT/PGUSER,
default 127.0.0.1:5432 as postgres).
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import socket
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Seconds for the whole stack to come up (migrations on an empty database included), and to stop.
START_WITHIN = 120
STOP_WITHIN = 20


def _postgres():
    """A psycopg connection to the server's maintenance database, or None when there is no server."""
    import psycopg

    params = {
        "host": os.environ.get("PGHOST", "127.0.0.1"),
        "port": int(os.environ.get("PGPORT", "5432")),
        "user": os.environ.get("PGUSER", "postgres"),
    }
    try:
        return psycopg.connect(dbname="postgres", autocommit=True, connect_timeout=2, **params), params
    except psycopg.OperationalError:
        return None, params


@pytest.fixture
def prod_database():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("REDIS_URL is not set")
    connection, params = _postgres()
    if connection is None:
        pytest.skip("PostgreSQL is not reachable")
    name = f"dugout_prod_{secrets.token_hex(4)}"
    with connection:
        connection.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"postgres://{params['user']}@{params['host']}:{params['port']}/{name}"
        finally:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status


def test_make_prod_serves_the_site_and_the_api_with_gunicorn_a_worker_and_beat(prod_database, tmp_path):
    port = _free_port()
    redis_url = os.environ["REDIS_URL"]
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # The parallel suite's processes use Redis databases 1–15 (dugout/settings.py): the stack's worker takes
        # database 0, so it never takes another test's tasks.
        redis_url = re.sub(r"(/\d*)?$", "/0", redis_url, count=1)
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "DATABASE_URL": prod_database,
        "SECRET_KEY": secrets.token_hex(40),
        "ALLOWED_HOSTS": "127.0.0.1",
        # TLS ends at the load balancer in production; here the test speaks plain HTTP on loopback.
        "SECURE_SSL_REDIRECT": "0",
        "PORT": str(port),
        "BIND": "127.0.0.1",
        "WEB_CONCURRENCY": "2",
        "CELERY_CONCURRENCY": "1",
        "LOG_LEVEL": "INFO",
    }
    env.pop("DEBUG", None)
    env.pop("PYTEST_XDIST_WORKER", None)
    lines: list[str] = []
    # -o: never reinstall the requirements from inside a test.
    process = subprocess.Popen(
        ["make", "-o", ".venv/.runtime", "prod"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
    reader.start()
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_WITHIN
        while True:
            assert process.poll() is None, "make prod stopped:\n" + "".join(lines[-60:])
            try:
                if _get(f"{base}/") == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "gunicorn did not answer in time:\n" + "".join(lines[-60:])
            time.sleep(0.5)
        assert _get(f"{base}/api/v1/leagues/") == 200
        # The worker and beat came up beside the web tier (their start-up lines, under honcho's names).
        while not (any("ready." in line for line in lines) and any("beat: Starting" in line for line in lines)):
            assert time.monotonic() < deadline, "the worker or beat did not start:\n" + "".join(lines[-60:])
            time.sleep(0.5)
        assert not any("DEBUG = True" in line for line in lines)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=STOP_WITHIN)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
        reader.join(timeout=5)
