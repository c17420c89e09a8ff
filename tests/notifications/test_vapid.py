"""The VAPID keys: a development pair generated once into var/ and kept (so `make run` starts on a fresh machine
and a browser's subscriptions survive a restart), production's from the environment, and the system checks that
refuse keys that cannot work."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.checks import Error, Info, Warning
from django.test import override_settings

from notifications import checks, vapid


def test_a_development_pair_is_generated_once_and_kept(tmp_path):
    path = tmp_path / "var" / "vapid.json"
    private, public = vapid.development_keys(path)
    assert vapid.development_keys(path) == (private, public)
    assert vapid.public_key_of(private) == public
    assert len(vapid.signer(private).public_key.public_numbers().x.to_bytes(32, "big")) == 32
    assert oct(path.stat().st_mode & 0o777) == "0o600"  # a private key: its owner's only
    assert [p.name for p in path.parent.iterdir()] == ["vapid.json"]  # nothing left aside


def test_a_pair_another_process_wrote_first_is_the_one_kept(tmp_path, monkeypatch):
    path = tmp_path / "vapid.json"
    theirs = vapid.generate()
    real_link = os.link

    def raced(src, dst):
        path.write_text(json.dumps({"private_key": theirs[0], "public_key": theirs[1]}))
        real_link(src, dst)

    monkeypatch.setattr(os, "link", raced)
    assert vapid.development_keys(path) == theirs


def test_the_public_key_is_derived_when_only_the_private_one_is_given(tmp_path):
    private, public = vapid.generate()
    assert vapid.configured_keys(private, "", development=False) == (private, public)
    assert vapid.configured_keys("", "", development=False) == ("", "")
    assert vapid.configured_keys("", "", development=tmp_path / "v.json") == vapid.development_keys(tmp_path / "v.json")


def _vapid_settings(**env: str) -> dict:
    """VAPID_* as a fresh process builds them from this environment (none of the caller's VAPID variables)."""
    code = (
        "import json, django; from django.conf import settings; django.setup();"
        "print(json.dumps([settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY]))"
    )
    base = {k: v for k, v in os.environ.items() if not k.startswith(("VAPID_", "DEBUG"))}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**base, "DJANGO_SETTINGS_MODULE": "dugout.settings", **env},
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_make_run_uses_the_pair_kept_in_var_and_production_has_push_off_until_it_is_given():
    assert _vapid_settings(DEBUG="1") == list(vapid.development_keys(settings.VAR_DIR / "vapid.json"))
    assert _vapid_settings(DEBUG="0") == ["", ""]
    private, public = vapid.generate()
    assert _vapid_settings(DEBUG="0", VAPID_PRIVATE_KEY=private) == [private, public]


def test_keys_that_cannot_work_are_refused_at_start_up():
    private, public = vapid.generate()
    with override_settings(VAPID_PRIVATE_KEY="not a key", VAPID_PUBLIC_KEY=public):
        assert [e.id for e in checks.vapid_keys_check(None)] == ["notifications.E001"]
    with override_settings(VAPID_PRIVATE_KEY=private, VAPID_PUBLIC_KEY=vapid.generate()[1]):
        assert [e.id for e in checks.vapid_keys_check(None)] == ["notifications.E002"]
    with override_settings(VAPID_PRIVATE_KEY=private, VAPID_PUBLIC_KEY=public, VAPID_SUBJECT="ops@example.org"):
        assert [e.id for e in checks.vapid_keys_check(None)] == ["notifications.E003"]
    with override_settings(VAPID_PRIVATE_KEY=private, VAPID_PUBLIC_KEY=public, VAPID_SUBJECT="mailto:o@example.org"):
        assert checks.vapid_keys_check(None) == []
    with override_settings(VAPID_PRIVATE_KEY="", VAPID_PUBLIC_KEY=""):
        assert checks.vapid_keys_check(None) == []


@pytest.mark.parametrize(
    "configured, expected",
    [
        ({"VAPID_PRIVATE_KEY": ""}, (Info, "notifications.I001")),
        ({"VAPID_SUBJECT": checks.DEFAULT_SUBJECT}, (Warning, "notifications.W001")),
        ({"VAPID_SUBJECT": "mailto:operator@example.org"}, None),
    ],
)
def test_the_deploy_check_says_when_push_is_off_or_the_subject_is_the_development_one(configured, expected):
    with override_settings(**configured):
        found = [(type(m), m.id) for m in checks.push_deploy_check(None)]
    assert found == ([expected] if expected else [])
    assert not any(isinstance(m, Error) for m in checks.push_deploy_check(None))
