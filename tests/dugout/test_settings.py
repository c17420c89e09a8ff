"""Settings from the environment: production passes `check --deploy`; the development key never does."""

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

PRODUCTION = {
    "SECURE_SSL_REDIRECT": True,
    "SECRET_KEY": "k" * 20 + "-a-long-random-production-secret-1234567890",
    "REDIS_URL": "redis://x:6379/0",
    "VAPID_SUBJECT": "mailto:operator@example.org",
}


def test_production_settings_pass_the_deploy_checks_with_no_warnings():
    with override_settings(**PRODUCTION):
        call_command("check", deploy=True, fail_level="WARNING")


def test_the_development_secret_key_fails_the_deploy_checks():
    with override_settings(REDIS_URL="redis://x:6379/0"), pytest.raises(SystemCheckError, match="W009"):
        call_command("check", deploy=True, fail_level="WARNING")


def test_the_embedded_broker_is_flagged_for_production():
    with override_settings(**{**PRODUCTION, "REDIS_URL": ""}), pytest.raises(SystemCheckError, match=r"dugout\.W001"):
        call_command("check", deploy=True, fail_level="WARNING")


def _settings_under(env: dict) -> dict:
    """The settings a fresh process builds from this environment (settings are read once, at start-up)."""
    import json
    import os
    import subprocess
    import sys

    code = (
        "import json, django; from django.conf import settings; django.setup(); d = settings.DATABASES['default'];"
        "print(json.dumps({'age': d.get('CONN_MAX_AGE'), 'checks': d.get('CONN_HEALTH_CHECKS'),"
        "'sessions': settings.SESSION_ENGINE}))"
    )
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CONN_MAX_AGE")}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**base, "DJANGO_SETTINGS_MODULE": "dugout.settings", **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_postgresql_connections_persist_with_health_checks_and_sessions_live_in_the_database():
    """Issue 12: a connection kept for 60 s (checked before reuse) unless CONN_MAX_AGE says otherwise; sessions in
    the database, Redis or not — any web process serves any user, and log-in reads no cache."""
    url = "postgres://postgres@127.0.0.1:5432/dugout_unused"
    assert _settings_under({"DATABASE_URL": url, "REDIS_URL": "redis://127.0.0.1:6379/0"}) == {
        "age": 60,
        "checks": True,
        "sessions": "django.contrib.sessions.backends.db",
    }
    assert _settings_under({"DATABASE_URL": url, "CONN_MAX_AGE": "0"})["age"] == 0
    assert _settings_under({})["sessions"] == "django.contrib.sessions.backends.db"
