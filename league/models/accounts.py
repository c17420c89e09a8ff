"""Accounts' records: log-in attempts (the throttle reads them) and the API's idempotency keys."""

from __future__ import annotations

from django.db import models


class IdempotencyRecord(models.Model):
    """The first answer to a write that carried an Idempotency-Key, replayed for repeats."""

    scope = models.CharField(max_length=64, help_text="Hash of the caller's credentials.")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="Hash of method, path and body.")
    status_code = models.PositiveSmallIntegerField(default=0, help_text="0 while the first request runs.")
    content_type = models.CharField(max_length=100, blank=True)
    body = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="idempotency_unique_key")]

    def __str__(self) -> str:
        return f"{self.key} → {self.status_code}"


class LoginAttempt(models.Model):
    """One log-in attempt (API token or web page), kept in the database so the log-in guard works with Redis down.

    A row is written as a failure before the password is checked and turned into a success only when the
    password proves right, so concurrent guesses see each other (league/logins.py). Pruned by age."""

    #: The username as typed, NFKC-normalised and case-folded: "Alice" and "alice" count together.
    username_norm = models.CharField(max_length=150)
    #: The client address (REMOTE_ADDR, or X-Forwarded-For as far as NUM_PROXIES trusts it).
    address = models.CharField(max_length=64)
    succeeded = models.BooleanField(default=False)
    at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["username_norm", "address", "succeeded", "at"], name="login_attempt_pair"),
            models.Index(fields=["username_norm", "succeeded", "at"], name="login_attempt_account"),
            models.Index(fields=["address", "succeeded", "at"], name="login_attempt_address"),
            models.Index(fields=["at"], name="login_attempt_age"),
        ]

    def __str__(self) -> str:
        outcome = "ok" if self.succeeded else "failed"
        return f"{self.username_norm} from {self.address} at {self.at:%Y-%m-%d %H:%M:%S}: {outcome}"
