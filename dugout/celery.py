"""The Celery app: broker from REDIS_URL, or an embedded filesystem broker for newcomers."""

import gc
import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dugout.settings")

app = Celery("dugout")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def startup_freeze() -> int:
    """Import what the tasks draw with (matplotlib, which core.charts leaves unimported until a first chart)
    and what a first report reads (the URLconf's reverse index, the report's compiled templates), then move
    every object alive so far into the collector's permanent generation (`gc.freeze`); how many.

    Those objects (Django's, Celery's and matplotlib's modules: ≈ 200,000) live as long as the worker. A full
    collection walked them all, again and again, while a report built its week: ≈ 0.2 s of a 400-team league's
    report, and 4 % of a small one's (docs/decisions/). Run in the worker's main process before the
    pool forks, so each child inherits them frozen, and its copy-on-write pages stay shared."""
    from core.charts.draw import preload
    from dugout.reports.services import report_preload

    preload()
    report_preload()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


@worker_init.connect
def _freeze_on_start(**_kwargs) -> None:
    startup_freeze()
