"""Each user's private calendar feed: the secret in its URL, its rotation, and which user a URL names.

The token is `<user id>-<HMAC>`: the HMAC (SHA-256, Django's `salted_hmac` under SECRET_KEY) of the user's id and
his feed row's random salt. Nothing usable is stored, the account page can show the same URL again, and a new
salt ends the old URL. A key in SECRET_KEY_FALLBACKS still opens the URLs made under it while keys are rotated.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from campaigns.errors import NotPermitted
from league.models import CalendarFeed

_PURPOSE = "dugout.calendar-feed"
#: The HMAC's hex digits kept in the URL (128 bits).
DIGEST_LENGTH = 32


def _digest(user_id: int, salt: str, secret: str | None = None) -> str:
    return salted_hmac(_PURPOSE, f"{user_id}:{salt}", secret=secret, algorithm="sha256").hexdigest()[:DIGEST_LENGTH]


def _token(feed: CalendarFeed) -> str:
    return f"{feed.user_id}-{_digest(feed.user_id, feed.salt)}"


def _signed_in(user: AbstractBaseUser) -> None:
    if not user.is_authenticated:
        raise NotPermitted(_("Sign in to read your calendar's address."))


def calendar_feed_token(*, user: AbstractBaseUser) -> str:
    """The secret of the user's own feed URL (made the first time he asks)."""
    _signed_in(user)
    feed, _created = CalendarFeed.objects.get_or_create(user=user, defaults={"salt": secrets.token_hex(16)})
    return _token(feed)


def calendar_feed_rotate(*, user: AbstractBaseUser) -> str:
    """A new secret for the user's own feed: the URL he had ends now."""
    _signed_in(user)
    feed, created = CalendarFeed.objects.get_or_create(user=user, defaults={"salt": secrets.token_hex(16)})
    if not created:
        feed.salt = secrets.token_hex(16)
        feed.save(update_fields=["salt", "rotated_at"])
    return _token(feed)


def calendar_feed_user(token: str) -> AbstractBaseUser | None:
    """The active user whose feed `token` opens, or None (malformed, rotated away, unknown). One query."""
    user_id, _dash, digest = token.partition("-")
    if not (user_id.isascii() and user_id.isdigit() and len(user_id) < 19 and len(digest) == DIGEST_LENGTH):
        return None
    feed = CalendarFeed.objects.select_related("user").filter(user_id=int(user_id)).first()
    if feed is None or not feed.user.is_active:
        return None
    for secret in [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]:
        if constant_time_compare(digest, _digest(feed.user_id, feed.salt, secret)):
            return feed.user
    return None
