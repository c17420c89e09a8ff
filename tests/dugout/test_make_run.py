"""What a newcomer sees under `make run` (DEBUG on): mails as files and one line each, not printed in full; links
on the port served; the project's 404 page for a mistyped address; the address and logins printed last; and a
Ctrl-C that stops the worker without an ERROR line."""

from __future__ import annotations

import email
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.core.mail import EmailMultiAlternatives

ROOT = Path(settings.BASE_DIR)


def _settings_under(env: dict) -> dict:
    """The settings a fresh process builds from this environment (settings are read once, at start-up)."""
    code = (
        "import json, django; from django.conf import settings; django.setup();"
        "print(json.dumps({'site': settings.SITE_URL, 'mail': settings.EMAIL_BACKEND,"
        "'middleware': settings.MIDDLEWARE[-1]}))"
    )
    drop = ("DEBUG", "SITE_URL", "RUN_PORT", "PORT", "EMAIL_BACKEND", "DATABASE_URL", "REDIS_URL")
    base = {k: v for k, v in os.environ.items() if k not in drop}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**base, "DJANGO_SETTINGS_MODULE": "dugout.settings", **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_under_make_run_links_follow_the_served_port_and_mails_are_files():
    """honcho gives the worker a PORT of its own (8223 beside a web on 8123): RUN_PORT is the served one."""
    under_make_run = _settings_under({"DEBUG": "1", "RUN_PORT": "8123", "PORT": "8223"})
    assert under_make_run["site"] == "http://127.0.0.1:8123"
    assert under_make_run["mail"] == "dugout.mail_files.EmlFileBackend"
    assert under_make_run["middleware"] == "dugout.web.not_found.DebugNotFoundMiddleware"
    # An explicit SITE_URL wins; production (DEBUG off) keeps the console and an empty SITE_URL.
    assert _settings_under({"DEBUG": "1", "RUN_PORT": "8123", "SITE_URL": "https://d.example/"})["site"] == (
        "https://d.example"
    )
    production = _settings_under({"RUN_PORT": "8123"})
    assert production["site"] == "" and production["mail"] == "django.core.mail.backends.console.EmailBackend"


def _report_like(to: str) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives("The week's report", "Text part", "dugout@localhost", [to])
    message.attach_alternative('<p>HTML part <img src="cid:chart"></p>', "text/html")
    message.attach("chart.png", b"\x89PNG\r\n\x1a\n" + bytes(4000), "image/png")
    return message


def test_each_mail_is_an_eml_file_and_one_log_line(tmp_path, caplog):
    from dugout.mail_files import EmlFileBackend

    backend = EmlFileBackend(file_path=tmp_path / "mail")

    with caplog.at_level(logging.INFO, logger="dugout.mail_files"):
        sent = backend.send_messages([_report_like("a@example.test"), _report_like("b@example.test")])

    assert sent == 2
    files = sorted((tmp_path / "mail").glob("*.eml"))
    assert len(files) == 2
    parsed = [email.message_from_bytes(path.read_bytes()) for path in files]
    assert sorted(message["To"] for message in parsed) == ["a@example.test", "b@example.test"]
    assert all(message.is_multipart() and message["Subject"] == "The week's report" for message in parsed)
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2 and all("\n" not in line and len(line) < 300 for line in lines)
    for path in files:  # each file named by one line, with its recipient and subject
        to = email.message_from_bytes(path.read_bytes())["To"]
        assert any(to in line and "The week's report" in line and path.name in line for line in lines)


def test_the_file_backend_writes_nothing_for_no_messages(tmp_path):
    from dugout.mail_files import EmlFileBackend

    assert EmlFileBackend(file_path=tmp_path / "mail").send_messages([]) == 0
    assert not (tmp_path / "mail").exists()


@pytest.fixture
def debug(settings):
    settings.DEBUG = True
    return settings


@pytest.mark.django_db
def test_in_debug_a_mistyped_address_is_the_projects_404_page(client, debug):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Nothing here</h1>" in page and 'class="skip-link"' in page
    assert "Using the URLconf" not in page  # not Django's technical page
    assert "Permissions-Policy" in response.headers  # the other middleware still ran


@pytest.mark.django_db
def test_in_debug_a_views_404_is_the_projects_page_too(client, debug):
    response = client.get("/leagues/987654/")

    assert response.status_code == 404
    assert "<h1>Nothing here</h1>" in response.content.decode()


@pytest.mark.django_db
def test_in_debug_the_technical_404_stays_one_parameter_away(client, debug):
    response = client.get("/no-such-page/?technical-404")

    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page and "Using the URLconf" in page and "<h1>Nothing here</h1>" not in page


@pytest.mark.django_db
def test_in_debug_an_address_without_its_slash_still_redirects(client, debug):
    response = client.get("/me")
    assert response.status_code == 301 and response["Location"] == "/me/"


def test_load_demo_leaves_the_logins_to_make_run(db, capsys):
    from django.core.management import call_command

    call_command("load_demo", "--no-logins")
    assert "dugout-demo" not in capsys.readouterr().out
    call_command("load_demo")
    assert "commissioner / dugout-demo" in capsys.readouterr().out


def test_make_run_loads_the_demo_quietly_and_passes_the_served_port_on():
    makefile = (ROOT / "Makefile").read_text()
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "load_demo --queue-reports --no-logins" in run
    assert "PORT=$(PORT) RUN_PORT=$(PORT)" in run


#: A stand-in for the Celery worker: its "pool" child reports a SIGTERM it receives directly (what the worker
#: logged as an ERROR); the main process, on SIGTERM, stops its child itself and exits 0 (a warm shutdown).
WORKER = """
import os, signal, subprocess, sys, time
pool = subprocess.Popen([sys.executable, "-c", '''
import signal, sys, time
signal.signal(signal.SIGTERM, lambda *a: (print("POOL KILLED BY SIGTERM", flush=True), sys.exit(1)))
signal.signal(signal.SIGUSR1, lambda *a: sys.exit(0))
print("pool up", flush=True)
time.sleep(60)
'''])
def warm(*args):
    time.sleep(0.3)  # the group's signal, had it reached the pool, has been handled by now
    pool.send_signal(signal.SIGUSR1)
    sys.exit(pool.wait())
signal.signal(signal.SIGTERM, warm)
time.sleep(60)
"""


def test_warm_stop_passes_the_signal_to_the_main_process_alone():
    """As honcho stops a process: SIGTERM to its whole process group."""
    wrapper = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "warm_stop.py"), sys.executable, "-c", WORKER],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert wrapper.stdout.readline().strip() == "pool up"
        time.sleep(0.2)
        os.killpg(wrapper.pid, signal.SIGTERM)
        assert wrapper.wait(timeout=20) == 0
        assert "POOL KILLED" not in wrapper.stdout.read()
    finally:
        if wrapper.poll() is None:
            wrapper.kill()


def test_the_procfile_worker_runs_under_warm_stop():
    lines = (ROOT / "Procfile").read_text().splitlines()
    worker = next(line for line in lines if line.startswith("worker:"))
    assert "scripts/warm_stop.py celery -A dugout worker" in worker
