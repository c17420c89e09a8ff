"""The notification pages: the list (the user's own, newest first, paged, the unread ones marked, "mark all
read"), opening one (read, then its page; another's is a 404), the header's link and its unread badge fetched by
htmx, and `/account/`'s notification form (a plain form: saved, refused with a 400) and push section."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from notifications.kinds import CHANNELS, KINDS
from notifications.models import Notification, NotificationSettings

pytestmark = pytest.mark.django_db


def note(user, text, *, minutes_ago=0, read=False, url="/me/") -> Notification:
    row = Notification.objects.create(user=user, kind="result_submitted", text=text, url=url)
    at = timezone.now() - dt.timedelta(minutes=minutes_ago)
    Notification.objects.filter(pk=row.pk).update(created_at=at, read_at=at if read else None)
    return row


@pytest.fixture
def as_coach(client, coach):
    client.force_login(coach)
    return client


def every_box(**overrides) -> dict:
    """The form as a browser sends it with every box ticked, then `overrides` (False: unticked)."""
    data = {"digest": "off"}
    data.update({f"{k}-{c}": "on" for k in KINDS for c in CHANNELS})
    for name, value in overrides.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = value
    return data


# --- the list ---------------------------------------------------------------------------------------------------


def test_the_list_shows_the_users_own_newest_first_and_marks_the_unread(as_coach, coach, other_coach):
    note(coach, "Older and read", minutes_ago=30, read=True)
    fresh = note(coach, "Newer and unread")
    note(other_coach, "Bob's business")

    page = as_coach.get(reverse("notifications")).content.decode()

    assert page.index("Newer and unread") < page.index("Older and read")
    assert "Bob's business" not in page
    assert f'class="notification unread" data-kind="result_submitted" data-id="{fresh.pk}"' in page
    assert page.count("notification unread") == 1
    assert reverse("notification-open", args=[fresh.pk]) in page
    assert reverse("notifications-read-all") in page


def test_the_list_pages_and_keeps_the_unread_filter(as_coach, coach):
    Notification.objects.bulk_create(
        Notification(user=coach, kind="invitation", text=f"Note {i:02d}", url="/") for i in range(30)
    )
    Notification.objects.filter(text="Note 00").update(read_at=timezone.now())

    first = as_coach.get(reverse("notifications")).content.decode()
    unread_two = as_coach.get(reverse("notifications"), {"unread": "1", "page": "2"}).content.decode()

    assert first.count('<li class="notification') == 25 and 'rel="next"' in first
    assert unread_two.count('<li class="notification') == 4 and "unread=1" in unread_two
    assert as_coach.get(reverse("notifications"), {"page": "9"}).status_code == 404


def test_opening_one_marks_it_read_and_goes_to_its_page(as_coach, coach):
    row = note(coach, "Confirm it", url="/matches/7/")

    response = as_coach.get(reverse("notification-open", args=[row.pk]))

    assert response.status_code == 302 and response["Location"] == "/matches/7/"
    row.refresh_from_db()
    assert row.read_at is not None


def test_a_notification_pointing_off_site_opens_the_list_instead(as_coach, coach):
    row = note(coach, "Odd", url="https://evil.example/")
    response = as_coach.get(reverse("notification-open", args=[row.pk]))
    assert response["Location"] == reverse("notifications")


def test_another_users_notification_does_not_open(as_coach, other_coach):
    bobs = note(other_coach, "Bob's")
    assert as_coach.get(reverse("notification-open", args=[bobs.pk])).status_code == 404
    bobs.refresh_from_db()
    assert bobs.read_at is None


def test_mark_all_read_marks_the_users_own(as_coach, coach, other_coach):
    note(coach, "a"), note(coach, "b")
    bobs = note(other_coach, "c")

    response = as_coach.post(reverse("notifications-read-all"), follow=True)

    assert response.status_code == 200 and "Marked 2 notifications read." in response.content.decode()
    assert not Notification.objects.filter(user=coach, read_at__isnull=True).exists()
    bobs.refresh_from_db()
    assert bobs.read_at is None
    assert as_coach.get(reverse("notifications-read-all")).status_code == 405


def test_the_pages_need_a_sign_in(client, coach):
    row = note(coach, "x")
    for url in (reverse("notifications"), reverse("notification-open", args=[row.pk]), reverse("account")):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# --- the header -------------------------------------------------------------------------------------------------


def test_the_header_links_the_list_and_the_account_and_asks_for_the_badge_by_htmx(as_coach):
    page = as_coach.get(reverse("me")).content.decode()
    assert f'href="{reverse("notifications")}" id="notifications-link"' in page
    assert f'hx-get="{reverse("notification-count")}"' in page
    assert 'hx-trigger="load, notifications-changed from:body"' in page
    assert f'href="{reverse("account")}" id="account-link"' in page
    assert "js/notifications.js" in page


def test_an_anonymous_header_has_no_badge(client, db):
    page = client.get(reverse("home")).content.decode()
    assert "notification-count" not in page and "js/notifications.js" not in page


def test_the_badge_counts_the_unread_in_one_query(client, coach, other_coach, django_assert_num_queries):
    note(coach, "a"), note(coach, "b"), note(coach, "c", read=True), note(other_coach, "d")
    client.force_login(coach)

    with django_assert_num_queries(3):  # the session, the user, the count
        response = client.get(reverse("notification-count"))

    assert response.status_code == 200
    assert (
        '<span class="badge">2<span class="visually-hidden"> unread notifications</span></span>'
        in response.content.decode()
    )
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_no_unread_no_badge(client, coach):
    note(coach, "read", read=True)
    client.force_login(coach)
    assert client.get(reverse("notification-count")).content.decode().strip() == ""
    client.logout()
    assert client.get(reverse("notification-count")).content.decode().strip() == ""


# --- /account/ --------------------------------------------------------------------------------------------------


def test_the_account_page_shows_every_kind_ticked_as_chosen_and_the_push_section(as_coach, coach):
    NotificationSettings.objects.create(user=coach, kinds={"invitation": {"email": False}}, digest="daily")

    page = as_coach.get(reverse("account")).content.decode()

    for kind in KINDS:
        assert f'data-kind="{kind}"' in page
    assert 'name="invitation-email" id="id_invitation-email"' in page
    assert 'name="invitation-email" id="id_invitation-email" checked' not in page
    assert 'name="invitation-push" id="id_invitation-push" checked' in page
    assert 'name="deadline_soon-push" id="id_deadline_soon-push" checked' not in page  # its default is off
    assert 'value="daily" id="id_digest_1" required checked' in page
    assert 'id="push-on"' in page and "js/push.js" in page
    assert reverse("api-push-subscriptions") in page and reverse("api-push-key") in page
    assert reverse("account-tokens") in page and reverse("password_change") in page


def test_saving_the_form_replaces_the_choices(as_coach, coach):
    data = every_box(**{"result_confirmed-email": False, "result_confirmed-push": False, "digest": "daily"})

    response = as_coach.post(reverse("account-notifications"), data)

    assert response.status_code == 302 and response["Location"] == reverse("account") + "#notifications"
    row = NotificationSettings.objects.get(user=coach)
    assert row.digest == "daily"
    assert row.kinds["result_confirmed"] == {"email": False, "push": False}
    assert row.kinds["invitation"] == {"email": True, "push": True}
    page = as_coach.get(reverse("account")).content.decode()
    assert 'name="result_confirmed-email" id="id_result_confirmed-email" checked' not in page


def test_a_refused_form_is_the_page_again_with_a_400_and_nothing_saved(as_coach, coach):
    response = as_coach.post(reverse("account-notifications"), every_box(digest="hourly"))

    assert response.status_code == 400
    assert 'id="notification-settings"' in response.content.decode()
    assert not NotificationSettings.objects.filter(user=coach).exists()


def test_the_account_page_shows_the_calendar_and_the_discord_sections(as_coach):
    page = as_coach.get(reverse("account")).content.decode()
    assert reverse("account-calendar-rotate") in page
    assert reverse("account-discord") in page
