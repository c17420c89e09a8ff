"""Blitz Bowl team stats and conceding (../shared/rules/blitzbowl.md, "League", "Post-match sequence"
2. Update team stats, "Conceding"): league points, and who may leave a team that conceded."""

from __future__ import annotations

from .checks import (
    HouseRules,
    check_die,
    check_kind,
    check_non_negative,
    check_outcome,
)

# --- 2. Update team stats --------------------------------------------------------------------------------


def league_points(*, outcome: str, kind: str, hr: HouseRules) -> int:
    """R ("League", "2. Update team stats"): competition matches give win 3, draw 1, loss 0 league points
    (H: configurable); H: friendlies give none unless `friendlies_give_points`.
    """
    check_outcome(outcome)
    check_kind(kind, hr)
    if kind == "friendly" and not hr["friendlies_give_points"]:
        return 0
    return hr["league_points"][outcome]


# --- Conceding -------------------------------------------------------------------------------------------


def concede_leave_needs_roll(*, spp: int, hr: HouseRules) -> bool:
    """R ("Conceding"): every player of the conceding team with 51 SPP or more rolls `concede_leave`."""
    check_non_negative(spp=spp)
    return spp >= hr["conceding"]["leave_spp_threshold"]


def concede_leaves(*, d6: int, spp: int, hr: HouseRules) -> bool:
    """R ("Conceding"): a conceding team's player with 51 SPP or more leaves the team on a d6 of 1–3."""
    rule = hr["conceding"]
    check_die(d6, rule["leave_dice"], "d6")
    return concede_leave_needs_roll(spp=spp, hr=hr) and d6 <= rule["leave_on_max"]
