"""Celery tasks for teams: thin wrappers around services.

Safe to run twice (a redelivered task after a lost worker): the audit only reads and logs.
"""

import logging

from celery import shared_task

from . import services

log = logging.getLogger(__name__)


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5, acks_late=True, reject_on_worker_lost=True)
def ledger_audit() -> int:
    """Nightly: every treasury's running balance recomputed from its entries; drift is logged loudly."""
    problems = services.ledger_audit()
    for problem in problems:
        log.error("ledger audit: %s", problem)
    return len(problems)
