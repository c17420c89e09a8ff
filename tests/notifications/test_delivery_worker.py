"""Notification mail and push through a real Celery worker on the real Redis broker: the event commits, the
writer queues the delivery task, a worker mails each recipient and pushes to each subscription once (the push
received by a local push service that decrypts it with the subscription's keys and checks the VAPID signature),
a 410 ends its subscription; and a worker killed with SIGKILL mid-delivery neither loses nor doubles a mail or a
push: a fresh worker gets the unacknowledged task back and sends only what is still pending, and the row the dead
worker had claimed stays `sending` until the sweep marks it failed (it went out: never resent by itself).

The delivery tasks go to a queue of this test's own, so no other worker on the Redis server takes them."""

from __future__ import annotations

import os
import time
from collections import Counter
from contextlib import ExitStack
from datetime import timedelta
from uuid import uuid4

import pytest
from django.conf import settings
from django.core import mail
from django.db import connections, transaction
from django.test import override_settings
from django.utils import timezone

from dugout.celery import app
from notifications.delivery import deliveries_sweep
from notifications.models import Delivery, PushSubscription
from notifications.writer import notify
from tests.dugout.test_worker_killed import Workers, wait_for
from tests.factories import UserFactory
from tests.notifications.push_receiver import PushService
from tests.worker_queues import own_queue

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI runs it against Redis)"),
    pytest.mark.timeout(420),
]
State = Delivery.State


@pytest.fixture
def queue():
    """The delivery tasks routed to a queue of this test's own, put back and deleted afterwards."""
    with own_queue("dugout-test-notify", "dugout.tasks.notifications_*") as name:
        yield name


@pytest.fixture
def push_service():
    with PushService(settings.VAPID_PUBLIC_KEY, settings.VAPID_SUBJECT) as service:
        yield service


def _recipients(push_service, names):
    users = []
    for name in names:
        user = UserFactory(username=name, email=f"{name}@example.com")
        sub = push_service.subscribe(name)
        PushSubscription.objects.create(user=user, endpoint=sub["endpoint"], p256dh=sub["p256dh"], auth=sub["auth"])
        users.append(user)
    return users


def _event(users, actor=None):
    with transaction.atomic():  # the writer queues the delivery task when this commits
        return notify(
            "result_submitted", recipients=users, actor=actor, text="A result waits for you.", url="/matches/3/"
        )


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=True, SITE_URL="https://dugout.example.org")
def test_a_real_worker_mails_and_pushes_each_recipient_once_and_a_410_ends_its_subscription(queue, push_service):
    from celery.contrib.testing.worker import start_worker

    from dugout import tasks  # noqa: F401 (registered)

    actor = UserFactory(username="actor", email="actor@example.com")
    alice, bob, gone = _recipients(push_service, ["alice", "bob", "gone"])
    push_service.answers["gone"] = 410
    options = {"pool": "solo", "perform_ping_check": False, "shutdown_timeout": 30, "loglevel": "WARNING"}
    with ExitStack() as stack:
        stack.enter_context(start_worker(app, hostname=f"notify-{uuid4().hex[:6]}@test", queues=[queue], **options))
        notes = _event([alice, bob, gone, actor], actor=actor)
        settled = Delivery.objects.filter(state__in=[State.SENT, State.FAILED])
        wait_for(lambda: settled.count() == 6, 60, "the worker never settled the deliveries")
        time.sleep(1.0)  # nothing more comes
        connections.close_all()

    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com", "gone@example.com"]
    assert all("https://dugout.example.org/matches/3/" in m.body for m in mail.outbox)
    assert push_service.refused == []
    assert sorted(r["name"] for r in push_service.received) == ["alice", "bob"]
    tags = {r["payload"]["tag"] for r in push_service.received}
    assert tags == {f"notification-{n.pk}" for n in notes if n.user_id in (alice.pk, bob.pk)}
    assert sorted(PushSubscription.objects.values_list("user__username", flat=True)) == ["alice", "bob"]
    states = Counter(Delivery.objects.values_list("channel", "state"))
    assert states == {("email", State.SENT): 3, ("push", State.SENT): 2, ("push", State.FAILED): 1}


def test_a_worker_killed_mid_delivery_neither_loses_nor_doubles_a_mail_or_a_push(queue, push_service, tmp_path):
    users = _recipients(push_service, ["kd-alice", "kd-bob", "kd-carol"])
    workers = Workers(queue, tmp_path)
    environment = {
        "VAPID_PRIVATE_KEY": settings.VAPID_PRIVATE_KEY,
        "VAPID_PUBLIC_KEY": settings.VAPID_PUBLIC_KEY,
        "VAPID_SUBJECT": settings.VAPID_SUBJECT,
        "WEBHOOK_ALLOW_PRIVATE_HOSTS": "1",
    }
    try:
        doomed = workers.start("doomed", MAIL_BLOCK_FILE=str(tmp_path / "never-created"), **environment)
        _event(users)
        wait_for(lambda: len(workers.mailed()) == 1, 120, "the first worker never mailed anyone")
        workers.kill(doomed)  # it mailed the first recipient and is stuck before recording it

        first = Delivery.objects.get(state=State.SENDING)
        assert first.channel == "email" and Delivery.objects.filter(state=State.PENDING).count() == 5
        assert push_service.received == []

        workers.start("fresh", **environment)
        wait_for(
            lambda: Delivery.objects.filter(state=State.SENT).count() == 5,
            300,
            f"the fresh worker never sent the rest: {list(Delivery.objects.values_list('state', 'error'))}",
        )
        time.sleep(1.0)  # nothing more comes
    finally:
        workers.stop_all()
        connections.close_all()

    addresses = sorted(f"{u.username}@example.com" for u in users)
    assert sorted(workers.mailed()) == addresses  # each exactly once: the dead worker's mail not sent again
    assert push_service.refused == []
    assert sorted(r["name"] for r in push_service.received) == ["kd-alice", "kd-bob", "kd-carol"]
    first.refresh_from_db()
    assert first.state == State.SENDING and first.notification.user.email == workers.mailed()[0]
    # Later the sweep marks it failed, saying it may have gone out: visible in the admin, never resent by itself.
    deliveries_sweep(now=timezone.now() + timedelta(minutes=20))
    first.refresh_from_db()
    assert first.state == State.FAILED and "may or may not" in first.error
