"""Settings from the environment: production passes `check --deploy`; the development key never does."""

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

PRODUCTION = {
    "SECURE_SSL_REDIRECT": True,
    "SECRET_KEY": "k" * 20 + "-a-long-random-production-secret-1234567890",
    "REDIS_URL": "redis://x:6379/0",
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
