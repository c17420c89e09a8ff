"""The accounts' own records: the password-reset mail outbox and the sign-ups counted per client address.

Defined apart from league/models.py (which registers them with the app) to keep that module short.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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
