"""Celery tasks for matches: thin wrappers around services."""

import logging

from celery import shared_task

from . import audit

log = logging.getLogger(__name__)


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def player_totals_audit() -> int:
    """Nightly: players' cached totals recomputed from their match rows; drift is logged loudly."""
    problems = audit.player_totals_audit()
    for problem in problems:
        log.error("player totals audit: %s", problem)
    return len(problems)
