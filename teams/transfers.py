"""Transfers between teams (../shared/rules/blitzbowl.md, "Teams, treasury and value").

R: a coach may not move gil, players or anything else between two of his own teams. Transfers between
teams of different coaches need both coaches and the commissioner to agree: the selling coach proposes,
the buying coach accepts, the commissioner approves — and only then do the player and the gil move.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns.errors import NotPermitted, RuleViolation
from campaigns.rulesets.base import fmt_gil

from . import notices, policy
from .models import Player, Team, Transfer
from .selectors import team_state
from .services import ledger_post, team_locked


def transfer_propose(*, user: AbstractBaseUser, player_id: int, to_team_id: int, price: int = 0) -> Transfer:
    """The selling coach offers one of his players to another coach's team of the league, at `price`; the buying
    team's coach is told."""
    player = Player.objects.select_related("team", "team__league").filter(pk=player_id, left_at__isnull=True).first()
    if player is None:
        raise RuleViolation("No such player on a roster.", field="player")
    seller = player.team
    if not policy.may_offer_player(user, seller):
        raise NotPermitted("Only the player's coach can offer him to another team.", field="player")
    buyer = Team.objects.filter(pk=to_team_id).first()
    if buyer is None or buyer.league_id != seller.league_id:
        raise RuleViolation("The receiving team must be another team of the same league.", field="to_team")
    if buyer.coach_id is None:
        raise RuleViolation(f"{buyer.name} has no coach to accept a transfer until it is reassigned.", field="to_team")
    if buyer.coach_id == seller.coach_id:
        raise RuleViolation("A coach may not move players between his own teams.", field="to_team")
    if buyer.roster_id != seller.roster_id:
        raise RuleViolation(
            "Players may not be mixed from several rosters: the teams play different rosters.", field="to_team"
        )
    if price and seller.league.rules.economy != "gil":
        raise RuleViolation(f"{seller.league.rules.name} teams have no gil to pay a price with.", field="price")
    if Transfer.objects.filter(player=player, status__in=[Transfer.Status.PROPOSED, Transfer.Status.ACCEPTED]).exists():
        raise RuleViolation("This player is already offered in an open transfer.", field="player")
    with transaction.atomic():  # the offer and its notification, together or not at all
        transfer = Transfer.objects.create(
            player=player, from_team=seller, to_team=buyer, price=price, proposed_by=user
        )
        notices.transfer_offer(transfer, actor=user)
    return transfer


def _open_transfer(transfer_id: int, *statuses: str) -> Transfer:
    transfer = (
        Transfer.objects.select_for_update(of=("self",))
        .select_related("from_team", "to_team")
        .filter(pk=transfer_id)
        .first()
    )
    if transfer is None:
        raise RuleViolation("No such transfer.")
    if transfer.status not in statuses:
        raise RuleViolation(f"This transfer is {transfer.get_status_display().lower()}; nothing to do.")
    return transfer


def transfer_accept(*, user: AbstractBaseUser, transfer_id: int) -> Transfer:
    """The buying coach agrees."""
    with transaction.atomic():
        transfer = _open_transfer(transfer_id, Transfer.Status.PROPOSED)
        if not policy.may_accept_transfer(user, transfer):
            raise NotPermitted("Only the receiving team's coach can accept this transfer.")
        transfer.status = Transfer.Status.ACCEPTED
        transfer.save(update_fields=["status"])
    return transfer


def transfer_refuse(*, user: AbstractBaseUser, transfer_id: int) -> Transfer:
    """Any of the three parties may say no while the transfer is open."""
    with transaction.atomic():
        transfer = _open_transfer(transfer_id, Transfer.Status.PROPOSED, Transfer.Status.ACCEPTED)
        if not policy.may_refuse_transfer(user, transfer):
            raise NotPermitted("Only the two coaches or the commissioner can refuse this transfer.")
        transfer.status = Transfer.Status.REFUSED
        transfer.decided_at = timezone.now()
        transfer.save(update_fields=["status", "decided_at"])
    return transfer


def transfer_approve(*, user: AbstractBaseUser, transfer_id: int) -> Transfer:
    """The commissioner agrees last; the player and the price move in the same transaction."""
    with transaction.atomic():
        transfer = _open_transfer(transfer_id, Transfer.Status.ACCEPTED, Transfer.Status.PROPOSED)
        if not policy.may_approve_transfer(user, transfer):
            raise NotPermitted("Only the commissioner can approve a transfer.")
        if transfer.status != Transfer.Status.ACCEPTED:
            raise RuleViolation("The receiving team's coach has not accepted this transfer yet.")
        # Lock both teams in id order, so two transfers between the same pair cannot deadlock.
        first, second = sorted([transfer.from_team_id, transfer.to_team_id])
        with team_locked(team_id=first) as a, team_locked(team_id=second) as b:
            seller, buyer = (a, b) if a.pk == transfer.from_team_id else (b, a)
            player = next((p for p in seller.players.all() if p.pk == transfer.player_id and p.left_at is None), None)
            if player is None:
                raise RuleViolation("The player is no longer on the selling team.")
            league = buyer.league
            # The seller loses the player as if he were cut (R ElfBall: never below 6 players).
            seller_state = team_state(team=seller)
            leaving = next(p for p in seller_state.players if p.id == player.pk)
            league.rules.check_fire(seller_state, leaving, league.house_rules)
            league.rules.check_join(
                team_state(team=buyer), player.position.spec(), league.house_rules, value=player.value
            )
            if transfer.price:
                what = f"Transfer of {player.name}"
                ledger_post(
                    team=buyer, amount=-transfer.price, kind="transfer", reason=f"{what} from {seller.name}", user=user
                )
                ledger_post(
                    team=seller,
                    amount=transfer.price,
                    kind="transfer",
                    reason=f"{what} to {buyer.name} for {fmt_gil(transfer.price)}",
                    user=user,
                )
            player.team = buyer
            player.role = ""
            player.number = None
            player.save(update_fields=["team", "role", "number"])
        transfer.status = Transfer.Status.COMPLETED
        transfer.decided_at = timezone.now()
        transfer.save(update_fields=["status", "decided_at"])
    return transfer
