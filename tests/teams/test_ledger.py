"""The gil ledger: append-only entries, balance = their sum, never negative — even under races."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.errors import RuleViolation
from teams import services
from teams.models import LedgerEntry, Player, Team
from teams.selectors import team_treasury, team_value
from tests.factories import TeamFactory, hire, token_for


def ledger_sum(team) -> int:
    return LedgerEntry.objects.filter(team=team, account="treasury").aggregate(s=Sum("amount"))["s"] or 0


def test_treasury_opens_with_one_entry_of_100000(team):
    """R: treasury starts at 100,000 gil; I: as the ledger's first entry."""
    entries = list(team.ledger.all())
    assert [(e.amount, e.balance_after, e.kind) for e in entries] == [(100_000, 100_000, "starting_treasury")]


def test_balance_is_the_sum_of_entries_after_hires_and_purchases(team):
    hire(team, "blitzer", name="A")
    hire(team, "lineman", name="B")
    services.team_purchase(team_id=team.pk, user=team.coach, item="reroll", quantity=2)
    assert team_treasury(team=team) == ledger_sum(team) == 100_000 - 9000 - 5000 - 10_000
    balances = list(team.ledger.order_by("sequence").values_list("sequence", "balance_after"))
    assert balances == [(1, 100_000), (2, 91_000), (3, 86_000), (4, 76_000)]


def test_firing_gives_no_refund(team):
    """H: fire players (no refund)."""
    player = hire(team, "blitzer")
    before = team_treasury(team=team)
    services.team_fire_player(team_id=team.pk, player_id=player.pk, user=team.coach)
    assert team_treasury(team=team) == before
    player.refresh_from_db()
    assert player.status == Player.Status.RETIRED and player.left_at is not None


def test_team_value_rises_by_the_hired_players_cost_and_ignores_the_treasury(team):
    """R: TV counts players' cost, not gil in the treasury."""
    hire(team, "blitzer")
    assert team_value(team=Team.objects.get(pk=team.pk)) == 9000


def test_refused_hire_changes_nothing(team):
    services.ledger_post(team=team, amount=-95_000, kind="test", reason="spent")
    with pytest.raises(RuleViolation, match="Not enough gil"):
        hire(team, "blitzer")
    assert team.players.count() == 0
    assert team_treasury(team=team) == 5000


def test_database_refuses_a_negative_balance(team):
    """I: the balance may never go below 0 — a database CheckConstraint, whatever the code does."""
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(team=team, sequence=2, amount=-200_000, balance_after=-100_000, kind="x", reason="x")


def test_database_refuses_two_entries_with_the_same_sequence(team):
    """Append-only: two writers can never both append entry n+1."""
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(team=team, sequence=1, amount=5, balance_after=100_005, kind="x", reason="x")


def test_ledger_post_refuses_overdraft_with_a_message(team):
    with pytest.raises(RuleViolation, match="holds 100,000 gil"):
        services.ledger_post(team=team, amount=-100_001, kind="test", reason="Too much")


def test_audit_finds_no_drift_in_a_clean_ledger_and_finds_tampering(team):
    hire(team, "blitzer")
    assert services.ledger_audit() == []
    LedgerEntry.objects.filter(team=team, sequence=2).update(balance_after=95_000)  # tamper, bypassing services
    assert services.ledger_audit() == [f"team {team.pk} treasury entry 2: balance does not add up"]


# --- races ----------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_racing_hires_cannot_overdraw_the_treasury():
    """R/I: the treasury never goes negative, even when hires race (real threads, real transactions).

    On PostgreSQL the team row lock serialises them; on SQLite the IMMEDIATE transactions do.
    """
    team = TeamFactory()
    services.ledger_post(team=team, amount=-90_000, kind="test", reason="leave 10,000")
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def attempt(n: int) -> None:
        try:
            barrier.wait()
            hire(team, "blitzer", name=f"Racer {n}")  # 9,000 each: only one fits
            outcomes.append("hired")
        except RuleViolation:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["hired", "refused", "refused", "refused"]
    assert team_treasury(team=team) == ledger_sum(team) == 1000
    assert team.players.count() == 1


@pytest.mark.django_db(transaction=True)
def test_racing_requests_through_the_running_server_answer_201_or_400_never_500(live_server):
    """On the newcomer default (SQLite, WAL, IMMEDIATE, busy timeout) — and on PostgreSQL — concurrent hires
    through the threaded server answer 201 or 400: never a 500 or "database is locked"."""
    team = TeamFactory()
    token = token_for(team.coach)
    barrier = threading.Barrier(8)
    statuses: list[int] = []

    def post(n: int) -> None:
        body = json.dumps({"position": "lineman", "name": f"Rusher {n}"}).encode()
        request = urllib.request.Request(
            f"{live_server.url}/api/v1/teams/{team.pk}/players/",
            data=body,
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
        )
        barrier.wait()
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                statuses.append(response.status)
        except urllib.error.HTTPError as exc:
            statuses.append(exc.code)

    threads = [threading.Thread(target=post, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert len(statuses) == 8
    assert set(statuses) <= {201, 400}, statuses
    hired = statuses.count(201)
    assert team.players.count() == hired
    assert team_treasury(team=team) == ledger_sum(team) == 100_000 - 5000 * hired >= 0


# --- property ---------------------------------------------------------------------------------------------

POSITIONS = ["lineman", "catcher", "thrower", "blitzer", "ogre"]
ITEMS = ["reroll", "assistant_coach", "cheerleader", "white_mage", "fan_factor"]
operation = st.one_of(
    st.tuples(st.just("hire"), st.sampled_from(POSITIONS)),
    st.tuples(st.just("fire"), st.integers(min_value=0, max_value=20)),
    st.tuples(st.just("buy"), st.sampled_from(ITEMS), st.integers(min_value=1, max_value=4)),
    st.tuples(
        st.just("close"),
    ),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, max_size=30))
def test_any_sequence_of_hires_fires_and_purchases_keeps_the_books_straight(team, ops):
    """Property: whatever a coach does, balance = sum of entries ≥ 0, the running balances chain,
    refused actions change nothing, and TV is what the rules compute from the roster."""
    with transaction.atomic():
        for op in ops:
            before = (ledger_sum(team), team.players.filter(left_at__isnull=True).count())
            try:
                if op[0] == "hire":
                    hire(team, op[1])
                elif op[0] == "fire":
                    players = list(team.players.filter(left_at__isnull=True).order_by("pk"))
                    if players:
                        services.team_fire_player(
                            team_id=team.pk, player_id=players[op[1] % len(players)].pk, user=team.coach
                        )
                elif op[0] == "buy":
                    services.team_purchase(team_id=team.pk, user=team.coach, item=op[1], quantity=op[2])
                else:
                    services.team_close_creation(team_id=team.pk, user=team.coach)
            except RuleViolation:
                assert (ledger_sum(team), team.players.filter(left_at__isnull=True).count()) == before
            assert team_treasury(team=team) == ledger_sum(team) >= 0
            assert services.ledger_audit() == []
            fresh = Team.objects.get(pk=team.pk)
            playing = sum(p.value for p in fresh.players.filter(status="active"))
            staff_prices = {"assistant_coach": 1000, "cheerleader": 1000, "white_mage": 5000}
            expected = (
                playing
                + sum(n * staff_prices[k] for k, n in fresh.staff.items())
                + fresh.rerolls * 5000
                + fresh.fan_factor * 1000
            )
            assert team_value(team=fresh) == expected
        transaction.set_rollback(True)


def test_ledger_endpoint_lists_one_account_oldest_first_as_a_running_sum(api, team):
    """api-v1: the ledger, oldest first; `balance_after` runs down the list of one account."""
    hire(team, "lineman")
    services.ledger_post(team=team, amount=7000, kind="stadium_fund", reason="Stadium Fund", account="stadium_fund")
    treasury = api.get(f"/api/v1/teams/{team.pk}/ledger/").json()
    assert [(e["amount"], e["balance_after"]) for e in treasury] == [(100_000, 100_000), (-5000, 95_000)]
    fund = api.get(f"/api/v1/teams/{team.pk}/ledger/?account=stadium_fund").json()
    assert [(e["amount"], e["balance_after"]) for e in fund] == [(7000, 7000)]
    assert "account" in api.get(f"/api/v1/teams/{team.pk}/ledger/?account=piggy").json()
