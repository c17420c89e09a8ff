"""Blitz Bowl post-match step 4 (../shared/rules/blitzbowl.md, "Post-match sequence" 4. Hire and fire): keeping a
residency after a home loss, selling or buying the stadium, the Stadium Fund, the dead, journeymen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.engine import (
    Gil,
    MatchView,
    PlayerUpdate,
    Residency,
    StepContext,
    TeamView,
)
from campaigns.errors import RuleViolation
from campaigns.rulesets.base import fmt_gil

from .. import postmatch
from .common import gil_multiple, ids_among

# --- 4. Hire and fire ----------------------------------------------------------------------------------------


def hire_fire(ctx: StepContext) -> None:
    """R: keeping a residency after a home loss, selling/buying a stadium, the stadium fund, dead players,
    journeymen. (Buying players, staff and re-rolls uses the team's own endpoints at any time.)"""
    match, home = ctx.match, ctx.team.home_stadium
    stadium_rules = ctx.hr["stadium"]
    resident = home is not None
    # Keeping a residency after losing at a home stadium the team does not own.
    if residency_at_risk(ctx.team, match):
        d8 = ctx.dice.one("stadium_loss")
        spend = 0
        if d8 != stadium_rules["loss"]["natural_loss"] and d8 > ctx.team.fan_factor:
            affordable = min(d8 - ctx.team.fan_factor, ctx.treasury // stadium_rules["loss"]["spend_per_point"])
            spend = ctx.decide(
                "keep_residency_spend",
                {
                    "rolled": d8,
                    "fan_factor": ctx.team.fan_factor,
                    "per_point": stadium_rules["loss"]["spend_per_point"],
                    "max": affordable * stadium_rules["loss"]["spend_per_point"],
                },
                f"Lost at home: rolled {d8} against Fan Factor {ctx.team.fan_factor}. Spend gil "
                f"({fmt_gil(stadium_rules['loss']['spend_per_point'])} per −1) to keep the residency?",
                check=gil_multiple("keep_residency_spend", stadium_rules["loss"]["spend_per_point"], affordable),
            )
        keep = postmatch.keep_residency(
            d8=d8,
            spend_points=spend // stadium_rules["loss"]["spend_per_point"],
            fan_factor=ctx.team.fan_factor,
            hr=ctx.hr,
        )
        if keep.cost:
            ctx.apply(Gil(-keep.cost, f"Kept the residency at {home.name}", "residency"))
        ctx.say(keep.explanation)
        if not keep.kept:
            ctx.apply(Residency(None), f"{home.name} is no longer the team's home stadium.")
            resident = False
    owns = bool(home and home.owned_by_this_team)
    # Selling an owned stadium.
    if ctx.choices.get("sell_stadium") is True and not owns:
        raise RuleViolation("Only a team that owns its home stadium can sell it.", field="choices.sell_stadium")
    if owns and ctx.choices.get("sell_stadium") is True:
        d6 = ctx.dice.one("stadium_sale")
        two_d6 = (
            sum(ctx.dice.roll("stadium_sale", count=2))
            if postmatch.stadium_sale_needs_amount_roll(d6=d6, hr=ctx.hr)
            else None
        )
        sale = postmatch.stadium_sale(d6=d6, two_d6=two_d6, hr=ctx.hr)
        ctx.apply(Gil(sale.amount, f"Sold {home.name}", "stadium_sale"), sale.explanation)
        ctx.apply(Residency(home.id, owned=False), f"The team stays resident at {home.name} but no longer owns it.")
        owns = False
    # The stadium fund, then buying.
    payments = ctx.choices.get("stadium_fund_payments", 0)
    if payments:
        if not isinstance(payments, int) or isinstance(payments, bool) or payments < 0 or not resident or owns:
            raise RuleViolation(
                "choices.stadium_fund_payments must be a number of payments, by a resident team that does not "
                "own its stadium.",
                field="choices.stadium_fund_payments",
            )
        fund = stadium_rules["buy"]
        for _ in range(payments):
            ctx.apply(Gil(-fund["fund_payment"], "Stadium Fund payment", "stadium_fund"))
            ctx.apply(Gil(fund["fund_credit"], "Stadium Fund payment", "stadium_fund", account="stadium_fund"))
        ctx.say(
            f"Paid {payments} × {fmt_gil(fund['fund_payment'])} into the Stadium Fund "
            f"(+{fmt_gil(payments * fund['fund_credit'])} in the fund)."
        )
    if ctx.choices.get("buy_stadium") is True:
        if not resident or owns:
            raise RuleViolation(
                "Only a resident team that does not own its home stadium can buy it.", field="choices.buy_stadium"
            )
        price = stadium_rules["buy"]["price"]
        fund_balance = ctx.team.stadium_fund + sum(
            e.amount for e in ctx.effects if isinstance(e, Gil) and e.account == "stadium_fund"
        )
        from_fund = min(fund_balance, price)
        if from_fund:
            ctx.apply(Gil(-from_fund, f"Bought {home.name}", "stadium_purchase", account="stadium_fund"))
        if price - from_fund:
            ctx.apply(Gil(-(price - from_fund), f"Bought {home.name}", "stadium_purchase"))
        ctx.apply(
            Residency(home.id, owned=True),
            f"Bought {home.name} for {fmt_gil(price)} ({fmt_gil(from_fund)} from the Stadium Fund).",
        )
    # Dead players leave for the memorial.
    for player in ctx.team.players:
        if player.status == "dead":
            ctx.apply(PlayerUpdate(player.id, "removed: dead", leaves=True), f"{player.name} is dead: to the memorial.")
    # Journeymen: hire permanently or release.
    journeymen = [p for p in ctx.team.players if p.status == "journeyman"]
    if journeymen:
        ids = [p.id for p in journeymen]
        hire = ctx.decide(
            "hire_journeymen",
            ids,
            "Hire journeymen permanently (ids; the rest are released).",
            check=ids_among("hire_journeymen", ids),
        )
        release = ids_among("release_journeymen", ids)(
            ctx.choices.get("release_journeymen", [j for j in ids if j not in hire])
        )
        roster = sum(1 for p in ctx.team.players if p.on_roster and p.status != "dead" and p.status != "journeyman")
        for player in journeymen:
            if player.id in hire and player.id not in release:
                if roster >= ctx.hr["journeyman"]["hire_requires_roster_below"]:
                    raise RuleViolation(
                        "Journeymen can be hired only while the roster has fewer than 16 players.",
                        field="choices.hire_journeymen",
                    )
                roster += 1
                cost = ctx.team.journeyman_cost
                ctx.apply(Gil(-cost, f"Hired journeyman {player.name}", "hire"))
                ctx.apply(
                    PlayerUpdate(player.id, "hired permanently", status="active", skills_remove=("Loner",)),
                    f"Hired journeyman {player.name} for {fmt_gil(cost)}: he loses Loner, keeps his SPP.",
                )
            else:
                ctx.apply(
                    PlayerUpdate(player.id, "journeyman released", status="retired", leaves=True),
                    f"Released journeyman {player.name}.",
                )


def residency_at_risk(team: TeamView, match: MatchView) -> bool:
    """R ("Keeping a residency"): a team that lost at its home stadium which it does not own rolls `stadium_loss`."""
    home = team.home_stadium
    return bool(
        home
        and not home.owned_by_this_team
        and match.outcome == "loss"
        and match.stadium
        and match.stadium.id == home.id
    )


def hire_fire_usable(team: TeamView, match: MatchView, hr: Mapping[str, Any]) -> tuple[str, ...]:
    """R ("4. Hire and fire"): `stadium_loss` only after a loss at a home stadium the team does not own;
    `stadium_sale` (the d6 and the 2d6 amount) only for a team that owns its home stadium and may sell it."""
    keys = []
    if residency_at_risk(team, match):
        keys.append("stadium_loss")
    if team.home_stadium and team.home_stadium.owned_by_this_team:
        keys.append("stadium_sale")
    return tuple(keys)
