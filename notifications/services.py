"""The writes a user makes to his own notifications, choices and browsers: mark one or all read, save his
channel choices, subscribe a browser to Web Push and end a subscription. Each takes the acting user and asks
notifications/policy.py; a refusal changes nothing.

A browser's endpoint is one row whoever subscribed it: the same user subscribing it again gets the same row (its
keys refreshed), and another user subscribing it takes it over — the browser now belongs to whoever is signed in
on it, and the previous user stops receiving pushes there (docs/decisions/0082)."""

from __future__ import annotations

import base64
import binascii
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.errors import NotPermitted, RuleViolation

from .kinds import CHANNELS, DIGESTS, KINDS
from .models import Notification, NotificationSettings, PushSubscription
from .policy import may_keep_own, may_manage
from .selectors import settings_out

#: The longest endpoint the table keeps (push services' are a few hundred characters).
ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")
#: An uncompressed P-256 public key (the browser's `p256dh`) and the authentication secret (`auth`), in bytes.
P256DH_BYTES, AUTH_BYTES = 65, 16


def _signed_in(user) -> None:
    if not may_keep_own(user):
        raise NotPermitted(_("Sign in to change your notifications."))


def notification_mark_read(*, user, notification_id: int) -> Notification:
    """Mark one of the user's notifications read (its first reading time is kept when it is marked again)."""
    note = Notification.objects.filter(pk=notification_id).first()
    if note is None or not may_manage(user, note.user_id):
        raise NotPermitted(_("That notification is not yours."))
    if note.read_at is None:
        now = timezone.now()
        if Notification.objects.filter(pk=note.pk, read_at__isnull=True).update(read_at=now):
            note.read_at = now
        else:  # marked at the same moment elsewhere: answer the time that was kept
            note.refresh_from_db(fields=["read_at"])
    return note


def notifications_mark_all_read(*, user) -> int:
    """Mark every unread notification of the user read; how many were."""
    _signed_in(user)
    return Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())


def _kinds_checked(kinds) -> dict[str, dict[str, bool]]:
    if not isinstance(kinds, dict):
        raise RuleViolation(_("The kinds are an object of kind → {email, push}."), field="kinds")
    unknown = sorted(str(k) for k in kinds if k not in KINDS)
    if unknown:
        raise RuleViolation(_("Unknown notification kind: %(kinds)s.") % {"kinds": ", ".join(unknown)}, field="kinds")
    chosen: dict[str, dict[str, bool]] = {}
    for kind, channels in kinds.items():
        if not isinstance(channels, dict):
            raise RuleViolation(_("%(kind)s: give {email, push}.") % {"kind": kind}, field="kinds")
        odd = sorted(str(c) for c in channels if c not in CHANNELS)
        if odd:
            message = _("%(kind)s: unknown channel %(channels)s (in-app notifications are always on).")
            raise RuleViolation(message % {"kind": kind, "channels": ", ".join(odd)}, field="kinds")
        if any(not isinstance(on, bool) for on in channels.values()):
            raise RuleViolation(_("%(kind)s: a channel is true or false.") % {"kind": kind}, field="kinds")
        chosen[kind] = dict(channels)
    return chosen


def notification_settings_save(*, user, kinds: dict, digest: str) -> dict:
    """Replace the user's choices: each kind given takes the channels given (a channel left out, or a kind left
    out, is at its default); `digest` is "off" or "daily". Answers the settings' full shape."""
    _signed_in(user)
    chosen = _kinds_checked(kinds)
    if digest not in DIGESTS:
        raise RuleViolation(_("The digest is one of: %(choices)s.") % {"choices": ", ".join(DIGESTS)}, field="digest")
    row, _created = NotificationSettings.objects.update_or_create(
        user=user, defaults={"kinds": chosen, "digest": digest}
    )
    return settings_out(row)


def _key_checked(value, name: str, size: int) -> str:
    message = _("%(name)s is the browser's key, base64url.") % {"name": name}
    if not isinstance(value, str) or not _BASE64URL.match(value):
        raise RuleViolation(message, field="keys")
    try:
        raw = base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise RuleViolation(message, field="keys") from None
    if len(raw) != size or (name == "p256dh" and raw[0] != 4):
        raise RuleViolation(message, field="keys")
    return value


def endpoint_checked(endpoint) -> str:
    """A push endpoint as the table keeps it: an https URL (plain http only where WEBHOOK_ALLOW_PRIVATE_HOSTS
    allows private hosts, i.e. on a developer's machine and in tests), at most ENDPOINT_MAX characters."""
    schemes = ["https", "http"] if settings.WEBHOOK_ALLOW_PRIVATE_HOSTS else ["https"]
    if not isinstance(endpoint, str) or len(endpoint) > ENDPOINT_MAX:
        raise RuleViolation(
            _("The endpoint is a URL of at most %(n)d characters.") % {"n": ENDPOINT_MAX}, field="endpoint"
        )
    try:
        URLValidator(schemes=schemes)(endpoint)
    except ValidationError:
        raise RuleViolation(_("A push endpoint is an https:// URL."), field="endpoint") from None
    return endpoint


def push_subscribe(*, user, endpoint: str, p256dh: str, auth: str) -> tuple[PushSubscription, bool]:
    """Keep a browser's push subscription for the user: (the subscription, whether it is new to him). The same
    endpoint again is the same row, its keys refreshed; an endpoint another user had moves to this user, as a
    new subscription (the old one's id ends)."""
    _signed_in(user)
    endpoint = endpoint_checked(endpoint)
    p256dh, auth = _key_checked(p256dh, "p256dh", P256DH_BYTES), _key_checked(auth, "auth", AUTH_BYTES)
    with transaction.atomic():
        held = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if held is not None and held.user_id == user.pk:
            if (held.p256dh, held.auth) != (p256dh, auth):
                held.p256dh, held.auth = p256dh, auth
                held.save(update_fields=["p256dh", "auth"])
            return held, False
        if held is not None:
            held.delete()
        made = PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)
    return made, True


def push_unsubscribe(*, user, subscription_id: int) -> None:
    """End one of the user's push subscriptions: that browser receives no more pushes."""
    row = PushSubscription.objects.filter(pk=subscription_id).first()
    if row is None or not may_manage(user, row.user_id):
        raise NotPermitted(_("That push subscription is not yours."))
    row.delete()
