"""The interactions endpoint's door (api-v1 v1.2 "Discord, both ways"): only requests signed with the league's
application key pass; PING is answered PONG; no body, signed or not, is ever a 500."""

from __future__ import annotations

import json
import time

import pytest
from nacl.signing import SigningKey

from league.discord import SIGNATURE_MAX_AGE
from tests.dugout.discord.conftest import command
from tests.factories import LeagueFactory

pytestmark = pytest.mark.django_db

PING = {"type": 1, "id": "1", "application_id": "1122334455", "token": "t", "version": 1}


def test_a_signed_ping_is_answered_pong(discord, connected):
    response = discord(PING)

    assert response.status_code == 200
    assert response.json() == {"type": 1}
    assert response["Content-Type"] == "application/json"


def test_an_unsigned_request_is_401(discord, connected):
    assert discord(PING, signer=None).status_code == 401


def test_a_tampered_body_is_401(discord, connected):
    signed = json.dumps(PING).encode()
    response = discord(signed, sent=json.dumps(command("table")).encode())

    assert response.status_code == 401


def test_a_request_signed_with_another_key_is_401(discord, connected):
    assert discord(PING, signer=SigningKey.generate()).status_code == 401


@pytest.mark.parametrize(
    "signature",
    ["zz" * 64, "ab", "", "ab" * 65, "é" * 128],
    ids=["not-hex", "too-short", "empty", "too-long", "non-ascii"],
)
def test_a_malformed_signature_is_401(discord, connected, signature):
    response = discord(PING, headers={"HTTP_X_SIGNATURE_ED25519": signature})

    assert response.status_code == 401


@pytest.mark.parametrize("stamp", ["", "soon", "１２３", "-5", "1.5"])
def test_a_malformed_timestamp_is_401(discord, connected, stamp):
    assert discord(PING, timestamp=stamp).status_code == 401


def test_a_stale_or_future_timestamp_is_401_even_correctly_signed(discord, connected):
    """A captured request cannot be replayed later: the signed timestamp must be within five minutes."""
    now = int(time.time())

    assert discord(PING, timestamp=str(now - SIGNATURE_MAX_AGE - 5)).status_code == 401
    assert discord(PING, timestamp=str(now + SIGNATURE_MAX_AGE + 5)).status_code == 401
    assert discord(PING, timestamp=str(now - 60)).status_code == 200


def test_an_unknown_league_or_one_without_discord_is_404(discord, connected, commissioner):
    bare = LeagueFactory(created_by=commissioner, name="No Discord", ruleset="blitzbowl")

    assert discord(PING, league_id=bare.pk).status_code == 404
    assert discord(PING, league_id=999999).status_code == 404
    assert discord(PING, league_id=2**70).status_code == 404


def test_the_signature_is_checked_before_the_body_is_read(discord, connected):
    """An unsigned garbage body is a 401, not a 400: nothing of it is read."""
    assert discord(b"\xff\xfe not json", signer=None).status_code == 401


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"\xff\xfe\x00",
        b"[]",
        b"null",
        b"42",
        b'"ping"',
        b'{"type": "1"}',
        b'{"type": true}',
        b'{"type": 3}',
        b'{"type": 2}',
        b'{"type": 2, "data": 5}',
        b'{"type": 2, "data": {"name": 5}}',
        b'{"type": 2, "data": {"name": "confirm", "options": "x"}}',
        b'{"type": 2, "data": {"name": "confirm", "options": [5, {"name": 3}, {"name": "match", "value": [1]}]}}',
        b'{"type": 2, "data": {"name": "link", "options": [{"name": "code", "value": {"a": 1}}]}, "user": {"id": 7}}',
        b'{"type": 2, "data": {"name": "next"}, "member": "x", "user": []}',
        b'{"type": 2, "data": {"name": "table"}, "locale": ["de"]}',
        b'{"type": 2, "data": {"name": "table"}, "locale": "xx-\\u0000"}',
        b"[" * 5000 + b"]" * 5000,
    ],
)
def test_no_signed_body_is_ever_a_500(discord, connected, raw):
    response = discord(raw)

    assert response.status_code in (200, 400)
    body = response.json()
    assert ("type" in body) if response.status_code == 200 else ("detail" in body)


def test_an_unknown_command_is_answered_in_words_to_the_caller_only(discord, connected):
    response = discord(command("dance"))

    assert response.status_code == 200
    data = response.json()["data"]
    assert "/table" in data["content"]
    assert data["flags"] == 64


def test_every_answer_mentions_no_one(discord, connected, league):
    """A team called "@everyone" in the table pings nobody."""
    league.name = "@everyone Cup"
    league.save(update_fields=["name"])

    data = discord(command("table")).json()["data"]

    assert data["allowed_mentions"] == {"parse": []}


def test_discord_needs_no_csrf_token_nor_session(connected, league, key):
    """Discord posts with no cookie: the signature is the whole authentication."""
    from django.test import Client

    raw = json.dumps(PING).encode()
    stamp = str(int(time.time()))
    response = Client(enforce_csrf_checks=True).post(
        f"/api/v1/integrations/discord/{league.pk}/interactions/",
        data=raw,
        content_type="application/json",
        HTTP_X_SIGNATURE_ED25519=key.sign(stamp.encode() + raw).signature.hex(),
        HTTP_X_SIGNATURE_TIMESTAMP=stamp,
    )

    assert response.status_code == 200 and response.json() == {"type": 1}
