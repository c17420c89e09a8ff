"""The Blitz Bowl post-match sequence (rules/blitzbowl.md "Post-match sequence", "Conceding"), as steps.

Each step reads the team and the match, asks the dice and the coach, calls the pure rules in
`postmatch.py`, and returns effects and log lines through the context. Nothing here touches the database.
"""

from __future__ import annotations

from typing import Any

from campaigns.engine import (
    FanFactor,
    Gil,
    NewPlayer,
    PlayerUpdate,
    Residency,
    SponsorshipEnded,
    SponsorshipGained,
    Step,
    StepContext,
    bool_choice,
    one_of,
)
from campaigns.errors import RuleViolation
from campaigns.rulesets.base import fmt_gil

from . import postmatch


def _penalised(side) -> bool:
    """R: conceding carries its penalties unless the coach could field only 2 or fewer players."""
    return side.conceded and not side.conceded_early


# --- 1. Improvements --------------------------------------------------------------------------------------


def _improvement_check(ctx: StepContext, levels: dict[int, list[dict]]):
    def check(answer: Any) -> dict[int, list[str]]:
        if not isinstance(answer, dict):
            raise RuleViolation(
                "choices.improvements must map player ids to lists of choices.", field="choices.improvements"
            )
        chosen: dict[int, list[str]] = {}
        for player_id, rolls in levels.items():
            picks = answer.get(str(player_id), answer.get(player_id))
            if not isinstance(picks, list) or len(picks) != len(rolls):
                raise RuleViolation(
                    f"choices.improvements.{player_id} needs {len(rolls)} choice(s).",
                    field=f"choices.improvements.{player_id}",
                )
            taken: set[str] = set()
            for pick, roll in zip(picks, rolls, strict=True):
                allowed = set(roll["attributes"]) | set(roll["skills"])
                if pick not in allowed or pick in taken:
                    raise RuleViolation(
                        f"choices.improvements.{player_id}: {pick!r} is not one of the options.",
                        field=f"choices.improvements.{player_id}",
                    )
                taken.add(pick)
            chosen[player_id] = picks
        return chosen

    return check


def improvements(ctx: StepContext) -> None:
    """H: SPP by the table; each level reached gives an improvement roll (2d6) and a choice."""
    levels: dict[int, list[dict]] = {}
    players = {p.id: p for p in ctx.team.players}
    for player_id, row in sorted(ctx.match.player_rows.items()):
        player = players.get(player_id)
        if player is None or not row.get("spp"):
            continue
        before = player.spp - row["spp"]
        ctx.say(f"{player.name} earned {row['spp']} SPP ({before} → {player.spp}).")
        gained = postmatch.levels_gained(spp_before=before, spp_after=player.spp, hr=ctx.hr)
        for _ in range(gained):
            roll = postmatch.improvement_options(dice=ctx.dice.roll("improvement"), hr=ctx.hr)
            access = player.skill_access
            categories = list(access.get("normal", ()))
            if "double_skill" in roll.options:
                categories += list(access.get("double", ()))
            skills = postmatch.skill_choices(categories=categories, known=player.skills, hr=ctx.hr)
            attributes = [o for o in roll.options if o in ("ma", "av", "ag", "st")]
            levels.setdefault(player_id, []).append(
                {
                    "dice": list(ctx.dice.records[-1].values),
                    "total": roll.total,
                    "explanation": roll.explanation,
                    "attributes": attributes,
                    "skills": skills,
                    "double": roll.is_double,
                    "normal_skills": postmatch.skill_choices(
                        categories=list(access.get("normal", ())), known=player.skills, hr=ctx.hr
                    ),
                }
            )
    if not levels:
        ctx.say("No player reached a new level.")
        return
    options = {str(pid): rolls for pid, rolls in levels.items()}
    chosen = ctx.decide(
        "improvements",
        options,
        "Choose each improvement: a skill from the list, or the attribute the roll allows.",
        check=_improvement_check(ctx, levels),
    )
    for player_id, picks in chosen.items():
        player = players[player_id]
        for pick, roll in zip(picks, levels[player_id], strict=True):
            if pick in ("ma", "av", "ag", "st"):
                value = postmatch.improvement_value(choice=pick, hr=ctx.hr)
                ctx.apply(
                    PlayerUpdate(player_id, f"+1 {pick.upper()}", attribute_deltas={pick: 1}, value_delta=value),
                    f"{player.name}: {roll['explanation']} → +1 {pick.upper()} (value +{fmt_gil(value)}).",
                )
            else:
                kind = "normal_skill" if pick in roll["normal_skills"] else "double_skill"
                value = postmatch.improvement_value(choice=kind, hr=ctx.hr)
                ctx.apply(
                    PlayerUpdate(player_id, f"learned {pick}", skills_add=(pick,), value_delta=value),
                    f"{player.name}: {roll['explanation']} → {pick} (value +{fmt_gil(value)}).",
                )


# --- 2. Update team stats -----------------------------------------------------------------------------------


def team_stats(ctx: StepContext) -> None:
    """R: league points 3/1/0 for competition matches; conceding: players with ≥ 51 SPP may leave."""
    points = postmatch.league_points(outcome=ctx.match.outcome, kind=ctx.match.kind, hr=ctx.hr)
    label = {"win": "Won", "draw": "Drawn", "loss": "Lost"}[ctx.match.outcome]
    ctx.say(
        f"{label} {ctx.match.us.score}–{max(s.score for s in ctx.match.them)} ({ctx.match.kind}): "
        f"{points} league point(s)."
    )
    if _penalised(ctx.match.us):
        for player in sorted(ctx.team.players, key=lambda p: (p.number is None, p.number, p.id)):
            if (
                player.on_roster
                and player.status != "dead"
                and player.spp >= ctx.hr["conceding"]["leave_spp_threshold"]
            ):
                d6 = ctx.dice.one("concede_leave")
                if postmatch.concede_leaves(d6=d6, spp=player.spp, hr=ctx.hr):
                    ctx.apply(
                        PlayerUpdate(player.id, "left after the concession", status="retired", leaves=True),
                        f"Conceded: {player.name} ({player.spp} SPP) rolls {d6} and leaves the team.",
                    )
                else:
                    ctx.say(f"Conceded: {player.name} ({player.spp} SPP) rolls {d6} and stays.")


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
    if _penalised(us):
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
            if _penalised(them):
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
    # I: a team that owns its home stadium is not offered a residency elsewhere (it would have to sell first).
    owns_home = bool(ctx.team.home_stadium and ctx.team.home_stadium.owned_by_this_team)
    if (
        stadium
        and stadium.special_attribute
        and not stadium.home_of_other_team
        and not stadium.home_of_this_team
        and not owns_home
    ):
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
    if _penalised(us):
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
            opponent_casualties=us.casualties_inflicted,
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
            check=_ids_among("end_sponsorships", ids),
        )
        for sponsorship_id in ended:
            ctx.apply(SponsorshipEnded(sponsorship_id), f"Ended ongoing sponsorship #{sponsorship_id}.")


def _random_player_misses(ctx: StepContext, missing: set[int]) -> None:
    """R: a random player (not a Star Player) misses the next match; I: chosen by 1dN over the roster in
    shirt-number order; no further effect on a player already missing it."""
    eligible = [
        p
        for p in sorted(ctx.team.players, key=lambda p: (p.number is None, p.number or 0, p.id))
        if p.status in ("active", "journeyman", "miss_next_match")
    ]
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


def _ids_among(name: str, allowed: list[int]):
    def check(value: Any) -> list[int]:
        if not isinstance(value, list) or any(v not in allowed for v in value):
            raise RuleViolation(f"choices.{name} must be a list of ids among {allowed}.", field=f"choices.{name}")
        return sorted(set(value))

    return check


# --- 4. Hire and fire ----------------------------------------------------------------------------------------


def hire_fire(ctx: StepContext) -> None:
    """R: keeping a residency after a home loss, selling/buying a stadium, the stadium fund, dead players,
    journeymen. (Buying players, staff and re-rolls uses the team's own endpoints at any time.)"""
    match, home = ctx.match, ctx.team.home_stadium
    stadium_rules = ctx.hr["stadium"]
    resident = home is not None
    # Keeping a residency after losing at a home stadium the team does not own.
    if (
        home
        and not home.owned_by_this_team
        and match.outcome == "loss"
        and match.stadium
        and match.stadium.id == home.id
    ):
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
                check=_gil_multiple("keep_residency_spend", stadium_rules["loss"]["spend_per_point"], affordable),
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
            check=_ids_among("hire_journeymen", ids),
        )
        release = _ids_among("release_journeymen", ids)(
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


def _gil_multiple(name: str, unit: int, max_units: int):
    def check(value: Any) -> int:
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or value < 0
            or value % unit
            or value > max_units * unit
        ):
            raise RuleViolation(
                f"choices.{name} must be a multiple of {fmt_gil(unit)} up to {fmt_gil(max_units * unit)}.",
                field=f"choices.{name}",
            )
        return value

    return check


# --- 5. Prepare for next match -------------------------------------------------------------------------------


def prepare(ctx: StepContext) -> None:
    """R: expensive mistakes (≥ 10,000 gil), journeymen up to 11 players, Team Value recorded."""
    treasury = ctx.treasury
    if postmatch.expensive_mistake_needs_roll(treasury=treasury, hr=ctx.hr):
        d6 = ctx.dice.one("expensive_mistakes")
        kind = postmatch.expensive_mistake(treasury=treasury, d6=d6, hr=ctx.hr)
        d3 = ctx.dice.one("expensive_mistakes_amount", sides=3) if kind == "minor" else None
        two_d6 = sum(ctx.dice.roll("expensive_mistakes_amount", count=2, sides=6)) if kind == "catastrophe" else None
        loss = postmatch.expensive_mistake_loss(kind=kind, treasury=treasury, d3=d3, two_d6=two_d6, hr=ctx.hr)
        ctx.say(f"Expensive mistakes (treasury {fmt_gil(treasury)}, rolled {d6}): {loss.explanation}")
        if loss.amount:
            ctx.apply(Gil(-loss.amount, f"Expensive mistake ({kind})", "expensive_mistake"))
    else:
        ctx.say(f"Treasury {fmt_gil(treasury)}: below 10,000 gil, no expensive mistakes.")
    leaving = {e.player_id for e in ctx.effects if isinstance(e, PlayerUpdate) and e.leaves}
    can_field = sum(1 for p in ctx.team.players if p.can_play and p.id not in leaving)
    needed = postmatch.journeymen_needed(can_field=can_field, hr=ctx.hr)
    position = ctx.team.journeyman_position
    for n in range(needed):
        ctx.apply(
            NewPlayer(position, f"Journeyman {n + 1}", status="journeyman", skills_add=("Loner",)),
            f"Added a free journeyman ({position}, Loner) so the team can field {ctx.hr['min_fielded']} players.",
        )


STEPS = (
    Step("improvements", "Improvements", improvements, rolls=("improvement",)),
    Step("team_stats", "Update team stats", team_stats, rolls=("concede_leave",)),
    Step(
        "fortune",
        "Fortune and FAME",
        fortune,
        rolls=(
            "winnings",
            "winnings_reroll",
            "stadium_bonus",
            "residency",
            "fan_factor",
            "ongoing_amount",
            "ongoing_risk",
            "sponsorship",
            "one_time_amount",
            "one_time_risk",
            "random_player",
        ),
    ),
    Step(
        "hire_fire",
        "Hire and fire",
        hire_fire,
        rolls=("stadium_loss", "stadium_sale"),
        options=(
            ("sell_stadium", "flag", "Sell the stadium the team owns (it stays resident)", "owns_stadium"),
            ("buy_stadium", "flag", "Buy the home stadium (the Stadium Fund pays first)", "resident_tenant"),
            ("stadium_fund_payments", "count", "Payments into the Stadium Fund", "resident"),
        ),
    ),
    Step("prepare", "Prepare for next match", prepare, rolls=("expensive_mistakes", "expensive_mistakes_amount")),
)
