"""Blitz Bowl post-match step 5 (../shared/rules/blitzbowl.md, "Post-match sequence" 5. Prepare for next match):
expensive mistakes and the free journeymen a short team adds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.engine import (
    Gil,
    MatchView,
    NewPlayer,
    PlayerUpdate,
    StepContext,
    TeamView,
)
from campaigns.rulesets.base import fmt_gil

from .. import postmatch

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


def prepare_usable(team: TeamView, match: MatchView, hr: Mapping[str, Any]) -> tuple[str, ...]:
    """R/H ("5. Prepare for next match", Expensive mistakes): `expensive_mistakes` only with 10,000 gil or more in
    the treasury; `expensive_mistakes_amount` only when the treasury's bracket can give a minor mistake (d3) or a
    catastrophe (2d6)."""
    kinds = postmatch.expensive_mistake_kinds(treasury=max(team.treasury, 0), hr=hr)
    keys = ["expensive_mistakes"] if kinds else []
    if kinds & {"minor", "catastrophe"}:
        keys.append("expensive_mistakes_amount")
    return tuple(keys)
