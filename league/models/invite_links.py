"""An invite link as a stored row: the commissioner lists his links, sees how often
each was used and revokes one. The URL still carries a signed token (tamper-proof, with its own age); the token
names its row, and a link opens the league only while the signature, the row's expiry and the row's revocation
all say so."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.core import signing
from django.db import models
from django.utils import timezone

#: The signer's salt: a token signed for anything else never opens a league.
SALT = "dugout.invite-link"


class LinkSigner(signing.TimestampSigner):
    """The invite links' signer. Given `at` (epoch seconds), it signs as of that second: a link's token is made
    again from its row (the dashboard shows the URL again) rather than stored."""

    def __init__(self, at: int | None = None) -> None:
        super().__init__(salt=SALT)
        self.at = at

    def timestamp(self) -> str:
        return signing.b62_encode(self.at) if self.at is not None else super().timestamp()


class InviteLink(models.Model):
    class State(models.TextChoices):
        ACTIVE = "active", "Active"
        EXPIRED = "expired", "Expired"
        REVOKED = "revoked", "Revoked"

    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="invite_links")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    # Whole seconds: the token's signed timestamp is this instant.
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uses = models.PositiveIntegerField(default=0, help_text="Coaches who joined through this link.")

    class Meta:
        app_label = "league"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["league", "-created_at"], name="invite_link_league_newest")]

    def __str__(self) -> str:
        return f"Invite link {self.pk} to {self.league_id} ({self.state})"

    @property
    def token(self) -> str:
        """The signed token of the link's URL: the league, the issuer and this row, signed as of `created_at`."""
        payload = {"league": self.league_id, "by": self.created_by_id, "link": self.pk}
        return LinkSigner(at=int(self.created_at.timestamp())).sign_object(payload)

    def state_at(self, now: dt.datetime) -> str:
        if self.revoked_at is not None:
            return self.State.REVOKED
        return self.State.EXPIRED if self.expires_at <= now else self.State.ACTIVE

    @property
    def state(self) -> str:
        return self.state_at(timezone.now())

    def get_state_display(self) -> str:
        return self.State(self.state).label
