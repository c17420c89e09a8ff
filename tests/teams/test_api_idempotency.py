"""`Idempotency-Key` on API writes (api-v1: "a repeat with the same key returns the first answer and changes
nothing"). Keys are scoped to the caller; only successful answers are kept."""

from __future__ import annotations

import json
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from core.idempotency import _sha
from league.models import IdempotencyRecord, Invitation, League, Membership
from teams.models import LedgerEntry, Player, Team
from tests.assertions import assert_refused
from tests.factories import hire, new_token_for
from tests.invites import accept

pytestmark = pytest.mark.django_db


def key(value: str) -> dict:
    return {"HTTP_IDEMPOTENCY_KEY": value}


def counts(team: Team) -> tuple[int, int, int, dict]:
    team.refresh_from_db()
    on_sheet = Player.objects.filter(team=team, left_at__isnull=True).count()
    return on_sheet, LedgerEntry.objects.filter(team=team).count(), team.rerolls, team.staff


def assert_json_refusal(response, status):
    assert_refused(response, status)
    assert "Idempotent-Replayed" not in response


# --- replay ------------------------------------------------------------------------------------


def test_a_repeated_hire_replays_the_first_answer_and_hires_once(api_as, coach, team):
    client = api_as(coach)
    body = {"position": "lineman", "name": "Once", "number": 5}

    first = client.post(f"/api/v1/teams/{team.pk}/players/", body, format="json", **key("hire-once"))
    second = client.post(f"/api/v1/teams/{team.pk}/players/", body, format="json", **key("hire-once"))

    assert first.status_code == 201, first.content
    assert "Idempotent-Replayed" not in first
    assert second.status_code == first.status_code
    assert second["Idempotent-Replayed"] == "true"
    assert second.json() == first.json()
    assert second["Content-Type"].startswith("application/json")
    assert Player.objects.filter(team=team).count() == 1
    assert list(LedgerEntry.objects.filter(team=team).values_list("amount", flat=True).order_by("id")) == [
        100_000,
        -5000,
    ]


def test_a_repeat_after_logging_in_again_replays_and_hires_once(coach, team):
    """Each log-in issues a new token: the key is the coach's, not his token's, so a client that signs in
    again between two tries of one hire still hires (and pays) once."""
    from rest_framework.test import APIClient

    body = {"position": "lineman", "name": "Once", "number": 5}
    first_client, second_client = APIClient(), APIClient()
    first_client.credentials(HTTP_AUTHORIZATION=f"Token {new_token_for(coach)}")
    second_client.credentials(HTTP_AUTHORIZATION=f"Token {new_token_for(coach)}")

    first = first_client.post(f"/api/v1/teams/{team.pk}/players/", body, format="json", **key("relogin"))
    second = second_client.post(f"/api/v1/teams/{team.pk}/players/", body, format="json", **key("relogin"))

    assert first.status_code == 201, first.content
    assert second["Idempotent-Replayed"] == "true"
    assert second.json() == first.json()
    assert Player.objects.filter(team=team).count() == 1


def test_a_repeated_purchase_replays_and_buys_once(api_as, coach, team):
    client = api_as(coach)
    body = {"item": "reroll", "quantity": 1}

    first = client.post(f"/api/v1/teams/{team.pk}/purchases/", body, format="json", **key("buy-once"))
    second = client.post(f"/api/v1/teams/{team.pk}/purchases/", body, format="json", **key("buy-once"))

    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    team.refresh_from_db()
    assert team.rerolls == 1
    assert LedgerEntry.objects.filter(team=team).count() == 2


def test_a_replay_is_the_first_answer_even_when_asking_again_would_now_be_refused(api_as, coach, team):
    """The White Mage is 0–1: asking again would be refused, but a repeat is the first answer, not a new ask."""
    client = api_as(coach)
    body = {"item": "white_mage", "quantity": 1}

    first = client.post(f"/api/v1/teams/{team.pk}/purchases/", body, format="json", **key("mage"))
    again = client.post(f"/api/v1/teams/{team.pk}/purchases/", body, format="json", **key("mage"))

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert counts(team) == (0, 2, 0, {"white_mage": 1})


def test_a_repeated_fire_replays_204_instead_of_404(api_as, coach, team):
    player = hire(team, "lineman", name="Gone")
    client = api_as(coach)

    first = client.delete(f"/api/v1/teams/{team.pk}/players/{player.pk}/", **key("fire"))
    second = client.delete(f"/api/v1/teams/{team.pk}/players/{player.pk}/", **key("fire"))

    assert (first.status_code, second.status_code) == (204, 204)
    assert second["Idempotent-Replayed"] == "true"
    assert second.content == b""


def test_a_repeated_team_create_creates_one_team(api_as, coach, league, make_coach):
    make_coach(coach)
    client = api_as(coach)
    body = {"league": league.pk, "name": "Alice's Humes", "roster": "hume"}

    first = client.post("/api/v1/teams/", body, format="json", **key("team"))
    second = client.post("/api/v1/teams/", body, format="json", **key("team"))

    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json() == first.json()
    assert Team.objects.filter(league=league).count() == 1
    assert LedgerEntry.objects.filter(team_id=first.json()["id"]).count() == 1


def test_a_repeated_league_create_and_member_add_happen_once(api_as, commissioner, other_coach):
    client = api_as(commissioner)
    body = {"name": "Once Cup", "ruleset": "elfball", "house_rules": {"points_budget": 120}}

    first = client.post("/api/v1/leagues/", body, format="json", **key("league"))
    second = client.post("/api/v1/leagues/", body, format="json", **key("league"))
    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json() == first.json()
    assert League.objects.filter(name="Once Cup").count() == 1

    members = f"/api/v1/leagues/{first.json()['id']}/members/"
    added = [client.post(members, {"username": "bob", "role": "coach"}, format="json", **key("add-bob")) for _ in "ab"]
    assert [r.status_code for r in added] == [201, 201]
    assert added[1]["Idempotent-Replayed"] == "true"
    assert Invitation.objects.filter(user=other_coach).count() == 1
    accept(api_as(other_coach), added[0])
    assert Membership.objects.filter(user=other_coach).count() == 1


# --- mismatches and refusals -------------------------------------------------------------------


def test_the_same_key_with_a_different_body_is_422_and_changes_nothing(api_as, coach, team):
    client = api_as(coach)
    client.post(
        f"/api/v1/teams/{team.pk}/players/", {"position": "lineman", "name": "First"}, format="json", **key("k")
    )
    before = counts(team)

    response = client.post(
        f"/api/v1/teams/{team.pk}/players/", {"position": "blitzer", "name": "Second"}, format="json", **key("k")
    )

    assert_json_refusal(response, 422)
    assert counts(team) == before


def test_the_same_key_on_another_endpoint_is_422_and_changes_nothing(api_as, coach, team):
    client = api_as(coach)
    client.post(
        f"/api/v1/teams/{team.pk}/players/", {"position": "lineman", "name": "First"}, format="json", **key("k")
    )
    before = counts(team)

    response = client.post(
        f"/api/v1/teams/{team.pk}/purchases/", {"item": "reroll", "quantity": 1}, format="json", **key("k")
    )

    assert_json_refusal(response, 422)
    assert counts(team) == before


def test_a_refused_request_is_not_stored_so_the_key_can_be_used_again(api_as, coach, team):
    """Only successful answers are kept: a refused request changed nothing, so asking again asks anew."""
    client = api_as(coach)

    refused = client.post(
        f"/api/v1/teams/{team.pk}/players/", {"position": "dragon", "name": "Smaug"}, format="json", **key("retry")
    )
    assert refused.status_code == 400, refused.content
    assert refused["Content-Type"].startswith("application/json")
    assert refused.json()["position"][0].strip()
    assert "Idempotent-Replayed" not in refused

    fixed = client.post(
        f"/api/v1/teams/{team.pk}/players/", {"position": "lineman", "name": "Smaug"}, format="json", **key("retry")
    )
    assert fixed.status_code == 201, fixed.content
    assert "Idempotent-Replayed" not in fixed
    assert counts(team)[:2] == (1, 2)


def test_a_forbidden_request_is_not_stored_either(api_as, coach, other_coach, team, other_team):
    """A 403 with a key changes nothing and leaves the key free for the caller's next request."""
    bob = api_as(other_coach)
    before = counts(team)

    forbidden = bob.post(
        f"/api/v1/teams/{team.pk}/purchases/", {"item": "reroll", "quantity": 1}, format="json", **key("sneaky")
    )

    assert_json_refusal(forbidden, 403)
    assert counts(team) == before
    own = bob.post(
        f"/api/v1/teams/{other_team.pk}/purchases/", {"item": "reroll", "quantity": 1}, format="json", **key("sneaky")
    )
    assert own.status_code == 201, own.content
    assert "Idempotent-Replayed" not in own


def test_different_users_with_the_same_key_do_not_collide(api_as, coach, other_coach, team, other_team):
    """Keys are scoped to the caller's credentials."""
    alice = api_as(coach).post(
        f"/api/v1/teams/{team.pk}/players/", {"position": "lineman", "name": "A"}, format="json", **key("shared-key")
    )
    bob = api_as(other_coach).post(
        f"/api/v1/teams/{other_team.pk}/players/",
        {"position": "goblin", "name": "B"},
        format="json",
        **key("shared-key"),
    )

    assert (alice.status_code, bob.status_code) == (201, 201), (alice.content, bob.content)
    assert "Idempotent-Replayed" not in bob
    assert bob.json()["name"] == "B"
    assert counts(team)[:2] == (1, 2)
    assert counts(other_team)[:2] == (1, 2)


def test_different_users_sending_the_same_body_and_key_each_get_their_own_answer(api_as, coach, other_coach, league):
    """Even an identical request from another user is that user's own: bob is not handed alice's league."""
    body = {"name": "Twin Cup", "ruleset": "blitzbowl"}

    alice = api_as(coach).post("/api/v1/leagues/", body, format="json", **key("same"))
    bob = api_as(other_coach).post("/api/v1/leagues/", body, format="json", **key("same"))

    assert (alice.status_code, bob.status_code) == (201, 201)
    assert "Idempotent-Replayed" not in bob
    assert (alice.json()["commissioner"], bob.json()["commissioner"]) == (coach.pk, other_coach.pk)
    assert League.objects.filter(name="Twin Cup").count() == 2


def test_reads_ignore_the_key(api, team):
    first = api.get(f"/api/v1/teams/{team.pk}/", **key("read"))
    second = api.get(f"/api/v1/teams/{team.pk}/", **key("read"))

    assert (first.status_code, second.status_code) == (200, 200)
    assert "Idempotent-Replayed" not in second


def test_an_overlong_key_is_refused_400(api_as, coach, team):
    response = api_as(coach).post(
        f"/api/v1/teams/{team.pk}/purchases/", {"item": "reroll", "quantity": 1}, format="json", **key("k" * 256)
    )

    assert_json_refusal(response, 400)
    assert counts(team) == (0, 1, 0, {})


def test_anonymous_callers_at_different_addresses_do_not_share_keys(db):
    """Two strangers registering with the same key are two callers: each gets his own account."""
    from rest_framework.test import APIClient

    first = APIClient(REMOTE_ADDR="10.0.0.1").post(
        "/api/v1/auth/register/", {"username": "ann", "password": "Dugout-test-pass-1"}, format="json", **key("signup")
    )
    second = APIClient(REMOTE_ADDR="10.0.0.2").post(
        "/api/v1/auth/register/", {"username": "ben", "password": "Dugout-test-pass-1"}, format="json", **key("signup")
    )
    assert (first.status_code, second.status_code) == (201, 201)
    assert first.json()["token"] != second.json()["token"]


# --- in flight (draft-ietf-httpapi-idempotency-key-header) --------------------------------------


def claim(user_client_token: str, value: str, fingerprint: str, **fields) -> IdempotencyRecord:
    return IdempotencyRecord.objects.create(scope=_sha(user_client_token), key=value, fingerprint=fingerprint, **fields)


def test_a_claim_left_by_a_crashed_request_expires_and_the_repeat_runs(api_as, coach, team, settings):
    """After IDEMPOTENCY_CLAIM_SECONDS an unanswered claim is a crashed process's: the next repeat runs it."""
    from tests.conftest import token_for

    settings.IDEMPOTENCY_CLAIM_SECONDS = 120
    body = {"position": "lineman", "name": "Revived"}
    path = f"/api/v1/teams/{team.pk}/players/"
    fingerprint = _sha("POST", path, json.dumps(body, separators=(",", ":")).encode())
    stale = claim(f"Token {token_for(coach)}", "crashed", fingerprint)
    IdempotencyRecord.objects.filter(pk=stale.pk).update(created_at=timezone.now() - timedelta(seconds=121))

    response = api_as(coach).post(path, body, format="json", **key("crashed"))
    again = api_as(coach).post(path, body, format="json", **key("crashed"))

    assert response.status_code == 201, response.content
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert counts(team)[:2] == (1, 2)


def waiting_on_a_lock() -> int:
    """How many other PostgreSQL sessions wait on a row lock now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_concurrent_repeat_answers_409_while_the_first_request_waits_on_the_team_row(api_as, coach, team):
    """The first hire is held open by another transaction holding its team row (FOR UPDATE); the repeat with
    the same key answers 409 while the first is still waiting, then the first completes once and replays."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite has one writer, so no request waits on a row while another runs")
    body = {"position": "lineman", "name": "Held"}
    path = f"/api/v1/teams/{team.pk}/players/"
    holding, release = threading.Event(), threading.Event()
    answers: dict[str, object] = {}

    def neighbour() -> None:
        try:
            with transaction.atomic():
                list(Team.objects.select_for_update().filter(pk=team.pk).values_list("pk", flat=True))
                holding.set()
                release.wait(60)
        finally:
            connections.close_all()

    def send(name: str) -> None:
        try:
            answers[name] = api_as(coach).post(path, body, format="json", **key("held"))
        finally:
            connections.close_all()

    held = threading.Thread(target=neighbour)
    held.start()
    assert holding.wait(30)
    first = threading.Thread(target=send, args=("first",))
    first.start()
    try:
        # The first request has claimed the key and waits on the team row.
        while not (IdempotencyRecord.objects.filter(key="held").exists() and waiting_on_a_lock()):
            assert first.is_alive(), answers
            time.sleep(0.05)
        repeat = threading.Thread(target=send, args=("repeat",))
        repeat.start()
        repeat.join(30)  # a guard against hanging (today's code waits here until the row is let go)
        assert "repeat" in answers and first.is_alive() and "first" not in answers
    finally:
        release.set()
        held.join(30)
        first.join(30)
    assert_json_refusal(answers["repeat"], 409)
    assert answers["first"].status_code == 201, answers["first"].content
    replay = api_as(coach).post(path, body, format="json", **key("held"))
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert replay.json() == answers["first"].json()
    assert Player.objects.filter(team=team, name="Held").count() == 1
