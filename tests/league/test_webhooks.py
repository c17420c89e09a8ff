"""Outgoing webhooks (issue 14, "Outgoing webhooks per league"; docs/decisions/ "Webhooks"): the URL guard, the
signature, the payloads, the outbox (one delivery per hook and event), the attempt's outcomes, and the API."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket

import pytest
from django.db import transaction
from django.test import override_settings

from campaigns.errors import RuleViolation
from league.models import AuditEntry, Webhook, WebhookDelivery
from league.webhooks import deliver, payloads
from league.webhooks.emit import event_emit
from league.webhooks.guard import url_check
from tests.league.webhook_helpers import Receiver, play, teams

pytestmark = pytest.mark.django_db
URL = "/api/v1/leagues/{}/webhooks/"


def resolving_to(*addresses):
    """A stub for socket.getaddrinfo answering the given addresses."""

    def resolve(host, port, **kwargs):
        family = socket.AF_INET6 if ":" in addresses[0] else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses]

    return resolve


@pytest.mark.parametrize(
    "address", ["127.0.0.1", "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254", "::1", "fe80::1", "0.0.0.0"]
)
def test_issue14_webhooks_the_guard_refuses_loopback_private_and_link_local_hosts(address):
    with pytest.raises(RuleViolation) as refused:
        url_check("https://hooks.example.com/x", resolver=resolving_to(address), allow_private=False)
    assert refused.value.field == "url"


def test_issue14_webhooks_the_guard_refuses_a_name_resolving_to_one_private_address_among_public_ones():
    with pytest.raises(RuleViolation):
        url_check("https://mixed.example.com/", resolver=resolving_to("93.184.216.34", "10.0.0.1"), allow_private=False)


def test_issue14_webhooks_the_guard_accepts_a_public_host_and_only_http_s():
    public = resolving_to("93.184.216.34")
    assert (
        url_check(" https://hooks.example.com/x ", resolver=public, allow_private=False)
        == "https://hooks.example.com/x"
    )
    assert url_check("http://hooks.example.com/", resolver=public, allow_private=False)
    for bad in (
        "ftp://hooks.example.com/",
        "file:///etc/passwd",
        "https://",
        "hooks.example.com",
        "",
        7,
        None,
        "https://user:pw@hooks.example.com/",
        "https://[::1/",
    ):
        with pytest.raises(RuleViolation):
            url_check(bad, resolver=public, allow_private=False)


def test_issue14_webhooks_the_setting_allows_private_hosts_for_tests_and_closed_networks():
    assert url_check("http://127.0.0.1:9/x", allow_private=True) == "http://127.0.0.1:9/x"
    with override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=False), pytest.raises(RuleViolation):
        url_check("http://127.0.0.1:9/x")


def test_issue14_webhooks_the_signature_is_the_hex_hmac_sha256_of_the_body():
    body = b'{"event":"result_confirmed"}'
    expected = hmac.new(b"s3cret", body, hashlib.sha256).hexdigest()
    assert deliver.signature("s3cret", body) == f"sha256={expected}"


FACTS = {
    "league": {"id": 1, "name": "Cup"},
    "match": {
        "id": 9,
        "path": "/matches/9/",
        "card_path": "/matches/9/card.png",
        "teams": [{"id": 1, "name": "Home", "score": 2}, {"id": 2, "name": "Away", "score": 1}],
    },
}


def test_issue14_webhooks_payload_shapes_discord_embed_slack_blocks_and_json():
    discord = payloads.body("discord", "result_confirmed", FACTS, "https://d.example")
    embed = discord["embeds"][0]
    assert embed["url"] == "https://d.example/matches/9/" and embed["description"] == "Home 2 – Away 1"
    assert embed["image"] == {"url": "https://d.example/matches/9/card.png"}
    assert [f["name"] for f in embed["fields"]] == ["Home", "Away"]
    slack = payloads.body("slack", "result_confirmed", FACTS, "https://d.example")
    assert slack["blocks"][0]["type"] == "section" and "Home 2 – Away 1" in slack["blocks"][0]["text"]["text"]
    assert slack["blocks"][1]["elements"][0]["url"] == "https://d.example/matches/9/"
    body = payloads.body("json", "result_confirmed", FACTS, "https://d.example")
    assert body["event"] == "result_confirmed" and body["league"] == {"id": 1, "name": "Cup"}
    assert body["match"]["url"] == "https://d.example/matches/9/" and "path" not in body["match"]
    died = {
        "league": FACTS["league"],
        "player": {"id": 3, "name": "Grim", "team": {"id": 2, "name": "Away"}},
        "match": {"id": 9, "path": "/matches/9/"},
    }
    assert payloads.body("discord", "player_died", died, "")["embeds"][0]["description"] == "Grim (Away) has died."
    report = {"league": FACTS["league"], "report": {"week": "2026-W49", "path": "/r/"}}
    assert (
        payloads.body("slack", "report_published", report, "https://d")["blocks"][1]["elements"][0]["url"]
        == "https://d/r/"
    )


def hook(league, url="http://127.0.0.1:9/h", kind="json", events=("result_confirmed",)):
    return Webhook.objects.create(league=league, url=url, kind=kind, events=list(events), secret="k" * 64)


def test_issue14_webhooks_the_same_event_twice_is_one_delivery_and_costs_one_query_without_hooks(
    league, django_assert_num_queries
):
    with django_assert_num_queries(1):
        assert event_emit(league_id=league.pk, event="result_confirmed", key="m:1", data=lambda: 1 / 0) == 0
    mine = hook(league)
    hook(league, events=["player_died"])  # not listening to it
    with transaction.atomic():
        assert event_emit(league_id=league.pk, event="result_confirmed", key="m:1", data={"x": 1}) == 1
        assert event_emit(league_id=league.pk, event="result_confirmed", key="m:1", data={"x": 1}) == 0
    assert list(WebhookDelivery.objects.values_list("hook_id", "event")) == [(mine.pk, "result_confirmed")]


def test_issue14_webhooks_nothing_is_written_when_the_event_rolls_back(league):
    hook(league)
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        event_emit(league_id=league.pk, event="result_confirmed", key="m:1", data={})
        1 / 0
    assert not WebhookDelivery.objects.exists()


def row(league, **fields):
    h = fields.pop("hook", None) or hook(league)
    facts = {"league": {"id": league.pk, "name": league.name}, **FACTS}
    return WebhookDelivery.objects.create(hook=h, event="result_confirmed", event_key="k", data=facts, **fields)


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=True, WEBHOOK_MAX_ATTEMPTS=2)
def test_issue14_webhooks_an_attempt_delivers_signed_json_and_a_500_is_retried_until_the_limit(league):
    with Receiver([500, 200]) as receiver:
        delivery = row(league, hook=hook(league, url="http://127.0.0.1:1/"))
        Webhook.objects.filter(pk=delivery.hook_id).update(url=receiver.url)
        assert deliver.attempt(delivery.pk, base="https://d") == deliver.RETRY
        assert deliver.attempt(delivery.pk, base="https://d") == deliver.DONE
        assert deliver.attempt(delivery.pk, base="https://d") == deliver.DONE  # delivered: never again
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("delivered", 2, 200)
    assert len(receiver.seen) == 2
    sent = receiver.seen[-1]
    assert sent["headers"]["X-Dugout-Signature"] == deliver.signature("k" * 64, sent["raw"])
    with Receiver([500]) as receiver:
        failing = row(league, hook=hook(league, url=receiver.url))
        assert [deliver.attempt(failing.pk, base="") for _ in range(3)] == [deliver.RETRY, deliver.DONE, deliver.DONE]
    failing.refresh_from_db()
    assert (failing.status, failing.attempts, failing.response_code) == ("failed", 2, 500)


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=True, WEBHOOK_GONE_LIMIT=2)
def test_issue14_webhooks_repeated_410s_disable_the_hook_audited(league):
    with Receiver([410]) as receiver:
        h = hook(league, url=receiver.url)
        for n in range(3):
            d = WebhookDelivery.objects.create(hook=h, event="result_confirmed", event_key=f"k{n}", data=FACTS)
            assert deliver.attempt(d.pk, base="") == deliver.DONE
    assert len(receiver.seen) == 2  # the third found the hook disabled
    h.refresh_from_db()
    assert not h.enabled
    assert AuditEntry.objects.filter(league=league, action="webhook", actor=None).count() == 1


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=False)
def test_issue14_webhooks_the_guard_runs_again_at_delivery_dns_rebinding(league):
    d = row(league, hook=hook(league, url="http://127.0.0.1:9/h"))
    assert deliver.attempt(d.pk, base="") == deliver.DONE
    d.refresh_from_db()
    assert d.status == "failed" and "public" in d.error


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=True)
def test_issue14_webhooks_api_create_list_disable_deliveries_delete(league, commissioner, coach, api_as):
    client = api_as(commissioner)
    body = {"url": "http://127.0.0.1:9/h", "kind": "json", "events": ["player_died", "result_confirmed"]}
    r = client.post(URL.format(league.pk), body, format="json")
    assert r.status_code == 201, r.json()
    made = r.json()
    assert set(made) >= {"id", "url", "kind", "events", "secret"} and len(made["secret"]) == 64
    assert made["events"] == ["result_confirmed", "player_died"]
    listed = client.get(URL.format(league.pk)).json()
    assert [h["id"] for h in listed] == [made["id"]] and "secret" not in listed[0]
    detail = f"{URL.format(league.pk)}{made['id']}/"
    r = client.patch(detail, {"enabled": False, "reason": "noisy"}, format="json")
    assert r.status_code == 200 and r.json()["enabled"] is False
    assert client.patch(detail, {"enabled": True}, format="json").json()["enabled"] is True
    WebhookDelivery.objects.create(hook_id=made["id"], event="player_died", event_key="p:1", status="sending")
    log = client.get(f"{detail}deliveries/").json()
    assert [(d["event"], d["status"], d["attempts"]) for d in log] == [("player_died", "pending", 0)]
    assert api_as(coach).get(f"{detail}deliveries/").status_code == 403
    assert api_as(coach).post(URL.format(league.pk), body, format="json").status_code == 403
    assert api_as(coach).delete(detail).status_code == 403
    assert client.delete(detail).status_code == 204
    assert client.get(f"{detail}deliveries/").status_code == 404
    assert AuditEntry.objects.filter(league=league, action="webhook").count() == 4


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=False)
def test_issue14_webhooks_api_bad_input_is_400_and_changes_nothing(league, commissioner, api_as):
    client = api_as(commissioner)
    good = {"url": "https://93.184.216.34/h", "kind": "json", "events": ["result_confirmed"]}
    for bad in (
        {**good, "url": "http://127.0.0.1/h"},
        {**good, "url": "http://10.0.0.8/h"},
        {**good, "url": "gopher://93.184.216.34/"},
        {**good, "url": 5},
        {**good, "kind": "irc"},
        {**good, "events": []},
        {**good, "events": ["match_started"]},
        {**good, "events": "result_confirmed"},
        {**good, "url": "https://93.184.216.34/" + "x" * 600},
        {"url": good["url"]},
    ):
        assert client.post(URL.format(league.pk), bad, format="json").status_code == 400, bad
    assert client.post(URL.format(league.pk), "[]", content_type="application/json").status_code == 400
    assert not Webhook.objects.exists()
    assert client.post(URL.format(league.pk), good, format="json").status_code == 201
    hook_id = Webhook.objects.get().pk
    assert client.patch(f"{URL.format(league.pk)}{hook_id}/", {"enabled": "no"}, format="json").status_code == 400
    assert client.get(f"{URL.format(league.pk)}999999/deliveries/").status_code == 404


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=True)
def test_issue14_webhooks_confirming_a_result_with_a_death_queues_both_events_once(
    league, commissioner, coach, other_coach, api_as, django_capture_on_commit_callbacks
):
    home, away = teams(league, coach, other_coach)
    h = hook(league, events=["result_confirmed", "player_died"])
    victim = away.players.order_by("number").first()
    with django_capture_on_commit_callbacks() as callbacks:
        match_id = play(api_as, league, home, away, coach, other_coach, [{"player": victim.pk, "injury": "dead"}])
    assert callbacks  # the tasks are queued only once the confirmation committed
    rows = {d.event: d for d in WebhookDelivery.objects.filter(hook=h)}
    assert set(rows) == {"result_confirmed", "player_died"}
    scores = [(t["name"], t["score"]) for t in rows["result_confirmed"].data["match"]["teams"]]
    assert sorted(scores) == [("Away", 0), ("Home", 0)] and rows["result_confirmed"].data["match"]["id"] == match_id
    assert rows["player_died"].data["player"] == {
        "id": victim.pk,
        "name": victim.name,
        "team": {"id": away.pk, "name": "Away"},
    }
    json.dumps(rows["result_confirmed"].data)


def test_issue14_webhooks_a_report_is_announced_once_however_often_regenerated(league):
    from dugout.reports.services import report_generate

    h = hook(league, events=["report_published"])
    report_generate(league_id=league.pk)
    report_generate(league_id=league.pk, regenerate=True)
    assert [d.event for d in WebhookDelivery.objects.filter(hook=h)] == ["report_published"]


def test_issue14_webhooks_a_post_match_step_that_kills_a_player_is_a_death_to_announce():
    """Decision "Webhooks": Bone Cruncher's wounds kill in a post-match step; that step's effects name the dead."""
    from campaigns.engine import PlayerUpdate
    from matches.hooks import deaths_in_effects

    effects = [PlayerUpdate(7, "killed", status="dead", leaves=True), PlayerUpdate(8, "hurt"), object()]
    assert deaths_in_effects(effects) == [7]


def test_issue14_webhooks_the_sweep_queues_deliveries_the_broker_never_had(league, monkeypatch):
    """Decision "Webhooks": an event committed while the broker was down stays pending; the hourly sweep queues
    it (and leaves fresh, delivered and failed rows alone)."""
    from datetime import timedelta

    from django.utils import timezone

    from dugout import webhook_tasks as tasks

    h = hook(league)
    old = WebhookDelivery.objects.create(hook=h, event="result_confirmed", event_key="old", data={})
    WebhookDelivery.objects.create(hook=h, event="result_confirmed", event_key="new", data={})
    WebhookDelivery.objects.create(hook=h, event="result_confirmed", event_key="done", data={}, status="delivered")
    WebhookDelivery.objects.filter(event_key__in=["old", "done"]).update(created_at=timezone.now() - timedelta(hours=1))
    queued = []
    monkeypatch.setattr(tasks, "deliveries_queue", queued.extend)
    assert tasks.webhook_sweep() == 1
    assert queued == [(h.pk, old.event_key)]


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=False)
def test_issue14_webhooks_the_delivery_connects_to_the_address_the_guard_checked(league, monkeypatch):
    """Issue 14: "Only http(s) URLs to public hosts" — the guard's answer is the address the post connects to, so
    a name re-resolved to a private address between the check and the connection (DNS rebinding) is never
    reached: the post asks no resolver again."""
    from league.webhooks import guard

    answers = iter([["93.184.216.34"], ["127.0.0.1"]])  # the second lookup would be the rebound one

    def resolve(host, port, **kwargs):
        return [(2, 1, 6, "", (a, port)) for a in next(answers)]

    connected = []

    def connect(address, timeout=None, *args):
        connected.append(address)
        raise OSError("no route in a test")

    monkeypatch.setattr(guard.socket, "getaddrinfo", resolve)
    monkeypatch.setattr(deliver.socket, "create_connection", connect)
    d = row(league, hook=hook(league, url="http://hooks.example.com:8080/h"))
    assert deliver.attempt(d.pk, base="") == deliver.RETRY  # no answer: tried again later
    assert connected == [("93.184.216.34", 8080)]


def _hook_with_failures(client, league) -> tuple[str, int]:
    good = {"url": "https://93.184.216.34/old", "kind": "json", "events": ["result_confirmed"]}
    made = client.post(URL.format(league.pk), good, format="json")
    assert made.status_code == 201, made.json()
    Webhook.objects.filter(pk=made.json()["id"]).update(gone_streak=2)
    return f"{URL.format(league.pk)}{made.json()['id']}/", made.json()["id"]


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=False)
def test_a_webhooks_patch_is_a_partial_update_and_a_new_url_starts_it_afresh(league, commissioner, api_as, schema):
    """PATCH changes what it is given, the rest as it is: `enabled` may be left out, as the schema says, and a
    `url` is taken (not ignored), checked by the guard, audited before and after, and clears the 404/410 count."""
    client = api_as(commissioner)
    detail, hook_id = _hook_with_failures(client, league)

    moved = client.patch(detail, {"url": "https://93.184.216.35/new", "reason": "New server"}, format="json")

    assert moved.status_code == 200, moved.json()
    assert (moved.json()["url"], moved.json()["enabled"]) == ("https://93.184.216.35/new", True)
    hook = Webhook.objects.get(pk=hook_id)
    assert (hook.url, hook.kind, hook.events, hook.enabled, hook.gone_streak) == (
        "https://93.184.216.35/new",
        "json",
        ["result_confirmed"],
        True,
        0,
    )
    entry = AuditEntry.objects.filter(league=league, action="webhook").order_by("-id").first()
    assert entry.before == {"url": "https://93.184.216.34/old"} and entry.after == {"url": hook.url}
    assert entry.reason == "New server"
    events = client.patch(detail, {"events": ["player_died", "result_confirmed"], "kind": "slack"}, format="json")
    assert events.status_code == 200 and events.json()["events"] == ["result_confirmed", "player_died"]
    assert events.json()["kind"] == "slack" and events.json()["url"] == hook.url
    audited = AuditEntry.objects.filter(league=league, action="webhook").count()
    assert client.patch(detail, {}, format="json").status_code == 200
    assert AuditEntry.objects.filter(league=league, action="webhook").count() == audited  # nothing changed
    body = schema["components"]["schemas"]["PatchedWebhookChangeInRequest"]
    assert set(body["properties"]) >= {"url", "kind", "events", "enabled"} and not body.get("required")


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=False)
def test_a_webhooks_patch_with_a_bad_url_is_400_and_changes_nothing(league, commissioner, api_as):
    client = api_as(commissioner)
    detail, hook_id = _hook_with_failures(client, league)
    audited = AuditEntry.objects.filter(league=league, action="webhook").count()

    for bad in (
        {"url": "http://127.0.0.1/h"},
        {"url": "http://10.0.0.8/h", "enabled": False},
        {"url": "gopher://93.184.216.34/"},
        {"url": 5},
        {"url": ""},
        {"url": "https://93.184.216.34/" + "x" * 600},
        {"kind": "irc"},
        {"events": []},
        {"enabled": "no"},
    ):
        answer = client.patch(detail, bad, format="json")
        assert answer.status_code == 400, bad
        assert set(answer.json()) & {"url", "kind", "events", "enabled"}, answer.json()

    hook = Webhook.objects.get(pk=hook_id)
    assert (hook.url, hook.enabled, hook.gone_streak) == ("https://93.184.216.34/old", True, 2)
    assert AuditEntry.objects.filter(league=league, action="webhook").count() == audited


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200, response.content
    return json.loads(response.content)
