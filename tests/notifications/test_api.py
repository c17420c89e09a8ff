"""The notifications API (contract v1.2 "Notifications" and "Web push"): the caller's own list, newest first and
paged; marking one (another's is a 404) or all read; the settings' round trip and its 400s; the VAPID key; push
subscriptions created, answered again, taken over by another user, refused when not https, and ended."""

from __future__ import annotations

import base64
import datetime as dt
import os

import pytest
from django.test import override_settings
from django.utils import timezone

from notifications.kinds import KINDS, default_channels
from notifications.models import Notification, NotificationSettings, PushSubscription

pytestmark = pytest.mark.django_db

LIST, READ_ALL, SETTINGS = (
    "/api/v1/notifications/",
    "/api/v1/notifications/read-all/",
    "/api/v1/account/notification-settings/",
)
KEY, SUBSCRIPTIONS = "/api/v1/account/push/key/", "/api/v1/account/push/subscriptions/"


def note(user, text="A result waits", *, minutes_ago=0, read=False, **fields) -> Notification:
    row = Notification.objects.create(
        user=user, kind=fields.pop("kind", "result_submitted"), text=text, url="/me/", **fields
    )
    at = timezone.now() - dt.timedelta(minutes=minutes_ago)
    Notification.objects.filter(pk=row.pk).update(created_at=at, read_at=at if read else None)
    row.refresh_from_db()
    return row


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def browser(endpoint="https://push.example.net/send/abc123") -> dict:
    """A browser's PushSubscription.toJSON(): an uncompressed P-256 point and a 16-byte secret."""
    return {"endpoint": endpoint, "keys": {"p256dh": b64(b"\x04" + os.urandom(64)), "auth": b64(os.urandom(16))}}


# --- the list ---------------------------------------------------------------------------------------------------


def test_the_list_is_the_callers_own_newest_first_with_the_contracts_fields(api_as, coach, other_coach, league):
    old = note(coach, "older", minutes_ago=10, read=True)
    new = note(coach, "newer", league=league)
    note(other_coach, "not alice's")

    body = api_as(coach).get(LIST).json()

    assert body["count"] == 2 and body["next"] is None and body["previous"] is None
    assert [r["id"] for r in body["results"]] == [new.pk, old.pk]
    first = body["results"][0]
    assert set(first) == {"id", "kind", "league", "match", "team", "text", "url", "created_at", "read_at"}
    assert first["league"] == league.pk and first["match"] is None and first["read_at"] is None
    assert body["results"][1]["read_at"] is not None


def test_unread_true_leaves_out_the_read_ones_and_a_wrong_value_is_a_400(api_as, coach):
    note(coach, "read", read=True)
    unread = note(coach, "unread")
    client = api_as(coach)

    assert [r["id"] for r in client.get(LIST, {"unread": "true"}).json()["results"]] == [unread.pk]
    assert client.get(LIST, {"unread": "false"}).json()["count"] == 2
    response = client.get(LIST, {"unread": "yes please"})
    assert response.status_code == 400 and "unread" in response.json()


def test_the_list_pages_as_the_other_lists(api_as, coach):
    Notification.objects.bulk_create(
        Notification(user=coach, kind="invitation", text=f"n{i}", url="/") for i in range(55)
    )
    body = api_as(coach).get(LIST).json()
    assert body["count"] == 55 and len(body["results"]) == 50 and body["next"].endswith("page=2")
    assert api_as(coach).get(LIST, {"page": "3"}).status_code == 404


def test_the_list_needs_a_signed_in_caller(api):
    assert api.get(LIST).status_code == 401


# --- marking read -----------------------------------------------------------------------------------------------


def test_marking_one_read_answers_it_with_read_at_and_keeps_the_first_time(api_as, coach):
    row = note(coach)
    client = api_as(coach)

    first = client.post(f"{LIST}{row.pk}/read/")
    again = client.post(f"{LIST}{row.pk}/read/")

    assert first.status_code == 200 and first.json()["id"] == row.pk and first.json()["read_at"]
    assert again.json()["read_at"] == first.json()["read_at"]
    row.refresh_from_db()
    assert row.read_at is not None


def test_another_users_notification_is_a_404_and_stays_unread(api_as, coach, other_coach):
    bobs = note(other_coach)

    assert api_as(coach).post(f"{LIST}{bobs.pk}/read/").status_code == 404
    assert api_as(coach).post(f"{LIST}99999999999999999999/read/").status_code == 404
    bobs.refresh_from_db()
    assert bobs.read_at is None


def test_read_all_marks_the_callers_unread_ones_and_says_how_many(api_as, coach, other_coach):
    note(coach), note(coach), note(coach, read=True)
    bobs = note(other_coach)

    response = api_as(coach).post(READ_ALL)

    assert response.status_code == 200 and response.json() == {"marked": 2}
    assert not Notification.objects.filter(user=coach, read_at__isnull=True).exists()
    assert api_as(coach).post(READ_ALL).json() == {"marked": 0}
    bobs.refresh_from_db()
    assert bobs.read_at is None


# --- settings ---------------------------------------------------------------------------------------------------


def test_settings_answer_every_kind_at_its_default_for_a_new_account(api_as, coach):
    body = api_as(coach).get(SETTINGS).json()
    assert body == {"kinds": default_channels(), "digest": "off"}
    assert body["kinds"]["deadline_soon"] == {"email": True, "push": False}


def test_settings_round_trip(api_as, coach):
    client = api_as(coach)
    chosen = client.get(SETTINGS).json()
    chosen["kinds"]["result_confirmed"] = {"email": False, "push": False}
    chosen["kinds"]["deadline_soon"]["push"] = True
    chosen["digest"] = "daily"

    put = client.put(SETTINGS, chosen, format="json")

    assert put.status_code == 200, put.content
    assert put.json() == chosen == client.get(SETTINGS).json()
    row = NotificationSettings.objects.get(user=coach)
    assert row.digest == "daily" and row.kinds["result_confirmed"] == {"email": False, "push": False}


def test_a_kind_or_channel_left_out_is_at_its_default(api_as, coach):
    NotificationSettings.objects.create(user=coach, kinds={"invitation": {"email": False, "push": False}})
    body = {"kinds": {"result_confirmed": {"email": False}}, "digest": "off"}

    answer = api_as(coach).put(SETTINGS, body, format="json").json()

    assert answer["kinds"]["result_confirmed"] == {"email": False, "push": True}
    assert answer["kinds"]["invitation"] == {"email": True, "push": True}  # PUT replaces: back to the default


@pytest.mark.parametrize(
    "body, field",
    [
        ({"kinds": {"no_such_kind": {"email": True}}, "digest": "off"}, "kinds"),
        ({"kinds": {"invitation": {"sms": True}}, "digest": "off"}, "kinds"),
        ({"kinds": {"invitation": {"in_app": False}}, "digest": "off"}, "kinds"),
        ({"kinds": {"invitation": {"email": "yes"}}, "digest": "off"}, "kinds"),
        ({"kinds": {"invitation": True}, "digest": "off"}, "kinds"),
        ({"kinds": [], "digest": "off"}, "kinds"),
        ({"kinds": {}, "digest": "weekly"}, "digest"),
        ({"digest": "off"}, "kinds"),
        ({"kinds": {}}, "digest"),
    ],
)
def test_an_unknown_kind_or_channel_or_a_wrong_shape_is_a_400_naming_it_and_nothing_changes(api_as, coach, body, field):
    response = api_as(coach).put(SETTINGS, body, format="json")

    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not NotificationSettings.objects.filter(user=coach).exists()


def test_settings_need_a_signed_in_caller(api):
    assert api.get(SETTINGS).status_code == 401
    assert api.put(SETTINGS, {"kinds": {}, "digest": "off"}, format="json").status_code == 401


def test_every_kind_of_the_table_is_in_the_settings(api_as, coach):
    assert set(api_as(coach).get(SETTINGS).json()["kinds"]) == set(KINDS)


# --- web push ---------------------------------------------------------------------------------------------------


@override_settings(VAPID_PUBLIC_KEY="BExampleKey_-")
def test_the_push_key_is_public(api):
    response = api.get(KEY)
    assert response.status_code == 200 and response.json() == {"public_key": "BExampleKey_-"}


def test_the_push_key_is_empty_where_pushes_are_not_set_up(api, settings):
    if hasattr(settings, "VAPID_PUBLIC_KEY"):
        del settings.VAPID_PUBLIC_KEY
    assert api.get(KEY).json() == {"public_key": ""}


def test_a_subscription_is_made_then_the_same_endpoint_again_is_the_same_one(api_as, coach):
    client, sent = api_as(coach), browser()

    made = client.post(SUBSCRIPTIONS, sent, format="json")
    again = client.post(SUBSCRIPTIONS, sent, format="json")

    assert made.status_code == 201, made.content
    assert set(made.json()) == {"id", "endpoint", "created_at"} and made.json()["endpoint"] == sent["endpoint"]
    assert again.status_code == 200 and again.json() == made.json()
    row = PushSubscription.objects.get()
    assert (row.user, row.p256dh, row.auth) == (coach, sent["keys"]["p256dh"], sent["keys"]["auth"])


def test_the_same_endpoint_with_new_keys_keeps_the_row_and_takes_the_keys(api_as, coach):
    client, first = api_as(coach), browser()
    made = client.post(SUBSCRIPTIONS, first, format="json").json()
    renewed = browser(first["endpoint"])

    assert client.post(SUBSCRIPTIONS, renewed, format="json").json()["id"] == made["id"]
    assert PushSubscription.objects.get().p256dh == renewed["keys"]["p256dh"]


def test_another_user_posting_an_endpoint_takes_the_browser_over(api_as, coach, other_coach):
    sent = browser()
    alices = api_as(coach).post(SUBSCRIPTIONS, sent, format="json").json()

    bobs = api_as(other_coach).post(SUBSCRIPTIONS, sent, format="json")

    assert bobs.status_code == 201 and bobs.json()["id"] != alices["id"]
    row = PushSubscription.objects.get()
    assert row.user == other_coach and row.pk == bobs.json()["id"]
    assert api_as(coach).delete(f"{SUBSCRIPTIONS}{alices['id']}/").status_code == 404


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=False)
@pytest.mark.parametrize(
    "endpoint", ["http://push.example.net/send/1", "ftp://push.example.net/1", "not a url", "https://", 5]
)
def test_an_endpoint_that_is_not_https_is_a_400(api_as, coach, endpoint):
    response = api_as(coach).post(SUBSCRIPTIONS, {**browser(), "endpoint": endpoint}, format="json")
    assert response.status_code == 400 and "endpoint" in response.json()
    assert not PushSubscription.objects.exists()


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=True)
def test_plain_http_is_allowed_where_private_hosts_are(api_as, coach):
    response = api_as(coach).post(SUBSCRIPTIONS, browser("http://127.0.0.1:8080/push/1"), format="json")
    assert response.status_code == 201, response.content


@pytest.mark.parametrize(
    "keys",
    [
        {"p256dh": "not base64 at all!", "auth": b64(b"0" * 16)},
        {"p256dh": b64(b"\x04" + b"1" * 10), "auth": b64(b"0" * 16)},
        {"p256dh": b64(b"\x02" + b"1" * 64), "auth": b64(b"0" * 16)},
        {"p256dh": b64(b"\x04" + b"1" * 64), "auth": b64(b"0" * 3)},
        {"p256dh": b64(b"\x04" + b"1" * 64)},
        {"p256dh": 7, "auth": b64(b"0" * 16)},
    ],
)
def test_keys_that_no_browser_sends_are_a_400(api_as, coach, keys):
    response = api_as(coach).post(SUBSCRIPTIONS, {**browser(), "keys": keys}, format="json")
    assert response.status_code == 400 and "keys" in response.json()
    assert not PushSubscription.objects.exists()


def test_a_subscription_is_ended_by_its_user_only(api_as, coach, other_coach):
    made = api_as(coach).post(SUBSCRIPTIONS, browser(), format="json").json()
    url = f"{SUBSCRIPTIONS}{made['id']}/"

    assert api_as(other_coach).delete(url).status_code == 404
    assert PushSubscription.objects.exists()
    assert api_as(coach).delete(url).status_code == 204
    assert not PushSubscription.objects.exists()
    assert api_as(coach).delete(url).status_code == 404


def test_subscribing_needs_a_signed_in_caller(api):
    assert api.post(SUBSCRIPTIONS, browser(), format="json").status_code == 401


def test_the_schema_describes_every_operation(api):
    schema = api.get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    assert set(paths[LIST]["get"]["responses"]) >= {"200", "401"}
    assert "unread" in {p["name"] for p in paths[LIST]["get"]["parameters"]}
    assert "200" in paths["/api/v1/notifications/{id}/read/"]["post"]["responses"]
    assert {"200", "201", "400"} <= set(paths[SUBSCRIPTIONS]["post"]["responses"])
    assert "204" in paths["/api/v1/account/push/subscriptions/{id}/"]["delete"]["responses"]
    assert {"get", "put"} <= set(paths[SETTINGS])
    kinds = schema["components"]["schemas"]["NotificationKindsOut"]["properties"]
    assert set(kinds) == set(KINDS)
