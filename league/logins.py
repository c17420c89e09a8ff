"""The log-in guard: failed log-ins throttled per account and address together, kept in the database.

One guard for both doors (`POST /api/v1/auth/token/` and the `/login/` page), in three rules (settings
`LOGIN_THROTTLE`, docs/decisions/ 2026-12-01):

- **the pair**: after `pair_failures` (5) failures for one account from one address within `pair_window`
  (15 min) and since that pair's last success, that pair waits;
- **the account**: after `account_failures` (10) failures for one account within `account_window` (1 h) from
  any addresses, every address that has never logged into that account successfully waits too;
- **the address**: after `address_failures` (100) failures from one address within `address_window` (1 h)
  across accounts, that address waits for the accounts it has never logged into (a password sprayer), while
  the members who log in there as usual do not.

A completed password reset (league/password_reset.py: proof of the mailbox) lets the owner back in: the address
it was completed from is known to the account from then on, and the account's failures before it no longer count
(they guessed a password that is gone); the guessers' own pairs still wait, and new failures count afresh.

A waiting attempt is refused before its password is checked. The attempt's row is written (committed) as a
failure *before* the limits are counted, and every failure written so far is counted, its own included: of any
racing attempts let through, the last to count saw all of them, so the limits hold exactly under racing requests
(a racer may be refused a moment early, never let through late). A refused attempt's row is removed again, so
waiting never extends the wait. Nothing here reads the cache: log-in works with Redis down.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from rest_framework.throttling import BaseThrottle

from league.models import LoginAttempt

USERNAME_MAX = LoginAttempt._meta.get_field("username_norm").max_length
ADDRESS_MAX = LoginAttempt._meta.get_field("address").max_length

DEFAULTS = {
    "pair_failures": 5,
    "pair_window": timedelta(minutes=15),
    "account_failures": 10,
    "account_window": timedelta(hours=1),
    "address_failures": 100,
    "address_window": timedelta(hours=1),
    # An address that logged into an account stays "known" to it this long after its last success.
    "known_address_for": timedelta(days=90),
    # Failures are kept a day (for the admin to read), then pruned.
    "failures_kept_for": timedelta(days=1),
}


def _config() -> dict:
    return {**DEFAULTS, **getattr(settings, "LOGIN_THROTTLE", {})}


@dataclass(frozen=True)
class Lockout:
    """A refused attempt: why, and from when the next one will be checked."""

    rule: str  # "pair" | "account" | "address"
    retry_at: datetime

    def retry_after(self, now: datetime | None = None) -> int:
        """Whole seconds to wait (at least 1), for the Retry-After header."""
        seconds = (self.retry_at - (now or timezone.now())).total_seconds()
        return max(1, math.ceil(seconds))

    @property
    def message(self) -> str:
        """When to try again, and that a password reset gets the owner back in now."""
        wait = self.retry_after()
        minutes = math.ceil(wait / 60)
        if wait < 120:
            when = ngettext("%(count)d second", "%(count)d seconds", wait) % {"count": wait}
        else:
            when = ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
        return gettext(
            "Too many failed log-ins. Try again in %(when)s (at %(time)s UTC), or reset your password by e-mail "
            "to get back in now."
        ) % {"when": when, "time": f"{self.retry_at:%H:%M}"}


def login_username_norm(username: str) -> str:
    """The key an account is counted under: NFKC and case-folded, so "Alice" and "ALICE" are one account."""
    return unicodedata.normalize("NFKC", username).casefold()[:USERNAME_MAX]


def login_client_address(request) -> str:
    """The client's address exactly as the API throttles read it: REMOTE_ADDR, unless NUM_PROXIES trusts
    that many proxies' X-Forwarded-For (DRF's get_ident, so web and API agree)."""
    address = BaseThrottle().get_ident(request) or "unknown"
    return "".join(ch for ch in address if ch.isprintable())[:ADDRESS_MAX] or "unknown"


def login_attempt_begin(*, username: str, address: str) -> LoginAttempt | Lockout:
    """Before a password is checked: the attempt to mark with `login_attempt_succeeded` if the password is
    right (it stays a failure otherwise), or the Lockout that refuses it without checking the password."""
    config, now = _config(), timezone.now()
    _prune(config, now)
    norm = login_username_norm(username)
    attempt = LoginAttempt.objects.create(username_norm=norm, address=address, succeeded=False, at=now)
    lockout = _lockout(attempt, config, now)
    if lockout is not None:
        attempt.delete()
        return lockout
    return attempt


def login_attempt_succeeded(*, attempt: LoginAttempt) -> None:
    """The password was right: the pair's failures are forgiven and the address is known to the account."""
    LoginAttempt.objects.filter(pk=attempt.pk).update(succeeded=True)


def login_reset_completed(*, username: str, address: str) -> None:
    """The owner proved his mailbox (a password reset completed from `address`): that address is known to the
    account from now on, and the account's earlier failures stop counting against it."""
    LoginAttempt.objects.create(
        username_norm=login_username_norm(username), address=address, succeeded=True, via_reset=True, at=timezone.now()
    )


def _lockout(attempt: LoginAttempt, config: dict, now: datetime) -> Lockout | None:
    norm, address = attempt.username_norm, attempt.address
    # Every failure so far, this attempt's own and racing attempts' included (see the module docstring).
    failures = LoginAttempt.objects.filter(succeeded=False)
    successes = LoginAttempt.objects.filter(username_norm=norm, succeeded=True).aggregate(
        pair=Max("at", filter=Q(address=address)), reset=Max("at", filter=Q(via_reset=True))
    )
    last_success, last_reset = successes["pair"], successes["reset"]

    since = now - config["pair_window"]
    if last_success is not None and last_success > since:
        since = last_success
    pair = failures.filter(username_norm=norm, address=address, at__gt=since)
    retry_at = _limit_reached(pair, config["pair_failures"], config["pair_window"])
    if retry_at:
        return Lockout("pair", retry_at)
    if last_success is not None:
        # An address that has logged into this account before is not a stranger to it.
        return None
    since = now - config["account_window"]
    if last_reset is not None and last_reset > since:
        since = last_reset  # the failures before the owner's reset guessed a password that is gone
    account = failures.filter(username_norm=norm, at__gt=since)
    retry_at = _limit_reached(account, config["account_failures"], config["account_window"])
    if retry_at:
        return Lockout("account", retry_at)
    from_address = failures.filter(address=address, at__gt=now - config["address_window"])
    retry_at = _limit_reached(from_address, config["address_failures"], config["address_window"])
    if retry_at:
        return Lockout("address", retry_at)
    return None


def _limit_reached(failures, limit: int, window: timedelta) -> datetime | None:
    """The limit is reached when, besides this attempt (the newest row), `limit` failures are counted; the wait
    ends when the `limit`-th newest of them leaves the window (then fewer than `limit` remain)."""
    oldest_counted = list(failures.order_by("-id").values_list("at", flat=True)[limit : limit + 1])
    return oldest_counted[0] + window if oldest_counted else None


def _prune(config: dict, now: datetime) -> None:
    LoginAttempt.objects.filter(succeeded=False, at__lt=now - config["failures_kept_for"]).delete()
    LoginAttempt.objects.filter(succeeded=True, at__lt=now - config["known_address_for"]).delete()
