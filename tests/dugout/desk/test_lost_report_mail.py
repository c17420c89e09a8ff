"""A weekly-report mail lost with a killed worker (its delivery left `sending`, never resent by the workers) is
shown in the commissioner's queue once it is surely lost, with a one-tap resend: a POST, for a commissioner
only, that mails it once — a second tap, or a tap after a worker took it, mails nothing."""

from __future__ import annotations

import datetime as dt
import smtplib
from unittest import mock

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.urls import reverse
from django.utils import timezone

from dugout.queue import league_queue
from dugout.reports.services import lost_after, report_generate
from league.models import AuditEntry, Membership, ReportDelivery
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
State = ReportDelivery.State
MONDAY = dt.datetime(2026, 11, 30, 8, 0, tzinfo=dt.UTC)


@pytest.fixture
def lost(league):
    """The week's report written; Lost's mail claimed by a worker long ago and never marked sent, Fresh's claimed
    a minute ago (its worker may still be at it), Done's sent."""
    for name in ("lost", "fresh", "done"):
        user = UserFactory(username=name, email=f"{name}@example.com")
        Membership.objects.create(league=league, user=user, role=Membership.Role.COACH)
    report_generate(league_id=league.pk, moment=MONDAY)
    now = timezone.now()
    rows = ReportDelivery.objects.filter(league=league)
    rows.filter(user__username="lost").update(state=State.SENDING, claimed_at=now - lost_after() - dt.timedelta(1))
    rows.filter(user__username="fresh").update(state=State.SENDING, claimed_at=now - dt.timedelta(minutes=1))
    rows.filter(user__username="done").update(state=State.SENT, claimed_at=now, sent_at=now)
    return rows.get(user__username="lost")


def _item(league):
    (item,) = [i for i in league_queue(league=league) if i.kind == "undelivered_report"]
    return item


def _resend(client, league, item):
    return client.post(
        reverse("desk-queue-resend-report", args=[league.pk]),
        {"delivery": item.delivery, "claimed": item.claimed},
        follow=True,
    )


def test_only_the_surely_lost_delivery_is_in_the_queue(league, lost):
    item = _item(league)
    assert item.delivery == lost.pk and item.user == "lost" and item.since == lost.claimed_at
    assert "lost@example.com" in item.detail and "never marked sent" in item.detail


def test_the_queue_page_offers_the_resend_and_the_api_lists_the_item(client, api_as, league, commissioner, lost):
    client.force_login(commissioner)
    page = client.get(reverse("desk-queue", args=[league.pk])).content.decode()
    assert 'data-kind="undelivered_report"' in page and reverse("desk-queue-resend-report", args=[league.pk]) in page
    listed = api_as(commissioner).get(f"/api/v1/leagues/{league.pk}/queue/").json()
    assert [(i["kind"], i["delivery"]) for i in listed if i["kind"] == "undelivered_report"] == [
        ("undelivered_report", lost.pk)
    ]


def test_one_tap_mails_it_once_and_a_second_tap_mails_nothing(client, league, commissioner, lost):
    item = _item(league)
    client.force_login(commissioner)

    first = _resend(client, league, item)

    assert "The report was mailed again." in first.content.decode()
    assert [m.to for m in mail.outbox] == [["lost@example.com"]]
    lost.refresh_from_db()
    assert lost.state == State.SENT and lost.sent_at is not None
    assert AuditEntry.objects.filter(league=league, action="report_resent").count() == 1
    assert not [i for i in league_queue(league=league) if i.kind == "undelivered_report"]

    second = _resend(client, league, item)  # the same tap again (a double tap, a second commissioner)

    assert "Nothing to resend" in second.content.decode()
    assert len(mail.outbox) == 1
    assert AuditEntry.objects.filter(league=league, action="report_resent").count() == 1


def test_a_tap_after_a_worker_took_the_row_again_mails_nothing(client, league, commissioner, lost):
    item = _item(league)
    ReportDelivery.objects.filter(pk=lost.pk).update(claimed_at=timezone.now())  # another claim than the one seen
    client.force_login(commissioner)
    assert "Nothing to resend" in _resend(client, league, item).content.decode()
    assert mail.outbox == []


def test_a_coach_may_not_resend_and_nothing_is_mailed(client, league, coach, make_coach, lost):
    item = _item(league)
    make_coach(coach)
    client.force_login(coach)
    response = client.post(
        reverse("desk-queue-resend-report", args=[league.pk]),
        {"delivery": item.delivery, "claimed": item.claimed},
    )
    assert response.status_code == 403
    assert mail.outbox == []
    assert ReportDelivery.objects.get(pk=lost.pk).state == State.SENDING


def test_a_resend_the_mail_server_refuses_stays_in_the_queue_in_words(client, league, commissioner, lost):
    item = _item(league)
    client.force_login(commissioner)
    refused = smtplib.SMTPRecipientsRefused({"lost@example.com": (550, b"mailbox full")})
    with mock.patch.object(EmailMultiAlternatives, "send", side_effect=refused):
        response = _resend(client, league, item)
    assert "The mail server refused the mail: nothing was sent." in response.content.decode()
    assert _item(league).claimed == item.claimed  # listed again, as it was: the next tap may try again
    assert ReportDelivery.objects.get(pk=lost.pk).state == State.SENDING


def test_a_forged_claim_is_refused_in_words(client, league, commissioner, lost):
    client.force_login(commissioner)
    response = client.post(
        reverse("desk-queue-resend-report", args=[league.pk]),
        {"delivery": lost.pk, "claimed": "yesterday"},
        follow=True,
    )
    assert response.status_code == 200
    assert "Resend it from the queue as it is listed." in response.content.decode()
    assert mail.outbox == []
