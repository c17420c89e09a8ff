"""API tokens that end (django-rest-knox): a new token at every log-in, expiring after `TOKEN_TTL`, revocable one
by one or all at once, and all ended by a password change. Knox stores only a hash of each token; the first
characters (`token_key`) are what a coach sees to tell his tokens apart."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.models import AuthToken
from rest_framework.exceptions import AuthenticationFailed


class TokenAuthentication(KnoxTokenAuthentication):
    """`Authorization: Token <token>` as knox reads it, except that a token which is not UTF-8 text is a plain
    401 (knox would fail decoding it, a 500)."""

    def authenticate_credentials(self, token: bytes):
        try:
            token.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise AuthenticationFailed("Invalid token.") from exc
        return super().authenticate_credentials(token)


def token_issue(*, user) -> tuple[AuthToken, str]:
    """A new token for `user` (the row, and the token text shown once: only its hash is stored)."""
    return AuthToken.objects.create(user=user)


def token_revoke(*, user, digest: str) -> bool:
    """End one of `user`'s tokens; another user's token is never touched. True if one was ended."""
    deleted, _ = AuthToken.objects.filter(user=user, digest=digest).delete()
    return bool(deleted)


def token_revoke_all(*, user) -> int:
    """End every token of `user`; the number ended."""
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return deleted


def user_tokens(*, user) -> list[AuthToken]:
    """`user`'s tokens that still authenticate, newest first."""
    live = Q(expiry__isnull=True) | Q(expiry__gt=timezone.now())
    return list(AuthToken.objects.filter(live, user=user).order_by("-created"))


class EndTokensOnPasswordChange:
    """Ends every API token of a user whose password changes; it refuses no password.

    It sits in AUTH_PASSWORD_VALIDATORS because Django calls each validator's `password_changed` from
    `User.save()` after `set_password`: the one place every door passes through (the password page, the
    admin, a reset, `manage.py changepassword`, code), with no signal to forget to connect."""

    def validate(self, password, user=None) -> None:
        return None

    def password_changed(self, password, user=None) -> None:
        if user is not None and user.pk is not None:
            token_revoke_all(user=user)

    def get_help_text(self) -> str:
        return "A new password signs out every API token you hold."
