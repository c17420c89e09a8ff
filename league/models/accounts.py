"""Accounts' records: log-in attempts (the throttle reads them) and the API's idempotency keys."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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
    #: Not a password typed: a completed password reset (proof of the mailbox), which lifts the account's lock.
    via_reset = models.BooleanField(default=False)
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


class PasswordResetMail(models.Model):
    """The password-reset outbox: one row per mail, written when a reset is asked for and mailed by a Celery
    task after that commits (league/password_reset.py).

    pending → sending (claimed by one worker with a conditional update) → sent, or failed: the mail server
    refused it (nothing went out), or a worker died between claiming it and recording the send (it may have
    gone out, so it is never resent by itself: at most once). A failed row says why in `error`; the admin lists
    them and can send one again. The rows also count the mails per address for the reset throttle."""

    class State(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="password_reset_mails")
    #: The address mailed: the account's when the reset was asked for.
    email = models.EmailField(max_length=254)
    #: The address as asked for, NFKC-normalised and case-folded: what the per-address throttle counts under.
    email_norm = models.CharField(max_length=254)
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    #: When a worker claimed the row (moved it to `sending`).
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    #: Why a failed mail failed, in words, for whoever reads the admin.
    error = models.TextField(blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["email_norm", "created_at"], name="reset_mail_by_address"),
            models.Index(fields=["state", "created_at"], name="reset_mail_by_state"),
        ]

    def __str__(self) -> str:
        return f"password reset for {self.user} to {self.email} ({self.state})"


class SignupAttempt(models.Model):
    """One account created (or being created) from a client address, counted by the sign-up throttle
    (league/signups.py) in the database, like the log-in guard, so it holds with Redis down. Pruned by age."""

    #: The client address (REMOTE_ADDR, or X-Forwarded-For as far as NUM_PROXIES trusts it).
    address = models.CharField(max_length=64)
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["address", "at"], name="signup_attempt_address")]

    def __str__(self) -> str:
        return f"sign-up from {self.address} at {self.at:%Y-%m-%d %H:%M:%S}"
