"""The outbox's sending side, in one process (the worker tests are in test_delivery_worker.py): each row claimed
once and sent at most once, e-mail from the kind's template with absolute links, Web Push encrypted for the
subscription and signed with the VAPID key (checked by a local push service), a 404/410 ending the
subscription, every refusal recorded with its reason, the sweep, the digest, and the admin's "send again"."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.core import mail
from django.db import transaction
from django.template.loader import get_template
from django.test import override_settings
from django.utils import timezone

from notifications import delivery
from notifications.delivery import deliveries_resend, deliveries_send, deliveries_sweep, digest_send
from notifications.kinds import KINDS
from notifications.models import Delivery, Notification, NotificationSettings, PushSubscription
from notifications.writer import notify
from tests.factories import LeagueFactory, UserFactory
from tests.notifications.push_receiver import PushService

pytestmark = pytest.mark.django_db
BASE = "https://dugout.example.org"
State = Delivery.State


def _notify(recipients, kind="result_submitted", text="Bob entered the result of Humes v Goblins.", **kw):
    with transaction.atomic():
        return notify(kind, recipients=recipients, actor=None, text=text, url="/matches/7/", **kw)


def _ids(**filters) -> list[int]:
    return list(Delivery.objects.filter(**filters).order_by("pk").values_list("pk", flat=True))


@pytest.fixture
def push_service():
    with PushService(settings.VAPID_PUBLIC_KEY, settings.VAPID_SUBJECT) as service:
        yield service


def _subscribe(service, user, name):
    sub = service.subscribe(name)
    return PushSubscription.objects.create(user=user, endpoint=sub["endpoint"], p256dh=sub["p256dh"], auth=sub["auth"])


# --- E-mail ----------------------------------------------------------------------------------------------------


def test_every_kind_has_its_mail_template():
    for kind in KINDS:
        assert get_template(f"notifications/email/{kind}.txt")


def test_a_mail_per_recipient_from_the_kind_template_with_absolute_links():
    league = LeagueFactory(name="Gil & Co Cup")
    alice, bob = UserFactory(username="alice", email="alice@example.com"), UserFactory(email="bob@example.com")
    _notify([alice, bob], league=league)
    assert deliveries_send(delivery_ids=_ids(), base_url=BASE) == {"sent": 2, "failed": 0}
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]
    message = next(m for m in mail.outbox if m.to == ["alice@example.com"])
    assert message.subject == "Gil & Co Cup: A result waits for your confirmation"
    assert "Hello alice," in message.body
    assert "Bob entered the result of Humes v Goblins." in message.body
    assert "confirm it, or reject or dispute it" in message.body  # the kind's own words
    assert f"{BASE}/matches/7/" in message.body and f"{BASE}/account/" in message.body
    assert set(Delivery.objects.values_list("state", flat=True)) == {State.SENT}
    assert all(d.sent_at for d in Delivery.objects.all())


def test_a_row_is_sent_once_however_often_it_is_queued():
    _notify([UserFactory(email="a@example.com")])
    ids = _ids()
    assert deliveries_send(delivery_ids=ids, base_url=BASE)["sent"] == 1
    assert deliveries_send(delivery_ids=ids, base_url=BASE) == {"sent": 0, "failed": 0}
    assert len(mail.outbox) == 1


def test_a_row_claimed_by_another_worker_is_left_to_it():
    _notify([UserFactory(email="a@example.com")])
    row = Delivery.objects.get()
    original = Delivery.objects.filter

    def racing_filter(*args, **kwargs):
        # Between reading the pending rows and claiming this one, another worker claims it.
        if kwargs.get("pk") == row.pk and kwargs.get("state") == State.PENDING:
            original(pk=row.pk).update(state=State.SENDING, claimed_at=timezone.now())
        return original(*args, **kwargs)

    with mock.patch.object(Delivery.objects, "filter", side_effect=racing_filter):
        assert deliveries_send(delivery_ids=[row.pk], base_url=BASE) == {"sent": 0, "failed": 0}
    assert mail.outbox == []


def test_a_refused_mail_is_failed_with_its_reason_and_the_others_still_go():
    _notify([UserFactory(email="a@example.com"), UserFactory(email="b@example.com")])
    calls = []

    def send(self, fail_silently=False):
        calls.append(self.to[0])
        if self.to == ["a@example.com"]:
            raise ConnectionRefusedError("no mail server")
        return 1

    with mock.patch("django.core.mail.EmailMessage.send", send):
        assert deliveries_send(delivery_ids=_ids(), base_url=BASE) == {"sent": 1, "failed": 1}
    failed = Delivery.objects.get(state=State.FAILED)
    assert failed.notification.user.email == "a@example.com"
    assert "no mail server" in failed.error and failed.sent_at is None
    assert sorted(calls) == ["a@example.com", "b@example.com"]


def test_a_timed_out_mail_is_failed_as_perhaps_sent():
    _notify([UserFactory(email="a@example.com")])
    with mock.patch("django.core.mail.EmailMessage.send", side_effect=TimeoutError):
        deliveries_send(delivery_ids=_ids(), base_url=BASE)
    assert "may or may not have gone out" in Delivery.objects.get(state=State.FAILED).error


# --- Web Push --------------------------------------------------------------------------------------------------


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=True)
def test_a_push_to_each_subscription_encrypted_for_it_and_signed_with_the_vapid_key(push_service):
    alice, bob = UserFactory(email=""), UserFactory(email="")
    _subscribe(push_service, alice, "alice-phone")
    _subscribe(push_service, alice, "alice-laptop")
    _subscribe(push_service, bob, "bob-phone")
    notes = _notify([alice, bob])
    assert deliveries_send(delivery_ids=_ids(channel="push"), base_url=BASE) == {"sent": 2, "failed": 0}
    assert push_service.refused == []
    assert sorted(r["name"] for r in push_service.received) == ["alice-laptop", "alice-phone", "bob-phone"]
    alice_note = next(n for n in notes if n.user_id == alice.pk)
    phone = next(r for r in push_service.received if r["name"] == "alice-phone")
    assert phone["payload"] == {
        "title": "Dugout",
        "body": "Bob entered the result of Humes v Goblins.",
        "url": f"{BASE}/matches/7/",
        "tag": f"notification-{alice_note.pk}",
    }
    assert phone["claims"]["sub"] == settings.VAPID_SUBJECT and phone["ttl"] == str(settings.PUSH_TTL)
    assert set(Delivery.objects.values_list("state", flat=True)) == {State.SENT}


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=True)
def test_a_410_ends_that_subscription_and_the_push_still_counts_where_another_took_it(push_service):
    alice, bob = UserFactory(email=""), UserFactory(email="")
    _subscribe(push_service, alice, "alice-old")
    kept = _subscribe(push_service, alice, "alice-new")
    _subscribe(push_service, bob, "bob-gone")
    push_service.answers.update({"alice-old": 410, "bob-gone": 404})
    _notify([alice, bob])
    assert deliveries_send(delivery_ids=_ids(channel="push"), base_url=BASE) == {"sent": 1, "failed": 1}
    assert list(PushSubscription.objects.values_list("pk", flat=True)) == [kept.pk]
    failed = Delivery.objects.get(state=State.FAILED)
    assert failed.notification.user_id == bob.pk and "ended" in failed.error


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=True)
def test_another_refusal_fails_the_push_with_the_reason_and_keeps_the_subscription(push_service):
    alice = UserFactory(email="")
    _subscribe(push_service, alice, "alice")
    push_service.answers["alice"] = 500
    _notify([alice])
    deliveries_send(delivery_ids=_ids(), base_url=BASE)
    row = Delivery.objects.get()
    assert row.state == State.FAILED and "500" in row.error and "127.0.0.1" in row.error
    assert "/push/alice" not in row.error  # the endpoint's path is the subscription's secret
    assert PushSubscription.objects.count() == 1


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=True)
def test_a_redirect_is_not_followed(push_service):
    alice = UserFactory(email="")
    _subscribe(push_service, alice, "alice")
    push_service.answers["alice"] = 307
    _notify([alice])
    deliveries_send(delivery_ids=_ids(), base_url=BASE)
    assert push_service.requests == 1
    assert "307" in Delivery.objects.get(state=State.FAILED).error


def test_a_plain_http_endpoint_or_one_the_check_refuses_is_not_pushed_to(push_service):
    alice, bob = UserFactory(email=""), UserFactory(email="")
    _subscribe(push_service, alice, "alice")  # http://127.0.0.1: refused without WEBHOOK_ALLOW_PRIVATE_HOSTS
    PushSubscription.objects.create(user=bob, endpoint="https://push.internal/x", p256dh="k", auth="a")
    _notify([alice, bob])

    def check(url):
        raise ValueError("a private host")

    assert deliveries_send(delivery_ids=_ids(), base_url=BASE, endpoint_check=check) == {"sent": 0, "failed": 2}
    errors = dict(Delivery.objects.values_list("notification__user_id", "error"))
    assert "https" in errors[alice.pk] and "a private host" in errors[bob.pk]
    assert push_service.requests == 0


@override_settings(VAPID_PRIVATE_KEY="", VAPID_PUBLIC_KEY="", WEBHOOK_ALLOW_PRIVATE_HOSTS=True)
def test_without_vapid_keys_push_is_off_and_mail_unaffected(push_service):
    alice = UserFactory(email="alice@example.com")
    _subscribe(push_service, alice, "alice")
    _notify([alice])
    assert deliveries_send(delivery_ids=_ids(), base_url=BASE) == {"sent": 1, "failed": 1}
    push = Delivery.objects.get(channel="push")
    assert push.state == State.FAILED and "no VAPID key" in push.error
    assert len(mail.outbox) == 1 and push_service.requests == 0


def test_a_push_with_no_subscription_left_fails_saying_so():
    alice = UserFactory(email="")
    PushSubscription.objects.create(user=alice, endpoint="https://push.example/1", p256dh="k", auth="a")
    _notify([alice])
    PushSubscription.objects.all().delete()
    deliveries_send(delivery_ids=_ids(), base_url=BASE)
    assert "unsubscribed" in Delivery.objects.get().error


# --- The digest ------------------------------------------------------------------------------------------------


def test_the_digest_groups_a_users_held_mails_into_one_and_sends_each_once():
    reader, other = UserFactory(username="reader", email="r@example.com"), UserFactory(email="o@example.com")
    NotificationSettings.objects.create(user=reader, digest="daily")
    NotificationSettings.objects.create(user=other, digest="daily")
    league = LeagueFactory(name="Gil Cup")
    _notify([reader, other], text="First thing", league=league)
    _notify([reader], kind="time_proposed", text="Second thing")
    _notify([UserFactory(email="single@example.com")], text="Not held")
    assert Delivery.objects.filter(state=State.HELD).count() == 3

    assert digest_send(base_url=BASE) == {"sent": 2, "failed": 0}
    assert sorted(m.to[0] for m in mail.outbox) == ["o@example.com", "r@example.com"]
    digest = next(m for m in mail.outbox if m.to == ["r@example.com"])
    assert digest.subject == "Dugout: 2 notifications since yesterday"
    assert digest.body.index("Gil Cup: First thing") < digest.body.index("Second thing")
    assert digest.body.count(f"{BASE}/matches/7/") == 2
    assert Delivery.objects.filter(state=State.SENT).count() == 3
    assert Delivery.objects.get(notification__text="Not held").state == State.PENDING  # not the digest's

    assert digest_send(base_url=BASE) == {"sent": 0, "failed": 0}  # nothing twice
    assert len(mail.outbox) == 2


def test_the_digest_leaves_what_came_after_its_moment_for_the_next():
    reader = UserFactory(email="r@example.com")
    NotificationSettings.objects.create(user=reader, digest="daily")
    _notify([reader])
    digest_send(base_url=BASE, now=timezone.now() - timedelta(hours=1))
    assert mail.outbox == [] and Delivery.objects.get().state == State.HELD


# --- The sweep and "send again" --------------------------------------------------------------------------------


def test_the_sweep_queues_the_missed_and_fails_the_stuck_and_the_stale():
    users = [UserFactory(email=f"u{n}@example.com") for n in range(4)]
    NotificationSettings.objects.create(user=users[3], digest="daily")
    _notify(users)
    missed, stuck, stale, held = Delivery.objects.order_by("notification__user_id")
    now = timezone.now()
    Delivery.objects.filter(pk=missed.pk).update(created_at=now - timedelta(minutes=5))
    Delivery.objects.filter(pk=stuck.pk).update(state=State.SENDING, claimed_at=now - timedelta(minutes=20))
    Delivery.objects.filter(pk=stale.pk).update(created_at=now - timedelta(days=2))
    Delivery.objects.filter(pk=held.pk).update(created_at=now - timedelta(days=4))
    with mock.patch.object(delivery, "queue_deliveries") as queued:
        assert deliveries_sweep(now=now) == {"queued": 1, "expired": 2, "stuck": 1}
    queued.assert_called_once_with([missed.pk])
    states = dict(Delivery.objects.values_list("pk", "state"))
    assert states == {missed.pk: State.PENDING, stuck.pk: State.FAILED, stale.pk: State.FAILED, held.pk: State.FAILED}
    assert "may or may not" in Delivery.objects.get(pk=stuck.pk).error


def test_send_again_requeues_failed_mails_only(django_capture_on_commit_callbacks):
    alice = UserFactory(email="a@example.com")
    PushSubscription.objects.create(user=alice, endpoint="https://push.example/1", p256dh="k", auth="a")
    _notify([alice])
    Delivery.objects.update(state=State.FAILED, error="refused")
    with mock.patch.object(delivery, "queue_deliveries") as queued, django_capture_on_commit_callbacks(execute=True):
        assert deliveries_resend(delivery_ids=_ids()) == 1
    email = Delivery.objects.get(channel="email")
    queued.assert_called_once_with([email.pk])
    assert (email.state, email.error) == (State.PENDING, "")
    assert Delivery.objects.get(channel="push").state == State.FAILED
    deliveries_send(delivery_ids=[email.pk], base_url=BASE)
    assert len(mail.outbox) == 1


def test_the_admin_lists_failed_deliveries_and_sends_a_mail_again(client):
    admin = UserFactory(is_staff=True, is_superuser=True)
    alice = UserFactory(username="alice-failed", email="a@example.com")
    _notify([alice])
    Delivery.objects.update(state=State.FAILED, error="The mail server refused it: boom")
    client.force_login(admin)
    page = client.get("/admin/notifications/delivery/?state__exact=failed")
    assert page.status_code == 200
    assert b"alice-failed" in page.content and b"The mail server refused it: boom" in page.content
    with mock.patch.object(delivery, "queue_deliveries"):
        answer = client.post(
            "/admin/notifications/delivery/",
            {"action": "send_again", "_selected_action": _ids()},
            follow=True,
        )
    assert b"1 failed e-mail queued again." in answer.content
    assert Delivery.objects.get().state == State.PENDING
    assert client.get(f"/admin/notifications/notification/{Notification.objects.get().pk}/change/").status_code == 200


# --- The tasks' wiring -----------------------------------------------------------------------------------------


@override_settings(SITE_URL="https://league.example.net")
def test_the_task_links_on_the_site_address_and_refuses_private_push_endpoints():
    from dugout.tasks import notifications_deliver

    alice = UserFactory(email="a@example.com")
    PushSubscription.objects.create(user=alice, endpoint="https://127.0.0.1:8443/push/1", p256dh="k", auth="a")
    _notify([alice])
    assert notifications_deliver(_ids()) == {"sent": 1, "failed": 1}
    assert "https://league.example.net/matches/7/" in mail.outbox[0].body
    assert "public hosts only" in Delivery.objects.get(channel="push").error


def test_a_big_batch_is_split_into_tasks_of_twenty():
    from dugout.tasks import notifications_deliver

    with mock.patch.object(notifications_deliver, "apply_async") as queued:
        assert notifications_deliver(list(range(1, 46))) == {"split": 45}
    chunks = [call.kwargs["args"][0] for call in queued.call_args_list]
    assert chunks == [list(range(1, 21)), list(range(21, 41)), list(range(41, 46))]
