"""Blitz Bowl post-match step 3 (../shared/rules/blitzbowl.md, "Post-match sequence" 3. Fortune and FAME;
"Conceding"): winnings and the winner's re-roll, a residency deal, Fan Factor, ongoing and new sponsorships."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.engine import (
    FanFactor,
    Gil,
    MatchView,
    PlayerUpdate,
    Residency,
    SponsorshipEnded,
    SponsorshipGained,
    StepContext,
    TeamView,
    bool_choice,
    one_of,
)
from campaigns.rulesets.base import fmt_gil

from .. import postmatch
from .common import ids_among, penalised

# --- 3. Fortune and FAME -------------------------------------------------------------------------------------


def _winnings_for(ctx: StepContext, side, *, outcome: str, owned: bool, reroll_allowed: bool) -> int:
    d6 = ctx.dice.one("winnings")
    if reroll_allowed:
        again = ctx.decide(
            "reroll_winnings",
            {"rolled": d6},
            f"Winnings roll: {d6}. Re-roll it? (You must keep the second result.)",
            check=bool_choice("reroll_winnings"),
        )
        if again:
            second = ctx.dice.one("winnings_reroll")
            ctx.say(f"Re-rolled the winnings die: {d6} → {second} (the second result stands).")
            d6 = second
    # The owned-stadium modifier applies to a win or a loss only (a draw rolls no d3).
    d3 = ctx.dice.one("stadium_bonus") if owned and outcome in ("win", "loss") else None
    result = postmatch.winnings(d6=d6, fame=side.fame, outcome=outcome, at_owned_stadium=owned, d3=d3, hr=ctx.hr)
    ctx.say(result.explanation)
    return result.amount


def fortune(ctx: StepContext) -> None:
    """R: Fortune and FAME — winnings, residency, fan factor, ongoing sponsorships, seeking a sponsor."""
    us, match = ctx.match.us, ctx.match
    stadium = match.stadium
    # Winnings.
    winnings = 0
    if penalised(us):
        ctx.say("Conceded: no winnings (they go to the opponent).")
    else:
        owned = bool(stadium and stadium.owned_by_this_team)
        winnings = _winnings_for(
            ctx,
            us,
            outcome=match.outcome,
            owned=owned,
            reroll_allowed=match.outcome == "win" and ctx.hr["winnings"]["winner_may_reroll"],
        )
        for them in match.them:
            if penalised(them):
                owned_by_them = bool(stadium and stadium.owned_by_other_team)
                ctx.say("The opponent conceded: its winnings are ours.")
                winnings += _winnings_for(ctx, them, outcome="loss", owned=owned_by_them, reroll_allowed=False)
    if winnings:
        ctx.apply(
            Gil(winnings, f"Winnings, match #{match.id}", "winnings"),
            f"Winnings paid into the treasury: +{fmt_gil(winnings)}." if len(ctx.log) > 1 else None,
        )
    ctx.carry["winnings"] = winnings

    # Residency.
    if residency_offered(ctx.team, match):
        choice = ctx.decide(
            "residency",
            ["attempt", "accept_cost", "reject"],
            f"{stadium.name} ({stadium.special_attribute}) could become your home stadium. Attempt a residency deal?",
            check=one_of("residency", ["attempt", "accept_cost", "reject"]),
        )
        if choice != "reject" or ctx.dice.has_prior("residency"):
            deal = postmatch.residency(
                d6=ctx.dice.one("residency"),
                outcome=match.outcome,
                has_ongoing_sponsorship=bool(ctx.team.ongoing_sponsorships),
                fan_factor=ctx.team.fan_factor,
                hr=ctx.hr,
            )
            ctx.say(deal.explanation)
            if deal.result == "unconditional":
                ctx.apply(Residency(stadium.id), f"{stadium.name} is now the team's home stadium.")
            elif deal.result == "costly":
                if choice == "attempt":
                    ctx.ask(
                        "residency",
                        ["accept_cost", "reject"],
                        f"It'll cost you: all of this match's winnings ({fmt_gil(winnings)}). Accept?",
                    )
                if choice == "accept_cost":
                    if winnings:
                        ctx.apply(Gil(-winnings, f"Residency at {stadium.name}: this match's winnings", "residency"))
                    ctx.apply(
                        Residency(stadium.id),
                        f"Paid this match's winnings ({fmt_gil(winnings)}): {stadium.name} is home.",
                    )
                else:
                    ctx.say("Declined the costly residency.")
    # Fan Factor.
    if penalised(us):
        change = postmatch.fan_factor_change(
            dice=(), outcome=match.outcome, fan_factor=ctx.team.fan_factor, conceded=True, hr=ctx.hr
        )
    else:
        expression = postmatch.fan_factor_dice(outcome=match.outcome, hr=ctx.hr)
        count = int(expression.split("d")[0])
        change = postmatch.fan_factor_change(
            dice=ctx.dice.roll("fan_factor", count=count),
            outcome=match.outcome,
            fan_factor=ctx.team.fan_factor,
            conceded=False,
            hr=ctx.hr,
        )
    ctx.apply(FanFactor(change.delta, change.explanation), change.explanation) if change.delta else ctx.say(
        change.explanation
    )
    fan_factor = ctx.team.fan_factor + change.delta
    # Ongoing sponsorships pay (I: from the match after they were gained).
    missing: set[int] = set()
    for sponsorship_id, name in ctx.team.ongoing_sponsorships:
        payment = postmatch.ongoing_sponsorship(
            d3_amount=ctx.dice.one("ongoing_amount"), d6_risk=ctx.dice.one("ongoing_risk"), hr=ctx.hr
        )
        ctx.apply(
            Gil(payment.amount, f"Ongoing sponsorship {name or sponsorship_id}", "sponsorship"), payment.explanation
        )
        if payment.player_misses_next_match:
            _random_player_misses(ctx, missing)
    # Seeking a sponsor.
    if ctx.decide("seek_sponsor", [True, False], "Seek a sponsor?", check=bool_choice("seek_sponsor")):
        them = match.them[0]
        roll = postmatch.sponsorship(
            d20=ctx.dice.one("sponsorship"),
            fan_factor=fan_factor,
            owns_stadium=bool(ctx.team.home_stadium and ctx.team.home_stadium.owned_by_this_team),
            outcome=match.outcome,
            touchdown_margin=us.score - them.score,
            opponent_casualties=postmatch.casualties_suffered(match.result, team_id=them.team_id),
            kind=match.kind,
            hr=ctx.hr,
        )
        ctx.say(roll.explanation)
        if roll.result == "ongoing":
            ctx.apply(SponsorshipGained(f"Sponsor of match #{match.id}"), "Gained an Ongoing Sponsorship.")
        elif roll.result == "one_time":
            payment = postmatch.one_time_sponsorship(
                d6_amount=ctx.dice.one("one_time_amount"), d6_risk=ctx.dice.one("one_time_risk"), hr=ctx.hr
            )
            ctx.apply(Gil(payment.amount, "One-time sponsorship", "sponsorship"), payment.explanation)
            if payment.player_misses_next_match:
                _random_player_misses(ctx, missing)
    # Ending ongoing sponsorships (R: after rolling, the coach may end any).
    if ctx.team.ongoing_sponsorships:
        ids = [sid for sid, _ in ctx.team.ongoing_sponsorships]
        ended = ctx.decide(
            "end_sponsorships",
            ids,
            "End any Ongoing Sponsorships? (a list of ids, [] for none)",
            check=ids_among("end_sponsorships", ids),
        )
        for sponsorship_id in ended:
            ctx.apply(SponsorshipEnded(sponsorship_id), f"Ended ongoing sponsorship #{sponsorship_id}.")


def _random_player_misses(ctx: StepContext, missing: set[int]) -> None:
    """R: a random player (not a Star Player) misses the next match; I: chosen by 1dN over the roster in
    shirt-number order; no further effect on a player already missing it."""
    eligible = random_player_pool(ctx.team)
    if not eligible:
        return
    roll = ctx.dice.one("random_player", sides=len(eligible))
    chosen = next(p for p in eligible if p.id == postmatch.random_player(roll=roll, eligible=[p.id for p in eligible]))
    if chosen.status == "miss_next_match" or chosen.id in missing:
        ctx.say(f"Random player (1d{len(eligible)} = {roll}): {chosen.name}, already missing the next match.")
        return
    missing.add(chosen.id)
    ctx.apply(
        PlayerUpdate(chosen.id, "misses the next match (sponsor's demands)", status="miss_next_match"),
        f"Random player (1d{len(eligible)} = {roll}): {chosen.name} misses the next match.",
    )


def residency_offered(team: TeamView, match: MatchView) -> bool:
    """R ("Residency"): a deal is offered only at a stadium with a special attribute that is nobody's home
    stadium yet. I: a team that owns its home stadium is not offered a residency elsewhere (it would have to sell
    first)."""
    stadium = match.stadium
    owns_home = bool(team.home_stadium and team.home_stadium.owned_by_this_team)
    return bool(
        stadium
        and stadium.special_attribute
        and not stadium.home_of_other_team
        and not stadium.home_of_this_team
        and not owns_home
    )


def random_player_pool(team: TeamView) -> list:
    """R: the players a sponsor's demands can keep out of the next match (not Star Players); I: in shirt-number
    order, a player already missing it included (the roll then has no further effect)."""
    return [
        p
        for p in sorted(team.players, key=lambda p: (p.number is None, p.number or 0, p.id))
        if p.status in ("active", "journeyman", "miss_next_match")
    ]


def fortune_usable(team: TeamView, match: MatchView, hr: Mapping[str, Any]) -> tuple[str, ...]:
    """The dice Fortune and FAME can roll for this team after this match (rules "3. Fortune and FAME",
    "Conceding"):

    - R: a team that conceded (with the penalties) rolls no winnings and no Fan Factor (it loses 1 FF without
      rolling); otherwise `winnings` and `fan_factor`;
    - R: only the winner may re-roll its winnings (`winnings_reroll`, when the league allows it);
    - R: `stadium_bonus` only at a stadium the team owns after a win or a loss (a draw rolls no d3) — or at the
      opponent's owned stadium when the opponent conceded and its winnings are rolled for this team;
    - R: `residency` only where a residency deal is offered (`residency_offered`);
    - I: `ongoing_amount` / `ongoing_risk` only with an Ongoing Sponsorship to pay;
    - R: a coach may always seek a sponsor: `sponsorship`, and the One-time dice it may lead to;
    - `random_player` only when there is a player a sponsor's risk roll could pick.
    """
    us, stadium = match.us, match.stadium
    keys = {"sponsorship", "one_time_amount", "one_time_risk"}
    if not penalised(us):
        keys |= {"winnings", "fan_factor"}
        if match.outcome == "win" and hr["winnings"]["winner_may_reroll"]:
            keys.add("winnings_reroll")
        if stadium and stadium.owned_by_this_team and match.outcome in ("win", "loss"):
            keys.add("stadium_bonus")
        if stadium and stadium.owned_by_other_team and any(penalised(them) for them in match.them):
            keys.add("stadium_bonus")
    if residency_offered(team, match):
        keys.add("residency")
    if team.ongoing_sponsorships:
        keys |= {"ongoing_amount", "ongoing_risk"}
    if random_player_pool(team):
        keys.add("random_player")
    return tuple(keys)
