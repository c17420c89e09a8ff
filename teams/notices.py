"""What the teams' events tell whom (contract v1.2 "Notifications"): a transfer offer tells the coach of the team
it is made to. Called by teams/transfers.py inside the offer's transaction; the commissioner's approval, when the
buyer has accepted, is what waits for him in his actions, not a notification of the offer."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse
from django.utils.translation import gettext_noop

from campaigns.rulesets.base import fmt_gil
from notifications.texts import line, who
from notifications.writer import notify

from .models import Transfer


def transfer_offer(transfer: Transfer, *, actor: AbstractBaseUser) -> None:
    """`transfer` was just proposed (its player, both teams and the league held): the buying team's coach is told,
    with a link to the player's page."""
    seller, buyer, player = transfer.from_team, transfer.to_team, transfer.player
    params = {"league": seller.league.name, "actor": who(actor), "player": player.name}
    params |= {"seller": seller.name, "buyer": buyer.name, "price": fmt_gil(transfer.price)}
    if transfer.price:
        message = gettext_noop(
            "%(league)s: %(actor)s offers %(player)s of %(seller)s to your %(buyer)s for %(price)s: accept or refuse."
        )
    else:
        message = gettext_noop(
            "%(league)s: %(actor)s offers %(player)s of %(seller)s to your %(buyer)s for nothing: accept or refuse."
        )
    notify(
        "transfer_offer",
        recipients=[buyer.coach_id],
        actor=actor,
        text=line(message, **params),
        url=reverse("player-detail", args=[player.pk]),
        league=seller.league,
        team=buyer,
    )
