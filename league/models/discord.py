"""A league's Discord application, and the tie between a Discord user and a Dugout account.

The league's commissioner gives the application's id and its Ed25519 public key: Discord signs every
interaction it posts to the league's endpoint with the matching private key, and the endpoint checks it with
this one. A coach ties his Discord user to his account with a one-time code made on his account page (only the
code's hash is kept, so a copy of the database opens no account); the tie is global (a Discord user id is the
same in every guild), one Discord user per account and one account per Discord user.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from league.models.league import League

#: A Discord snowflake (application or user id): decimal digits, at most 20 of them (a 64-bit number).
SNOWFLAKE_MAX = 20
#: An Ed25519 public key as Discord's developer portal shows it: 32 bytes, 64 lowercase hex digits.
PUBLIC_KEY_HEX = 64


class DiscordApplication(models.Model):
    """The Discord application whose interactions the league answers (at most one per league)."""

    league = models.OneToOneField(League, on_delete=models.CASCADE, related_name="discord")
    application_id = models.CharField(max_length=SNOWFLAKE_MAX)
    public_key = models.CharField(max_length=PUBLIC_KEY_HEX)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "league"
        constraints = [
            models.CheckConstraint(condition=Q(public_key__regex=r"^[0-9a-f]{64}$"), name="discord_public_key_hex"),
            models.CheckConstraint(condition=Q(application_id__regex=r"^[0-9]{1,20}$"), name="discord_application_id"),
        ]

    def __str__(self) -> str:
        return f"Discord application {self.application_id} of league {self.league_id}"


class DiscordLink(models.Model):
    """A Discord user acting as a Dugout account in every league's Discord (unique both ways)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="discord_link")
    discord_user_id = models.CharField(max_length=SNOWFLAKE_MAX, unique=True)
    linked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "league"

    def __str__(self) -> str:
        return f"Discord {self.discord_user_id} → user {self.user_id}"


class DiscordLinkCode(models.Model):
    """A one-time link code: its SHA-256 (never the code), valid until `expires_at`, spent when `used_at` is set.
    A new code for the same account replaces the unspent ones."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    code_hash = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "league"

    def __str__(self) -> str:
        return f"Discord link code of user {self.user_id}"
