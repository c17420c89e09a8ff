"""Bone Cruncher's pre-game (rules/bonecruncher.md "Pre-game"), recorded: the Aggressor and the terrain."""

from __future__ import annotations

from campaigns.prematch import PrematchContext, PrematchStep

from . import pregame


def aggressor(ctx: PrematchContext) -> None:
    """R: 2d6 each, the higher starts with the ball (with the Captain) and deploys first; ties re-roll."""
    winner, rounds = pregame.aggressor(lambda team_id: ctx.dice(team_id).roll("aggressor"), [t.id for t in ctx.teams])
    for number, totals in enumerate(rounds, start=1):
        rolled = ", ".join(f"{ctx.team(team_id).name} {total}" for team_id, total in totals.items())
        ctx.say(f"{'Aggressor roll' if number == 1 else 'Re-roll of the tie'}: {rolled}.")
    ctx.say(f"{ctx.team(winner).name} is the Aggressor: it starts with the ball and deploys first.")
    ctx.updates["aggressor"] = winner


def terrain(ctx: PrematchContext) -> None:
    """R: each coach rolls 2d6 for his terrain pieces; 2 allows a Death trap, 12 two Delay traps, otherwise at
    most one Delay trap."""
    settled = {}
    for team in ctx.teams:
        dice = ctx.dice(team.id).roll("terrain")
        result = pregame.terrain(sum(dice), ctx.hr)
        settled[str(team.id)] = {**result, "dice": list(dice)}
        ctx.say(f"{team.name} rolls {dice[0]} + {dice[1]}. {pregame.terrain_words(result)}")
    ctx.updates["terrain"] = settled


STEPS = (
    PrematchStep("aggressor", "The Aggressor", aggressor, rolls=("aggressor",), per_team=True),
    PrematchStep("terrain", "Terrain", terrain, rolls=("terrain",), per_team=True),
)
