"""The sign-up throttle: at most `per_address` accounts created from one client address within `window`
(settings `SIGNUP_THROTTLE`, default 10 an hour), for both doors (`POST /api/v1/auth/register/` and the
`/signup/` page).

Only accounts about to be created count: input refused for its own sake (a taken name, a weak password) costs
nothing. As in the log-in guard (league/logins.py), the row is written (committed) before the limit is counted
and every row so far is counted, its own included, so racing sign-ups cannot slip past the limit (a racer may be
refused a moment early, never let through late); a refused attempt's row is removed again, so waiting never
extends the wait. The counts live in the database, not the cache: the throttle holds with Redis down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from league.models import SignupAttempt

DEFAULTS = {"per_address": 10, "window": timedelta(hours=1)}


def _config() -> dict:
    return {**DEFAULTS, **getattr(settings, "SIGNUP_THROTTLE", {})}


@dataclass(frozen=True)
class SignupWait:
    """A refused sign-up: from when the next one from that address will be taken."""

    retry_at: datetime

    def retry_after(self, now: datetime | None = None) -> int:
        """Whole seconds to wait (at least 1), for the Retry-After header."""
        return max(1, math.ceil((self.retry_at - (now or timezone.now())).total_seconds()))

    @property
    def message(self) -> str:
        minutes = math.ceil(self.retry_after() / 60)
        when = ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
        return gettext(
            "Too many new accounts from your address. Try again in %(when)s (at %(time)s UTC), or log in to an "
            "account you already have."
        ) % {"when": when, "time": f"{self.retry_at:%H:%M}"}


def signup_begin(*, address: str) -> SignupAttempt | SignupWait:
    """Before an account is created from `address`: the counted row (hand it to `signup_abandon` if the account
    is not created after all), or the SignupWait that refuses it."""
    config, now = _config(), timezone.now()
    SignupAttempt.objects.filter(at__lt=now - config["window"]).delete()
    attempt = SignupAttempt.objects.create(address=address, at=now)
    counted = list(
        SignupAttempt.objects.filter(address=address, at__gt=now - config["window"])
        .order_by("-id")
        .values_list("at", flat=True)[config["per_address"] : config["per_address"] + 1]
    )
    if counted:
        attempt.delete()
        return SignupWait(retry_at=counted[0] + config["window"])
    return attempt


def signup_abandon(*, attempt: SignupAttempt) -> None:
    """The account was not created after all (e.g. its name was taken a moment before): it does not count."""
    SignupAttempt.objects.filter(pk=attempt.pk).delete()
