"""The Celery app: broker from REDIS_URL, or an embedded filesystem broker for newcomers."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

app = Celery("dugout")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
