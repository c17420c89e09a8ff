"""A league connected to a Discord application whose private key the tests hold, and a client that signs as
Discord does (Ed25519 over X-Signature-Timestamp + body)."""

from __future__ import annotations

import json
import time

import pytest
from nacl.signing import SigningKey

from league.models import DiscordApplication, DiscordLink
from matches import services as match_services
from tests.matches.conftest import full_team


@pytest.fixture
def key() -> SigningKey:
    return SigningKey.generate()


@pytest.fixture
def connected(league, key) -> DiscordApplication:
    return DiscordApplication.objects.create(
        league=league, application_id="1122334455", public_key=key.verify_key.encode().hex()
    )


def command(name: str, *, user_id: str | None = "9001", **options) -> dict:
    """An APPLICATION_COMMAND interaction as Discord posts it from a guild."""
    body: dict = {
        "type": 2,
        "id": "1",
        "application_id": "1122334455",
        "token": "t",
        "data": {"id": "5", "name": name, "type": 1},
    }
    if options:
        body["data"]["options"] = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
    if user_id is not None:
        body["member"] = {"user": {"id": user_id, "username": "someone"}, "roles": []}
    return body


@pytest.fixture
def discord(client, league, key):
    """`discord(body, *, signer=key, timestamp=now, sent=None, league_id=league)`: post an interaction signed by
    `signer` (None: no signature headers); `sent`, when given, replaces the body after signing (a tampered one)."""

    def post(body, *, signer=key, timestamp=None, sent=None, league_id=None, headers=None):
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        stamp = str(int(time.time())) if timestamp is None else timestamp
        extra = {}
        if signer is not None:
            extra["HTTP_X_SIGNATURE_ED25519"] = signer.sign(stamp.encode() + raw).signature.hex()
            extra["HTTP_X_SIGNATURE_TIMESTAMP"] = stamp
        extra.update(headers or {})
        url = f"/api/v1/integrations/discord/{league_id or league.pk}/interactions/"
        return client.post(url, data=sent if sent is not None else raw, content_type="application/json", **extra)

    return post


def link(user, discord_user_id: str = "9001") -> DiscordLink:
    return DiscordLink.objects.create(user=user, discord_user_id=discord_user_id)


def submitted_match(league, commissioner, submitter_team, other_team):
    """A match of the two teams with a result entered by `submitter_team`'s coach (1–0 to it)."""
    match = match_services.match_schedule(user=commissioner, league=league, team_ids=[submitter_team.pk, other_team.pk])
    scorer = submitter_team.players.order_by("number").first()
    body = {
        "teams": [{"team": submitter_team.pk, "score": 1, "mvp": scorer.pk}, {"team": other_team.pk, "score": 0}],
        "players": [{"player": scorer.pk, "touchdowns": 1}],
    }
    return match_services.match_submit_result(user=submitter_team.coach, match_id=match.pk, body=body)


@pytest.fixture
def home(league, coach):
    return full_team(league, coach, "Home")


@pytest.fixture
def away(league, other_coach):
    return full_team(league, other_coach, "Away")
