"""Sending the notification outbox (`Delivery` rows written by `notifications.writer.notify`): e-mail and Web Push,
each row at most once.

A row is claimed by one worker with a conditional update (pending → sending), which commits before anything goes
out; then it is sent and marked sent, or failed with the reason. A worker that dies between the two leaves it
`sending`: the sweep marks it failed after `stuck_after` (it may have gone out, so it is never resent by itself;
the admin lists it, and can send a failed e-mail again). A timeout is treated the same way, at once.

- **E-mail**: one short template per kind (templates/notifications/email/<kind>.txt, extending base.txt), its
  link absolute on `base_url` (the site's address: the caller, which knows it, passes it in).
- **Web Push**: pywebpush to each of the recipient's subscriptions, signed with the VAPID keys of the settings,
  the payload `{"title", "body", "url", "tag"}` that static/js/sw.js shows. A push service's 404 or 410 deletes
  that subscription; any other refusal fails the row with the reason. Without VAPID keys push is off and the row
  fails saying so. Endpoints must be https (unless WEBHOOK_ALLOW_PRIVATE_HOSTS, for tests and closed networks),
  redirects are not followed, and the caller may pass `endpoint_check` to refuse private hosts.
- **The daily digest** (`digest_send`): a digest reader's e-mails are written `held`; once a day all held rows
  are claimed in one transaction and each user gets one mail listing his.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext
from pywebpush import WebPushException, webpush

from .kinds import EMAIL, KINDS, PUSH
from .models import Delivery, PushSubscription
from .vapid import signer
from .writer import queue_deliveries

log = logging.getLogger(__name__)
State = Delivery.State

TEMPLATES = "notifications/email/"
#: Where a user chooses his notifications (the account page of contract v1.2), linked from every mail.
SETTINGS_PATH = "/account/"
#: The push services' "gone" answers: the subscription has ended.
GONE = (404, 410)
DEFAULTS = {
    # A row still pending this long after it was written was missed by the queue: the sweep queues it.
    "queue_missed_after": timedelta(minutes=2),
    # A row no worker sent within this long is failed instead (news of a day ago would mislead).
    "give_up_after": timedelta(days=1),
    # A row held for a digest that has not gone out in this long (the daily task did not run) is failed.
    "held_give_up_after": timedelta(days=3),
    # A row `sending` this long lost its worker (well above the tasks' time limits).
    "stuck_after": timedelta(minutes=15),
}

EndpointCheck = Callable[[str], object]


def _config() -> dict:
    return {**DEFAULTS, **getattr(settings, "NOTIFICATION_DELIVERY", {})}


def _link(base_url: str, path: str) -> str:
    """A notification's path made absolute on the site's address (a full URL is left as it is)."""
    return path if urlsplit(path).scheme else base_url.rstrip("/") + "/" + path.lstrip("/")


# --- Sending ---------------------------------------------------------------------------------------------------


def deliveries_send(
    *, delivery_ids: list[int], base_url: str, endpoint_check: EndpointCheck | None = None
) -> dict[str, int]:
    """Send each pending row among `delivery_ids`, never twice (one winner among any number of workers), and
    record how it went. Counts of rows sent and failed now; a row another worker has is not counted."""
    rows = list(
        Delivery.objects.filter(pk__in=delivery_ids, state=State.PENDING)
        .select_related("notification__user", "notification__league")
        .order_by("pk")
    )
    pushed_users = {row.notification.user_id for row in rows if row.channel == PUSH}
    subscriptions: dict[int, list[PushSubscription]] = defaultdict(list)
    for sub in PushSubscription.objects.filter(user_id__in=pushed_users).order_by("pk"):
        subscriptions[sub.user_id].append(sub)
    pusher = _Pusher(endpoint_check) if pushed_users else None
    done = {"sent": 0, "failed": 0}
    for row in rows:
        if not Delivery.objects.filter(pk=row.pk, state=State.PENDING).update(
            state=State.SENDING, claimed_at=timezone.now()
        ):
            continue  # another worker has it
        if row.channel == EMAIL:
            error = _send_email(row, base_url)
        else:
            error = pusher.send(row, subscriptions[row.notification.user_id], base_url)
        _finish([row.pk], error)
        done["failed" if error else "sent"] += 1
    return done


def _finish(ids: list[int], error: str | None) -> None:
    """Record the outcome of claimed rows: sent, or failed with the reason."""
    if error is None:
        Delivery.objects.filter(pk__in=ids, state=State.SENDING).update(state=State.SENT, sent_at=timezone.now())
    else:
        Delivery.objects.filter(pk__in=ids, state=State.SENDING).update(state=State.FAILED, error=error[:2000])


def _send_email(row: Delivery, base_url: str) -> str | None:
    """Mail one notification; None when the mail server took it, else why not."""
    note = row.notification
    user = note.user
    if not user.email:
        return gettext("The account has no e-mail address.")
    kind = KINDS.get(note.kind)
    context = {
        "user": user,
        "notification": note,
        "text": note.text,
        "league": note.league,
        "kind_label": kind.label if kind else note.kind,
        "link": _link(base_url, note.url),
        "settings_link": _link(base_url, SETTINGS_PATH),
    }
    subject = _one_line(render_to_string(TEMPLATES + "subject.txt", context))
    body = render_to_string([f"{TEMPLATES}{note.kind}.txt", TEMPLATES + "base.txt"], context)
    return _mail(EmailMessage(subject=subject, body=body, to=[user.email]), f"notification e-mail {row.pk}")


def _mail(message: EmailMessage, what: str) -> str | None:
    try:
        message.send()
    except TimeoutError:
        log.error("%s timed out: it may or may not have gone out", what)
        return gettext("The mail server did not answer in time: the mail may or may not have gone out.")
    except Exception as exc:  # refused by the server or unreachable: nothing went out
        log.error("%s not sent", what, exc_info=True)
        return gettext("The mail server refused it: %(reason)s") % {"reason": repr(exc)}
    return None


def _one_line(text: str) -> str:
    return " ".join(text.split())[:200]


class _NoRedirects(requests.Session):
    """A push is posted where the subscription says, never where an answer redirects it (it could point
    inside the network); a 3xx is an answer like any other, and a refusal."""

    def request(self, *args, **kwargs):
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


class _Pusher:
    """Web Push for one batch: the VAPID signer read once, one HTTP session."""

    def __init__(self, endpoint_check: EndpointCheck | None):
        self.endpoint_check = endpoint_check
        self.session = _NoRedirects()
        self.vapid, self.off = None, None
        if not settings.VAPID_PRIVATE_KEY:
            self.off = gettext("Web Push is off: no VAPID key is configured.")
        else:
            try:
                self.vapid = signer(settings.VAPID_PRIVATE_KEY)
            except ValueError as exc:
                self.off = gettext("Web Push is off: %(reason)s") % {"reason": exc}

    def send(self, row: Delivery, subscriptions: list[PushSubscription], base_url: str) -> str | None:
        """Push one notification to each of the user's subscriptions: None when at least one push service took
        it, else why none did. Subscriptions answered 404/410 are deleted."""
        if self.off:
            return self.off
        if not subscriptions:
            return gettext("No push subscription: the browser unsubscribed.")
        note = row.notification
        payload = json.dumps(
            {"title": "Dugout", "body": note.text, "url": _link(base_url, note.url), "tag": f"notification-{note.pk}"}
        )
        taken, errors, gone = 0, [], []
        for sub in subscriptions:
            outcome = self._push(sub, payload)
            if outcome is None:
                taken += 1
            elif outcome in GONE:
                gone.append(sub.pk)
            else:
                errors.append(f"{_shown(sub.endpoint)}: {outcome}")
        if gone:
            PushSubscription.objects.filter(pk__in=gone).delete()
            log.info("push subscriptions %s ended by their push service (404/410): deleted", gone)
        if taken:
            if errors:
                log.warning("notification push %s: taken by %s subscription(s), refused by %s", row.pk, taken, errors)
            return None
        if not errors:
            return gettext("Every push subscription has ended (404 or 410): deleted.")
        return "; ".join(errors)

    def _push(self, sub: PushSubscription, payload: str) -> int | str | None:
        """None when the push service took it; its 404/410 status; or why it was refused, in words."""
        endpoint = sub.endpoint
        if urlsplit(endpoint).scheme != "https" and not settings.WEBHOOK_ALLOW_PRIVATE_HOSTS:
            return gettext("not an https endpoint")
        if self.endpoint_check is not None:
            try:
                self.endpoint_check(endpoint)
            except Exception as exc:
                return gettext("endpoint refused: %(reason)s") % {"reason": exc}
        claims = {"sub": settings.VAPID_SUBJECT}  # pywebpush adds `aud` (the endpoint's origin) and `exp`
        try:
            webpush(
                subscription_info={"endpoint": endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                data=payload,
                vapid_private_key=self.vapid,
                vapid_claims=claims,
                timeout=settings.PUSH_TIMEOUT,
                ttl=settings.PUSH_TTL,
                requests_session=self.session,
            )
        except WebPushException as exc:
            code = exc.response.status_code if exc.response is not None else None
            if code in GONE:
                return code
            return gettext("refused (%(code)s)") % {"code": code or exc.message}
        except requests.Timeout:
            return gettext("no answer in time: it may or may not have arrived")
        except requests.RequestException as exc:
            return gettext("unreachable: %(reason)s") % {"reason": type(exc).__name__}
        except Exception as exc:  # a subscription whose keys cannot be encrypted for
            log.warning("push subscription %s unusable", sub.pk, exc_info=True)
            return gettext("unusable subscription: %(reason)s") % {"reason": repr(exc)}
        return None


def _shown(endpoint: str) -> str:
    """An endpoint as a failure names it: its host only (the path is the subscription's secret)."""
    return urlsplit(endpoint).netloc or "?"


# --- The daily digest ------------------------------------------------------------------------------------------


def digest_send(*, base_url: str, now: datetime | None = None) -> dict[str, int]:
    """One mail per user listing his e-mails held for the digest up to `now`. The rows are claimed first, all in
    one transaction (locked rows another run holds are skipped, and the update is conditional), so each is in one
    digest at most even when two runs race. Counts of digests mailed and failed."""
    now = now or timezone.now()
    with transaction.atomic():
        held = Delivery.objects.select_for_update(skip_locked=True).filter(
            state=State.HELD, channel=EMAIL, created_at__lte=now
        )
        ids = list(held.values_list("pk", flat=True))
        Delivery.objects.filter(pk__in=ids, state=State.HELD).update(state=State.SENDING, claimed_at=timezone.now())
    claimed = (
        Delivery.objects.filter(pk__in=ids, state=State.SENDING)
        .select_related("notification__user", "notification__league")
        .order_by("notification__created_at", "pk")
    )
    per_user: dict[int, list[Delivery]] = defaultdict(list)
    for row in claimed:
        per_user[row.notification.user_id].append(row)
    done = {"sent": 0, "failed": 0}
    for rows in per_user.values():
        error = _send_digest(rows, base_url)
        _finish([row.pk for row in rows], error)
        done["failed" if error else "sent"] += 1
    return done


def _send_digest(rows: list[Delivery], base_url: str) -> str | None:
    user = rows[0].notification.user
    if not user.email:
        return gettext("The account has no e-mail address.")
    items = [
        {
            "text": row.notification.text,
            "league": row.notification.league,
            "at": row.notification.created_at,
            "link": _link(base_url, row.notification.url),
        }
        for row in rows
    ]
    # Shown in UTC until an account has a time zone of its own (the digest goes out at 07:00 UTC).
    context = {"user": user, "items": items, "zone": "UTC", "settings_link": _link(base_url, SETTINGS_PATH)}
    subject = _one_line(render_to_string(TEMPLATES + "digest_subject.txt", context))
    body = render_to_string(TEMPLATES + "digest.txt", context)
    return _mail(EmailMessage(subject=subject, body=body, to=[user.email]), f"digest of user {user.pk}")


# --- The sweep and the admin's "send again" --------------------------------------------------------------------


def deliveries_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Queue the pending rows the broker missed; fail the ones no worker sent in time, the held ones no digest
    took, and the ones a dead worker left `sending` (they may have gone out: not resent, but in the admin)."""
    config, now = _config(), now or timezone.now()
    expired = Delivery.objects.filter(state=State.PENDING, created_at__lt=now - config["give_up_after"]).update(
        state=State.FAILED, error=gettext("Not sent: no worker took it within a day.")
    )
    expired += Delivery.objects.filter(state=State.HELD, created_at__lt=now - config["held_give_up_after"]).update(
        state=State.FAILED, error=gettext("Not sent: no daily digest took it.")
    )
    stuck = Delivery.objects.filter(state=State.SENDING, claimed_at__lt=now - config["stuck_after"]).update(
        state=State.FAILED,
        error=gettext("A worker claimed it and never recorded the send: it may or may not have gone out."),
    )
    missed = list(
        Delivery.objects.filter(state=State.PENDING, created_at__lt=now - config["queue_missed_after"])
        .order_by("pk")
        .values_list("pk", flat=True)[:1000]
    )
    if missed:
        queue_deliveries(missed)
    return {"queued": len(missed), "expired": expired, "stuck": stuck}


def deliveries_resend(*, delivery_ids: list[int]) -> int:
    """The admin's "send again": failed e-mails among `delivery_ids` pending again (sent singly, digest readers'
    too), and queued after commit. Pushes are not resent: news of the moment, and the browser shows the list."""
    failed = Delivery.objects.filter(pk__in=delivery_ids, state=State.FAILED, channel=EMAIL)
    ids = list(failed.values_list("pk", flat=True))
    Delivery.objects.filter(pk__in=ids, state=State.FAILED).update(
        state=State.PENDING, claimed_at=None, sent_at=None, error=""
    )
    if ids:
        transaction.on_commit(lambda: queue_deliveries(ids))
    return len(ids)
