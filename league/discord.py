"""A league's Discord: the commissioner's connection of the league to a Discord application, the one-time
codes that tie a Discord user to a Dugout account, and the check of the signature Discord puts on every
interaction it posts (Ed25519, PyNaCl).

Writes take the acting user and ask the policy (the code redemption's authority is the code itself: only the
account's owner saw it, and only Discord, whose signature the endpoint checked, names the Discord user).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from datetime import datetime, timedelta

import nacl.exceptions
import nacl.signing
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.errors import NotPermitted, RuleViolation
from league.audit import audit_record
from league.models import DiscordApplication, DiscordLink, DiscordLinkCode, League
from league.models.discord import PUBLIC_KEY_HEX, SNOWFLAKE_MAX
from league.policy import may_configure_discord

#: How long a link code is valid.
CODE_TTL = timedelta(minutes=10)
#: A link code's letters: no 0/O nor 1/I/L to misread; 32 of them, so ten make 50 bits.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
#: An interaction whose signed timestamp is further than this from the server's clock is refused, so a
#: captured request cannot be replayed later (Discord posts at once; clocks are NTP-synchronised).
SIGNATURE_MAX_AGE = 300

_SNOWFLAKE = re.compile(rf"[0-9]{{1,{SNOWFLAKE_MAX}}}")
_HEX_KEY = re.compile(rf"[0-9a-f]{{{PUBLIC_KEY_HEX}}}")


def _snowflake(value: object, field: str) -> str:
    text = value.strip() if isinstance(value, str) else None
    if text is None or not _SNOWFLAKE.fullmatch(text):
        raise RuleViolation(_("A Discord id is a number of at most 20 digits, sent as text."), field=field)
    return text


def public_key_check(value: object) -> str:
    """The application's public key as stored (lowercase hex of 32 bytes), or RuleViolation naming `public_key`."""
    text = value.strip().lower() if isinstance(value, str) else ""
    if not _HEX_KEY.fullmatch(text):
        raise RuleViolation(
            _("The public key is the application's Ed25519 key: 64 hexadecimal digits (32 bytes)."),
            field="public_key",
        )
    return text


def discord_configure(
    *, user: AbstractBaseUser, league_id: int, application_id: object, public_key: object
) -> DiscordApplication:
    """Connect the league to a Discord application (or change it): audited."""
    with transaction.atomic():
        league = League.objects.select_for_update().filter(pk=league_id).first()
        if league is None:
            raise RuleViolation(_("No such league."), field="league")
        if not may_configure_discord(user, league):
            raise NotPermitted(_("Only the league's commissioner connects it to Discord."))
        application = _snowflake(application_id, "application_id")
        key = public_key_check(public_key)
        before = DiscordApplication.objects.filter(league=league).values("application_id", "public_key").first()
        row, _created = DiscordApplication.objects.update_or_create(
            league=league, defaults={"application_id": application, "public_key": key}
        )
        audit_record(
            league=league,
            actor=user,
            action="discord",
            target="discord application",
            before=before,
            after={"application_id": application, "public_key": key},
            reason="Discord application connected",
        )
    return row


def discord_application(*, league_id: int) -> DiscordApplication | None:
    """The league's Discord application, with its league, or None (no such league, or not connected)."""
    return DiscordApplication.objects.select_related("league").filter(league_id=league_id).first()


def signature_valid(
    *, public_key: str, signature: str | None, timestamp: str | None, body: bytes, now: float | None = None
) -> bool:
    """Whether `signature` (hex) is the application's Ed25519 signature of `timestamp` + `body`, and the timestamp
    (Unix seconds) is within SIGNATURE_MAX_AGE of now. Anything malformed is simply not valid."""
    if not signature or not timestamp or not timestamp.isascii() or not timestamp.isdigit():
        return False
    now = time.time() if now is None else now
    if abs(now - int(timestamp)) > SIGNATURE_MAX_AGE:
        return False
    try:
        key = nacl.signing.VerifyKey(bytes.fromhex(public_key))
        key.verify(timestamp.encode("ascii") + body, bytes.fromhex(signature))
    except (ValueError, TypeError, nacl.exceptions.CryptoError):
        return False
    return True


def _code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def _normalised_code(code: object) -> str:
    """A code as typed: spaces and dashes dropped, any case."""
    return re.sub(r"[\s-]", "", code).upper() if isinstance(code, str) else ""


def discord_code_create(*, user: AbstractBaseUser) -> tuple[str, datetime]:
    """A new one-time link code for the user's own account (it replaces his unspent ones): the code, shown only
    now, and when it expires."""
    if not user.is_authenticated:
        raise NotPermitted(_("Sign in to link your Discord account."))
    code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
    expires_at = timezone.now() + CODE_TTL
    with transaction.atomic():
        DiscordLinkCode.objects.filter(user=user, used_at__isnull=True).delete()
        DiscordLinkCode.objects.filter(expires_at__lt=timezone.now() - CODE_TTL).delete()  # the spent, long gone
        DiscordLinkCode.objects.create(user=user, code_hash=_code_hash(code), expires_at=expires_at)
    return code, expires_at


def discord_link(*, discord_user_id: object, code: object) -> AbstractBaseUser:
    """Spend a link code: the Discord user acts as the code's account from now on (a link either of them had
    before ends). RuleViolation, nothing changed, for a code that is unknown, spent or expired."""
    discord_id = _snowflake(discord_user_id, "user")
    digest = _code_hash(_normalised_code(code))
    now = timezone.now()
    with transaction.atomic():
        row = DiscordLinkCode.objects.select_for_update().select_related("user").filter(code_hash=digest).first()
        if row is None:
            raise RuleViolation(_("That code is not one Dugout gave: check it, or make a new one."), field="code")
        if row.used_at is not None:
            raise RuleViolation(
                _("That code has been used already: make a new one on your account page."), field="code"
            )
        if row.expires_at <= now:
            raise RuleViolation(_("That code has expired (codes last 10 minutes): make a new one."), field="code")
        row.used_at = now
        row.save(update_fields=["used_at"])
        DiscordLink.objects.filter(Q(user=row.user) | Q(discord_user_id=discord_id)).delete()
        DiscordLink.objects.create(user=row.user, discord_user_id=discord_id)
    return row.user


def discord_unlink(*, user: AbstractBaseUser) -> bool:
    """End the tie between the user's own account and his Discord user: whether there was one."""
    if not user.is_authenticated:
        raise NotPermitted(_("Sign in to unlink your Discord account."))
    deleted, _rows = DiscordLink.objects.filter(user=user).delete()
    return bool(deleted)


def discord_linked_user(*, discord_user_id: object) -> AbstractBaseUser | None:
    """The account a Discord user acts as, or None (not linked, or not a Discord id)."""
    if not isinstance(discord_user_id, str) or not _SNOWFLAKE.fullmatch(discord_user_id):
        return None
    link = DiscordLink.objects.select_related("user").filter(discord_user_id=discord_user_id).first()
    return link.user if link is not None and link.user.is_active else None


def discord_link_of(*, user: AbstractBaseUser) -> DiscordLink | None:
    """The user's own link, for his account page."""
    if not user.is_authenticated:
        raise NotPermitted(_("Sign in to see your Discord link."))
    return DiscordLink.objects.filter(user=user).first()
