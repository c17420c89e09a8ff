"""Celery tasks for matches: thin wrappers around services.

Safe to run twice (a redelivered task after a lost worker): the audit only reads and logs.
"""

import logging

from celery import shared_task

from . import audit

log = logging.getLogger(__name__)


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5, acks_late=True, reject_on_worker_lost=True)
def player_totals_audit() -> int:
    """Nightly: players' cached totals recomputed from their match rows; drift is logged loudly."""
    problems = audit.player_totals_audit()
    for problem in problems:
        log.error("player totals audit: %s", problem)
    return len(problems)
