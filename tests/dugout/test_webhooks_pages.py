"""The commissioner's webhooks panel on the dashboard (issue 14: "configured by the commissioner on the
dashboard"): add, list with the last delivery's status, disable, delete; a coach cannot open it."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse

from league.models import Webhook, WebhookDelivery

pytestmark = pytest.mark.django_db


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=True)
def test_issue14_webhooks_panel_adds_lists_disables_and_deletes(client, league, commissioner):
    client.force_login(commissioner)
    url = reverse("desk-webhooks", args=[league.pk])
    assert url in client.get(reverse("commissioner-dashboard", args=[league.pk])).content.decode()
    form = {"action": "create", "url": "http://127.0.0.1:9/h", "kind": "json", "events": ["result_confirmed"]}
    response = client.post(url, form, follow=True)
    hook = Webhook.objects.get(league=league)
    assert hook.secret in response.content.decode()  # shown once, in the message
    WebhookDelivery.objects.create(
        hook=hook, event="result_confirmed", event_key="k", status="failed", response_code=503
    )
    page = client.get(url).content.decode()
    assert "http://127.0.0.1:9/h" in page and "failed (503)" in page
    client.post(url, {"action": "disable", "hook": hook.pk})
    assert not Webhook.objects.get(pk=hook.pk).enabled
    client.post(url, {"action": "delete", "hook": hook.pk})
    assert not Webhook.objects.exists()


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=False)
def test_issue14_webhooks_panel_refuses_a_private_url_and_a_coach(client, league, commissioner, coach, make_coach):
    client.force_login(commissioner)
    url = reverse("desk-webhooks", args=[league.pk])
    form = {"action": "create", "url": "http://10.0.0.1/h", "kind": "slack", "events": ["player_died"]}
    page = client.post(url, form, follow=True).content.decode()
    assert "public hosts only" in page and not Webhook.objects.exists()
    assert client.post(url, {"action": "delete", "hook": "x"}).status_code == 302  # a bad id: a message, no 500
    client.force_login(make_coach(coach))
    assert client.get(url).status_code == 403


@override_settings(WEBHOOK_ALLOW_PRIVATE_HOSTS=False)
def test_a_refused_webhook_by_htmx_is_the_panel_again_answered_400(client, league, commissioner):
    """The panel swaps a refusal in (data-swap-refusals) and reads it as one: 400, the reason in words."""
    client.force_login(commissioner)
    url = reverse("desk-webhooks", args=[league.pk])
    form = {"action": "create", "url": "http://10.0.0.1/h", "kind": "slack", "events": ["player_died"]}

    response = client.post(url, form, HTTP_HX_REQUEST="true")

    assert response.status_code == 400
    page = response.content.decode()
    assert "public hosts only" in page and "data-swap-refusals" in page
    assert not Webhook.objects.exists()
