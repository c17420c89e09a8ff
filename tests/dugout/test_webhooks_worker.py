"""Webhooks through a real Celery worker on the real Redis broker (issue 14: "Delivered by Celery after the
transaction commits, with retries and backoff ... automatic disabling after repeated 404/410 answers. Never
delivered twice for one event"): a confirmed result reaches a local receiver once, signed; a 500 is retried
until it succeeds; repeated 410s disable the hook. The tasks go to a queue of this test's own."""

from __future__ import annotations

import os
import time
from contextlib import ExitStack
from uuid import uuid4

import pytest
from django.db import connections, transaction
from django.test import override_settings

from dugout.celery import app
from league.models import Webhook, WebhookDelivery
from league.webhooks.deliver import signature
from league.webhooks.emit import event_emit
from tests.league.webhook_helpers import Receiver, play, teams
from tests.worker_queues import own_queue

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI runs it against Redis)"),
    pytest.mark.timeout(180),
]
FAST = {"WEBHOOK_ALLOW_PRIVATE_HOSTS": True, "WEBHOOK_BACKOFF": 0.2, "WEBHOOK_GONE_LIMIT": 2}


@pytest.fixture
def queue():
    """The webhook tasks routed to a queue of this test's own, put back and deleted afterwards."""
    with own_queue("dugout-test-hooks", "dugout.webhook_tasks.*") as name:
        yield name


def worker(stack: ExitStack, queue: str):
    from celery.contrib.testing.worker import start_worker

    from dugout import webhook_tasks  # noqa: F401 (registered)

    options = {"pool": "solo", "perform_ping_check": False, "shutdown_timeout": 30, "loglevel": "WARNING"}
    return stack.enter_context(start_worker(app, hostname=f"hooks-{uuid4().hex[:6]}@test", queues=[queue], **options))


def wait_for(predicate, seconds=60):
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.1)
    return predicate()


@override_settings(**FAST)
def test_issue14_webhooks_a_real_worker_delivers_the_confirmed_result_once_retrying_a_500(
    league, coach, other_coach, api_as, queue
):
    home, away = teams(league, coach, other_coach)
    with Receiver([500, 200]) as receiver, ExitStack() as stack:
        hook = Webhook.objects.create(
            league=league, url=receiver.url, kind="json", events=["result_confirmed"], secret="s" * 64
        )
        worker(stack, queue)
        match_id = play(api_as, league, home, away, coach, other_coach)
        delivered = WebhookDelivery.objects.filter(hook=hook, status="delivered")
        assert wait_for(delivered.exists), list(WebhookDelivery.objects.values())
        time.sleep(1.0)  # nothing more comes
        connections.close_all()
    assert len(receiver.seen) == 2  # the 500, then the success: one event, delivered once
    assert len({seen["headers"]["X-Dugout-Delivery"] for seen in receiver.seen}) == 1
    final = receiver.seen[-1]
    assert final["headers"]["X-Dugout-Signature"] == signature(hook.secret, final["raw"])
    assert final["body"]["event"] == "result_confirmed" and final["body"]["match"]["id"] == match_id
    row = WebhookDelivery.objects.get(hook=hook)
    assert (row.status, row.attempts, row.response_code) == ("delivered", 2, 200)


@override_settings(**FAST)
def test_issue14_webhooks_a_real_worker_disables_a_hook_after_repeated_410s(league, queue):
    with Receiver([410]) as receiver, ExitStack() as stack:
        hook = Webhook.objects.create(
            league=league, url=receiver.url, kind="discord", events=["player_died"], secret="s" * 64
        )
        worker(stack, queue)
        facts = {"league": {"id": league.pk, "name": league.name}, "match": {"id": 1, "path": "/matches/1/"}}
        for n in range(3):
            player = {"id": n, "name": f"P{n}", "team": {"id": 1, "name": "T"}}
            with transaction.atomic():
                event_emit(league_id=league.pk, event="player_died", key=f"p{n}", data={**facts, "player": player})
        settled = WebhookDelivery.objects.filter(hook=hook, status="failed")
        assert wait_for(lambda: settled.count() == 3)
        time.sleep(1.0)
        connections.close_all()
    hook.refresh_from_db()
    assert not hook.enabled
    assert len(receiver.seen) == 2 and "embeds" in receiver.seen[0]["body"]
    # The third was queued before the hook was disabled: at its turn it is not posted.
    third = WebhookDelivery.objects.filter(hook=hook).order_by("pk").last()
    assert (third.response_code, third.error) == (None, "the hook is disabled")
