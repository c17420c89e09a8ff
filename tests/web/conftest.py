"""Fixtures of the web-page tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """Personas, sign-ups and log-ins hash passwords; the production hasher's cost buys nothing in tests."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
