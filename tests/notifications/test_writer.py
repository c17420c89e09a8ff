"""The one writer: one notification per recipient, never the actor, outbox rows per chosen channel, nothing
when the event's transaction rolls back, and a kind it does not know refused."""

import pytest
from django.db import transaction

from notifications.models import Delivery, Notification, NotificationSettings, PushSubscription
from notifications.writer import notify
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _notify(recipients, actor, kind="result_confirmed"):
    with transaction.atomic():
        return notify(kind, recipients=recipients, actor=actor, text="A result", url="/matches/1/")


def test_one_per_recipient_never_the_actor():
    actor, a, b = UserFactory(), UserFactory(), UserFactory()
    notes = _notify([a, b, b.pk, actor, None], actor)
    assert sorted(n.user_id for n in notes) == sorted([a.pk, b.pk])
    assert Notification.objects.count() == 2


def test_channels_follow_the_settings_and_the_subscriptions():
    actor, mailed, quiet, pushed = UserFactory(), UserFactory(), UserFactory(), UserFactory(email="")
    NotificationSettings.objects.create(user=quiet, kinds={"result_confirmed": {"email": False, "push": False}})
    PushSubscription.objects.create(user=pushed, endpoint="https://push.example/1", p256dh="k", auth="a")
    _notify([mailed, quiet, pushed], actor)
    rows = {(d.notification.user_id, d.channel) for d in Delivery.objects.select_related("notification")}
    assert rows == {(mailed.pk, "email"), (pushed.pk, "push")}


def test_a_daily_digest_holds_the_mail():
    actor, user = UserFactory(), UserFactory()
    NotificationSettings.objects.create(user=user, digest="daily")
    _notify([user], actor)
    assert Delivery.objects.get().state == Delivery.State.HELD


def test_a_rolled_back_event_tells_nobody():
    actor, user = UserFactory(), UserFactory()
    with pytest.raises(RuntimeError), transaction.atomic():
        notify("invitation", recipients=[user], actor=actor, text="x", url="/")
        raise RuntimeError("the event is refused")
    assert not Notification.objects.exists()


def test_an_unknown_kind_is_a_programming_error():
    with pytest.raises(ValueError):
        _notify([UserFactory()], None, kind="nonsense")


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_is_a_programming_error():
    with pytest.raises(RuntimeError):
        notify("invitation", recipients=[UserFactory()], actor=None, text="x", url="/")
