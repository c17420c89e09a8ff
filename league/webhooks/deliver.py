"""One delivery attempt: claim the outbox row (a conditional update: one worker wins), check the URL again,
post the body (a short timeout, no redirects followed), and record the answer.

Outcomes: 2xx → delivered (the hook's 404/410 streak reset); 404/410 → failed, not retried, and the hook
disabled (audited) after `WEBHOOK_GONE_LIMIT` in a row; anything else (5xx, 429, a timeout, a refused
connection) → pending again for a retry with backoff, failed once `WEBHOOK_MAX_ATTEMPTS` were made. A worker
lost mid-post leaves the row `sending`: it is never posted again (at most once)."""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import logging
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import F

from campaigns.errors import RuleViolation
from league.models import AuditEntry
from league.models.webhooks import Webhook, WebhookDelivery
from league.webhooks import payloads
from league.webhooks.guard import delivery_address

log = logging.getLogger(__name__)
GONE = (404, 410)
RETRY, DONE = "retry", "done"


def signature(secret: str, body: bytes) -> str:
    """The `X-Dugout-Signature` header: `sha256=<hex HMAC-SHA256 of the body with the hook's secret>`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class _Pinned:
    """A connection to the address the guard checked (or, None, wherever the system resolves the host)."""

    def __init__(self, host: str, *, address: str | None, **kwargs):
        super().__init__(host, **kwargs)
        self.address = address

    def _pinned_socket(self) -> socket.socket:
        return socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTP(_Pinned, http.client.HTTPConnection):
    def connect(self) -> None:
        if self.address is None:
            return super().connect()
        self.sock = self._pinned_socket()


class _PinnedHTTPS(_Pinned, http.client.HTTPSConnection):
    """Over TLS the certificate is still checked against the host's name (SNI and hostname check)."""

    def connect(self) -> None:
        if self.address is None:
            return super().connect()
        self.sock = self._context.wrap_socket(self._pinned_socket(), server_hostname=self.host)


def post(url: str, body: bytes, headers: dict[str, str], *, address: str | None = None) -> int:
    """POST and return the status code (raises OSError when no answer came). A 3xx is the answer: no redirect is
    followed (it could lead to a private host). `address`: connect there, not wherever the host resolves now."""
    parts = urlsplit(url)
    kind = _PinnedHTTPS if parts.scheme == "https" else _PinnedHTTP
    connection = kind(parts.hostname, port=parts.port, timeout=settings.WEBHOOK_TIMEOUT, address=address)
    try:
        connection.request("POST", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""), body, headers)
        return connection.getresponse().status
    except http.client.HTTPException as error:
        raise OSError(f"a broken answer: {error}") from None
    finally:
        connection.close()


def attempt_event(hook_id: int, event_key: str, *, base: str) -> str:
    """`attempt` on the hook's delivery of the event (how the task names it)."""
    pk = WebhookDelivery.objects.filter(hook_id=hook_id, event_key=event_key).values_list("pk", flat=True).first()
    return DONE if pk is None else attempt(pk, base=base)


def attempt(delivery_id: int, *, base: str) -> str:
    """Make one attempt at the delivery; RETRY when the task should try again later, else DONE."""
    row = WebhookDelivery.objects.select_related("hook", "hook__league").filter(pk=delivery_id).first()
    if row is None or row.status != WebhookDelivery.Status.PENDING:
        return DONE  # gone, delivered, failed, or another worker's
    claimed = WebhookDelivery.objects.filter(pk=row.pk, status=WebhookDelivery.Status.PENDING).update(
        status=WebhookDelivery.Status.SENDING, attempts=F("attempts") + 1
    )
    if not claimed:
        return DONE
    hook, attempts = row.hook, row.attempts + 1
    if not hook.enabled:
        _finish(row, WebhookDelivery.Status.FAILED, error="the hook is disabled")
        return DONE
    try:
        url, address = delivery_address(hook.url)
    except RuleViolation as refused:
        _finish(row, WebhookDelivery.Status.FAILED, error=str(refused)[:200])
        return DONE
    body = json.dumps(payloads.body(hook.kind, row.event, row.data, base), separators=(",", ":")).encode()
    headers = {"Content-Type": "application/json", "User-Agent": "Dugout-Webhooks/1"}
    headers["X-Dugout-Event"] = row.event
    headers["X-Dugout-Delivery"] = str(row.pk)
    if hook.kind == Webhook.Kind.JSON:
        headers["X-Dugout-Signature"] = signature(hook.secret, body)
    try:
        code = post(url, body, headers, address=address)
    except (OSError, ValueError) as error:
        return _again(row, attempts, None, f"no answer: {error}"[:200])
    if 200 <= code < 300:
        _finish(row, WebhookDelivery.Status.DELIVERED, code=code)
        Webhook.objects.filter(pk=hook.pk).update(gone_streak=0)
        return DONE
    if code in GONE:
        _finish(row, WebhookDelivery.Status.FAILED, code=code, error="the receiver is gone")
        _gone(hook)
        return DONE
    return _again(row, attempts, code, f"answered {code}")


def _finish(row: WebhookDelivery, status: str, *, code: int | None = None, error: str = "") -> None:
    WebhookDelivery.objects.filter(pk=row.pk).update(status=status, response_code=code, error=error)


def _again(row: WebhookDelivery, attempts: int, code: int | None, error: str) -> str:
    last = attempts >= settings.WEBHOOK_MAX_ATTEMPTS
    status = WebhookDelivery.Status.FAILED if last else WebhookDelivery.Status.PENDING
    _finish(row, status, code=code, error=error)
    return DONE if last else RETRY


def _gone(hook: Webhook) -> None:
    """One more 404/410 in a row; at the limit the hook is disabled, audited (no commissioner acted: no actor)."""
    with transaction.atomic():
        Webhook.objects.filter(pk=hook.pk).update(gone_streak=F("gone_streak") + 1)
        disabled = Webhook.objects.filter(
            pk=hook.pk, enabled=True, gone_streak__gte=settings.WEBHOOK_GONE_LIMIT
        ).update(enabled=False)
        if disabled:
            AuditEntry.objects.create(
                league_id=hook.league_id,
                actor=None,
                action="webhook",
                target=f"webhook {hook.pk}",
                before={"enabled": True},
                after={"enabled": False},
                reason=f"disabled automatically: 404/410 answered {settings.WEBHOOK_GONE_LIMIT} times in a row",
            )
            log.warning("webhook %s disabled: its receiver is gone", hook.pk)
