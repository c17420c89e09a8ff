"""The Celery app: configuration, the beat schedule, and a real worker on the real Redis broker."""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from dugout.celery import app
from teams.models import LedgerEntry
from teams.tasks import ledger_audit
from tests.factories import TeamFactory, hire


def test_celery_is_configured_for_json_and_late_acks():
    assert app.conf.task_serializer == "json"
    assert app.conf.accept_content == ["json"]
    assert app.conf.task_acks_late is True
    assert app.conf.broker_url == (settings.REDIS_URL or "filesystem://")


def test_beat_schedule_names_registered_tasks():
    app.loader.import_default_modules()
    for entry in app.conf.beat_schedule.values():
        assert entry["task"] in app.tasks


def test_a_starting_worker_reads_its_charts_links_and_report_templates_then_freezes_its_start_up_objects():
    """Issue 12: a worker moves the objects alive at its start (Django's, Celery's, matplotlib's) into the
    collector's permanent generation before its pool forks, so a report's full collections no longer walk them;
    and it reads first what its first report would otherwise pay for: the URLconf's reverse index and the
    report's templates, compiled into the cached loader (DEBUG off). Run in a fresh interpreter: the signal
    freezes the whole process it runs in."""
    import subprocess
    import sys

    code = (
        "import gc, sys, django; django.setup()\n"
        "from celery.signals import worker_init\n"
        "from django.template import engines\n"
        "from django.urls import get_resolver\n"
        "from dugout.celery import app\n"
        "from dugout.reports.services import REPORT_HTML, REPORT_TEXT\n"
        "loader = engines['django'].engine.template_loaders[0]\n"
        "def state():\n"
        "    cached = {REPORT_HTML, REPORT_TEXT} <= set(loader.get_template_cache)\n"
        "    return gc.get_freeze_count(), 'matplotlib.figure' in sys.modules, get_resolver()._populated, cached\n"
        "before = state()\n"
        "worker_init.send(sender=None)\n"
        "print(*before, *state())\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "dugout.settings", "DEBUG": "0", "SECRET_KEY": "x" * 50}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=120)
    frozen_before, *before, frozen_after, charts, urls, templates = out.stdout.split()
    assert (frozen_before, *before) == ("0", "False", "False", "False")
    assert int(frozen_after) > 50_000
    assert (charts, urls, templates) == ("True", "True", "True")


def test_ledger_audit_task_reports_drift(team):
    hire(team, "lineman")
    assert ledger_audit.apply().get() == 0
    LedgerEntry.objects.filter(team=team, sequence=2).update(balance_after=1)
    assert ledger_audit.apply().get() == 1


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI runs it against Redis)")
def test_a_real_worker_runs_the_audit_through_the_redis_broker():
    """Not eager mode: the task travels through Redis to a worker thread, which reads the committed ledger."""
    from celery.contrib.testing.worker import start_worker

    team = TeamFactory()
    hire(team, "lineman")
    LedgerEntry.objects.filter(team=team, sequence=2).update(balance_after=1)  # one drifted entry

    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30, loglevel="WARNING"):
        result = ledger_audit.apply_async(ignore_result=False)
        assert result.get(timeout=60) == 1
