"""The one line a notification says, in words. A service builds it inside its event's transaction from a message
marked with `gettext_noop` and named placeholders; it is translated into the site's language, not the language of
the request that happened to cause it (the actor's), which the recipients may not read. The mail and push a
notification becomes are rendered from this stored line."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import translation
from django.utils.formats import date_format


def line(message: str, **params: object) -> str:
    """`message` (a `gettext_noop` msgid with `%(name)s` placeholders) translated and filled with `params`."""
    with translation.override(settings.LANGUAGE_CODE):
        return translation.gettext(message) % {k: str(v) for k, v in params.items()}


def who(actor) -> str:
    """The acting user's name, or the league clock's when no user acted (`actor` None)."""
    if actor is not None:
        return actor.get_username()
    with translation.override(settings.LANGUAGE_CODE):
        return translation.gettext("the league clock")


def moment(at, zone: str) -> str:
    """A date and time as a notification says it: in the league's time zone `zone` (named beside it by the
    message), in the site's language."""
    with translation.override(settings.LANGUAGE_CODE):
        return date_format(at.astimezone(ZoneInfo(zone)), "l j F, H:i")


def day(date) -> str:
    """A day (a round's start or deadline), in the site's language."""
    with translation.override(settings.LANGUAGE_CODE):
        return date_format(date, "l j F")
