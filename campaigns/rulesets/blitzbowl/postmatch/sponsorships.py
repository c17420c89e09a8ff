"""Blitz Bowl sponsorships (../shared/rules/blitzbowl.md, "Post-match sequence" 3. Fortune and FAME:
Sponsorship, One-time and Ongoing Sponsorships) and the random player a sponsor's demands keep out of the next
match ("Dice and rolls")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.rulesets.base import fmt_gil

from .checks import (
    HouseRules,
    check_die,
    check_kind,
    check_non_negative,
    check_outcome,
    signed,
)
from .checks import (
    thousands as _n,
)


@dataclass(frozen=True)
class SponsorshipRoll:
    total: int
    result: str  # "ongoing", "one_time" or "none"
    explanation: str


@dataclass(frozen=True)
class Payment:
    amount: int
    player_misses_next_match: bool
    explanation: str


def sponsorship(
    *,
    d20: int,
    fan_factor: int,
    owns_stadium: bool,
    outcome: str,
    touchdown_margin: int,
    opponent_casualties: int,
    kind: str,
    hr: HouseRules,
) -> SponsorshipRoll:
    """R ("3. Fortune and FAME", Sponsorship): d20 + FF, +2 owns a stadium, +2 won, +1 scored at least 2 more
    touchdowns than the opponent, +2 opponent suffered ≥ 3 casualties, +1 more if ≥ 5, +3 play-off match,
    +2 more if the final (a final is a play-off match). ≥ 25 Ongoing; else ≥ 20 One-time; else none.
    """
    rule = hr["sponsorship"]
    check_die(d20, rule["dice"], "d20")
    check_non_negative(fan_factor=fan_factor, opponent_casualties=opponent_casualties)
    check_outcome(outcome)
    check_kind(kind, hr)
    if type(touchdown_margin) is not int:
        raise ValueError(f"touchdown_margin must be an integer, got {touchdown_margin!r}")
    mods = rule["modifiers"]
    applied: list[tuple[str, int]] = []
    if rule["add_fan_factor"]:
        applied.append(("Fan Factor", fan_factor))
    if owns_stadium:
        applied.append(("owns a stadium", mods["owns_stadium"]))
    if outcome == "win":
        applied.append(("won", mods["won"]))
    if touchdown_margin >= rule["touchdown_margin_min"]:
        applied.append((f"scored {rule['touchdown_margin_min']}+ more touchdowns", mods["touchdown_margin"]))
    if opponent_casualties >= rule["opponent_casualties_min"]:
        applied.append(
            (f"opponent suffered {rule['opponent_casualties_min']}+ casualties", mods["opponent_casualties"])
        )
    if opponent_casualties >= rule["opponent_casualties_more_min"]:
        applied.append(
            (f"opponent suffered {rule['opponent_casualties_more_min']}+ casualties", mods["opponent_casualties_more"])
        )
    if kind in ("playoff", "final"):
        applied.append(("play-off match", mods["playoff"]))
    if kind == "final":
        applied.append(("the final", mods["final"]))
    total = d20 + sum(value for _, value in applied)
    if total >= rule["ongoing_threshold"]:
        result, words = "ongoing", f"Ongoing Sponsorship ({rule['ongoing_threshold']} or more)"
    elif total >= rule["one_time_threshold"]:
        result, words = "one_time", f"One-time Sponsorship ({rule['one_time_threshold']} or more)"
    else:
        result, words = "none", f"no sponsor (below {rule['one_time_threshold']})"
    terms = "".join(f" {signed(value)} {label}" for label, value in applied)
    return SponsorshipRoll(total=total, result=result, explanation=f"Sponsorship: d20 {d20}{terms} = {total}: {words}.")


def casualties_suffered(result: Mapping[str, Any], *, team_id: int) -> int:
    """R ("3. Fortune and FAME", Sponsorship: "+2 if the other team suffered at least 3 casualties (however they
    were inflicted)"; "Injuries recorded on a result": each casualty names the player and one outcome): the
    casualties a team suffered are its players with an injury on the result — not the casualties its opponent
    inflicted, which leave out those of the crowd, a failed dodge or a team's own foul. A result without
    player rows (a forfeit) records none.
    """
    return sum(1 for row in result.get("players", ()) if row.get("team") == team_id and row.get("injury"))


def _sponsorship_payment(*, spec: Mapping[str, Any], amount_die: int, risk_die: int, what: str) -> Payment:
    check_die(amount_die, spec["amount_dice"], "amount die")
    check_die(risk_die, spec["risk_dice"], "risk die")
    amount = amount_die * spec["amount_multiplier"]
    misses = risk_die == spec["risk_misses_on"]
    risk = (
        "a random player misses the next match"
        if misses
        else f"no player misses the next match (only a {spec['risk_misses_on']} does that)"
    )
    return Payment(
        amount=amount,
        player_misses_next_match=misses,
        explanation=(
            f"{what}: {amount_die} × {_n(spec['amount_multiplier'])} = {fmt_gil(amount)}; risk roll {risk_die}: {risk}."
        ),
    )


def one_time_sponsorship(*, d6_amount: int, d6_risk: int, hr: HouseRules) -> Payment:
    """R ("3. Fortune and FAME", One-time Sponsorship): receive d6 × 6,000 gil; on a second d6 of 1 a random
    player (not a Star Player) misses the next match.
    """
    return _sponsorship_payment(
        spec=hr["sponsorship"]["one_time"], amount_die=d6_amount, risk_die=d6_risk, what="One-time Sponsorship"
    )


def ongoing_sponsorship(*, d3_amount: int, d6_risk: int, hr: HouseRules) -> Payment:
    """R/I ("3. Fortune and FAME", Ongoing Sponsorships): each pays d3 × 1,000 gil, then its own d6: on 1 a random
    player misses the next match (I: paid from the match after it was gained).
    """
    return _sponsorship_payment(
        spec=hr["sponsorship"]["ongoing"], amount_die=d3_amount, risk_die=d6_risk, what="Ongoing Sponsorship"
    )


def random_player(*, roll: int, eligible: Sequence[int]) -> int:
    """R/H ("Dice and rolls", `random_player`): 1dN picks eligible[roll − 1]; the engine orders `eligible` by
    shirt number and leaves out those who cannot be picked (e.g. Star Players).
    """
    if not eligible:
        raise ValueError("no eligible player to pick")
    if type(roll) is not int or not 1 <= roll <= len(eligible):
        raise ValueError(f"roll must be 1–{len(eligible)}, got {roll!r}")
    return eligible[roll - 1]
