"""Each user's private calendar feed: the secret in its URL, its rotation, and which user a URL names.

The token is `<user id>-<HMAC>`: the HMAC (SHA-256, Django's `salted_hmac` under SECRET_KEY) of the user's id and
his feed row's random salt (no row yet: the empty salt — reading the address writes nothing; the first rotation
writes the row). Nothing usable is stored, the account page can show the same URL again, and a new
salt ends the old URL. A key in SECRET_KEY_FALLBACKS still opens the URLs made under it while keys are rotated.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
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


#: The salt of a user who never rotated his feed (he has no row).
FIRST_SALT = ""


def _token(user_id: int, salt: str) -> str:
    return f"{user_id}-{_digest(user_id, salt)}"


def _signed_in(user: AbstractBaseUser) -> None:
    if not user.is_authenticated:
        raise NotPermitted(_("Sign in to read your calendar's address."))


def calendar_feed_token(*, user: AbstractBaseUser) -> str:
    """The secret of the user's own feed URL. One query, no write."""
    _signed_in(user)
    salt = CalendarFeed.objects.filter(user=user).values_list("salt", flat=True).first()
    return _token(user.pk, FIRST_SALT if salt is None else salt)


def calendar_feed_rotate(*, user: AbstractBaseUser) -> str:
    """A new secret for the user's own feed: the URL he had ends now."""
    _signed_in(user)
    feed, _created = CalendarFeed.objects.update_or_create(user=user, defaults={"salt": secrets.token_hex(16)})
    return _token(feed.user_id, feed.salt)


def calendar_feed_user(token: str) -> AbstractBaseUser | None:
    """The active user whose feed `token` opens, or None (malformed, rotated away, unknown). One query."""
    user_id, _dash, digest = token.partition("-")
    if not (user_id.isascii() and user_id.isdigit() and len(user_id) < 19 and len(digest) == DIGEST_LENGTH):
        return None
    user = get_user_model().objects.select_related("calendar_feed").filter(pk=int(user_id), is_active=True).first()
    if user is None:
        return None
    feed = getattr(user, "calendar_feed", None)
    salt = FIRST_SALT if feed is None else feed.salt
    for secret in [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]:
        if constant_time_compare(digest, _digest(user.pk, salt, secret)):
            return user
    return None
