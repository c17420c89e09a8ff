"""The VAPID key pair that signs every Web Push (RFC 8292): the private key as base64url of its 32 raw bytes (what
`VAPID_PRIVATE_KEY` holds), the public one as base64url of its uncompressed P-256 point (`VAPID_PUBLIC_KEY`, what
a browser's `pushManager.subscribe({applicationServerKey})` takes). Keys are made and read by py-vapid.

Production gives both in the environment (docs/deploy.md). For `make run` and the tests a pair is generated once
into a file under var/ (`development_keys`) and kept: a browser's subscriptions are bound to the public key, so a
new pair at each start would end them all. Imported by the settings, so it imports nothing of Django."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02, b64urlencode


def generate() -> tuple[str, str]:
    """A new (private, public) pair, both base64url without padding."""
    vapid = Vapid02()
    vapid.generate_keys()
    return private_text(vapid), public_text(vapid)


def private_text(vapid: Vapid02) -> str:
    return b64urlencode(vapid.private_key.private_numbers().private_value.to_bytes(32, "big"))


def public_text(vapid: Vapid02) -> str:
    point = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64urlencode(point)


def signer(private_key: str) -> Vapid02:
    """The py-vapid signer for a `VAPID_PRIVATE_KEY` (raw base64url, or a DER/PEM key as py-vapid reads them);
    ValueError when it is no P-256 private key."""
    try:
        return Vapid02.from_string(private_key=private_key.strip())
    except Exception as exc:  # py-vapid and cryptography raise several kinds for a malformed key
        raise ValueError(f"not a VAPID (P-256) private key: {exc}") from None


def public_key_of(private_key: str) -> str:
    """The application server key that belongs to this private key."""
    return public_text(signer(private_key))


def configured_keys(private_key: str, public_key: str, *, development: Path | bool) -> tuple[str, str]:
    """The settings' (VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY) from the environment's values: a missing public key
    is derived from the private one; no private key and a `development` file: the pair kept there. A malformed
    private key is kept as given, for the system check to refuse (`notifications.checks`)."""
    private_key, public_key = private_key.strip(), public_key.strip()
    if not private_key:
        return development_keys(development) if development else ("", "")
    if not public_key:
        with contextlib.suppress(ValueError):
            public_key = public_key_of(private_key)
    return private_key, public_key


def development_keys(path: Path) -> tuple[str, str]:
    """The pair kept in `path` (JSON), generated there the first time. Safe when several processes start at once
    (`make run` starts web, worker and beat together): the file is written aside and linked into place, so the
    first one wins and every process reads the same pair."""
    if not path.exists():
        private, public = generate()
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, aside = tempfile.mkstemp(dir=path.parent, prefix=".vapid-")
        try:
            with os.fdopen(fd, "w") as out:
                json.dump({"private_key": private, "public_key": public}, out)
            os.link(aside, path)  # fails if another process got there first: its pair is kept
        except FileExistsError:
            pass
        finally:
            os.unlink(aside)
    stored = json.loads(path.read_text())
    return stored["private_key"], stored["public_key"]
