"""Transfers (../shared/rules/blitzbowl.md, "Teams, treasury and value"): never between one coach's own
teams; between two coaches only when both coaches and the commissioner agree."""

import pytest

from campaigns.errors import RuleViolation
from teams.models import Transfer
from teams.selectors import team_treasury
from teams.transfers import transfer_accept, transfer_approve, transfer_propose, transfer_refuse
from tests.factories import LeagueFactory, TeamFactory, hire


@pytest.fixture
def seller(league, coach):
    return TeamFactory(league=league, coach=coach, name="Sellers", roster="hume")


@pytest.fixture
def buyer(league, other_coach):
    return TeamFactory(league=league, coach=other_coach, name="Buyers", roster="hume")


def test_no_transfers_between_one_coachs_own_teams(coach, commissioner):
    """R: a coach may not move gil, players or anything else between two of his own teams."""
    league = LeagueFactory(created_by=commissioner, house_rules_overrides={"coach_may_run_several_teams": True})
    first = TeamFactory(league=league, coach=coach, roster="hume")
    second = TeamFactory(league=league, coach=coach, roster="hume")
    player = hire(first, "lineman")
    with pytest.raises(RuleViolation, match="his own teams") as exc:
        transfer_propose(user=coach, player_id=player.pk, to_team_id=second.pk)
    assert exc.value.field == "to_team"
    assert not Transfer.objects.exists()


def test_transfer_needs_both_coaches_and_the_commissioner(seller, buyer, coach, other_coach, commissioner):
    """R: transfers between teams of different coaches need both coaches and the commissioner to agree."""
    player = hire(seller, "blitzer", name="Star")
    transfer = transfer_propose(user=coach, player_id=player.pk, to_team_id=buyer.pk, price=12_000)
    with pytest.raises(RuleViolation, match="not accepted"):
        transfer_approve(user=commissioner, transfer_id=transfer.pk)
    with pytest.raises(RuleViolation, match="receiving team's coach"):
        transfer_accept(user=coach, transfer_id=transfer.pk)
    transfer_accept(user=other_coach, transfer_id=transfer.pk)
    with pytest.raises(RuleViolation, match="commissioner"):
        transfer_approve(user=other_coach, transfer_id=transfer.pk)
    seller_before, buyer_before = team_treasury(team=seller), team_treasury(team=buyer)
    transfer_approve(user=commissioner, transfer_id=transfer.pk)
    player.refresh_from_db()
    assert player.team_id == buyer.pk
    assert team_treasury(team=seller) == seller_before + 12_000
    assert team_treasury(team=buyer) == buyer_before - 12_000


def test_only_the_players_coach_can_offer_him(seller, buyer, other_coach):
    player = hire(seller, "lineman")
    with pytest.raises(RuleViolation, match="player's coach"):
        transfer_propose(user=other_coach, player_id=player.pk, to_team_id=buyer.pk)


def test_buyer_who_cannot_pay_leaves_everything_unchanged(seller, buyer, coach, other_coach, commissioner):
    player = hire(seller, "lineman")
    transfer = transfer_propose(user=coach, player_id=player.pk, to_team_id=buyer.pk, price=150_000)
    transfer_accept(user=other_coach, transfer_id=transfer.pk)
    with pytest.raises(RuleViolation, match="Not enough gil"):
        transfer_approve(user=commissioner, transfer_id=transfer.pk)
    player.refresh_from_db()
    transfer.refresh_from_db()
    assert player.team_id == seller.pk
    assert transfer.status == Transfer.Status.ACCEPTED
    assert team_treasury(team=seller) == 95_000


def test_no_mixing_rosters_by_transfer(league, seller, coach, stranger):
    goblins = TeamFactory(league=league, coach=stranger, roster="goblin")
    player = hire(seller, "lineman")
    with pytest.raises(RuleViolation, match="several rosters"):
        transfer_propose(user=coach, player_id=player.pk, to_team_id=goblins.pk)


def test_either_party_can_refuse_and_a_refused_transfer_is_closed(seller, buyer, coach, other_coach, commissioner):
    player = hire(seller, "lineman")
    transfer = transfer_propose(user=coach, player_id=player.pk, to_team_id=buyer.pk)
    transfer_refuse(user=other_coach, transfer_id=transfer.pk)
    with pytest.raises(RuleViolation, match="refused"):
        transfer_accept(user=other_coach, transfer_id=transfer.pk)


def test_transfer_respects_the_receiving_teams_position_limit(seller, buyer, coach, other_coach, commissioner):
    """R: position limits apply to the team the player joins."""
    player = hire(seller, "thrower")
    hire(buyer, "thrower", name="T1")
    hire(buyer, "thrower", name="T2")
    transfer = transfer_propose(user=coach, player_id=player.pk, to_team_id=buyer.pk)
    transfer_accept(user=other_coach, transfer_id=transfer.pk)
    with pytest.raises(RuleViolation, match="at most 2 Thrower"):
        transfer_approve(user=commissioner, transfer_id=transfer.pk)


def test_transfers_through_the_api(api_as, seller, buyer, coach, other_coach, commissioner, stranger):
    player = hire(seller, "lineman")
    r = api_as(coach).post(
        "/api/v1/transfers/", {"player": player.pk, "to_team": buyer.pk, "price": 1000}, format="json"
    )
    assert r.status_code == 201, r.json()
    tid = r.json()["id"]
    assert api_as(stranger).post(f"/api/v1/transfers/{tid}/accept/").status_code == 403
    assert api_as(other_coach).post(f"/api/v1/transfers/{tid}/accept/").json()["status"] == "accepted"
    assert api_as(commissioner).post(f"/api/v1/transfers/{tid}/approve/").json()["status"] == "completed"
    assert api_as(None).post(f"/api/v1/transfers/{tid}/approve/").status_code == 401
