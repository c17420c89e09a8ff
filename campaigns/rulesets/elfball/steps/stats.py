"""ElfBall post-match step 4 (../shared/rules/elfball.md "Matches", "Team building"; H league points): the result in
league points, the team's value against its budget, potions and roster size."""

from __future__ import annotations

from collections.abc import Mapping

from campaigns.engine import StepContext

from .. import postmatch as pm
from .common import plural, team_points

# --- 4. Team stats ---------------------------------------------------------------------------------------------


def team_stats(ctx: StepContext) -> None:
    """H: league points win 3, tie 1, loss 0. R: the team's value may never exceed 150; a team needs at least 6
    players (Basic rules: exactly 10). Tells the team's points, potions and roster."""
    hr, match = ctx.hr, ctx.match
    points = pm.league_points(outcome=match.outcome, kind=match.kind, hr=hr)
    label = {"win": "Won", "draw": "Tied", "loss": "Lost"}[match.outcome]
    them = max((s.score for s in match.them), default=0)
    how = ""
    if match.us.conceded:
        how = ", conceded"
    elif any(s.conceded for s in match.them):
        how = ", the opponent conceded"
    elif any(t.get("no_face_off") for t in match.result.get("teams", []) if isinstance(t, Mapping)):
        how = ", no face-off player"
    ctx.say(f"{label} {match.us.score}–{them} ({match.kind}{how}): {plural(points, 'league point')}.")
    value = team_points(ctx.team, hr)
    budget = hr["points_budget"]
    if value > budget:
        ctx.say(f"Team value: {value} points, over the {budget}-point budget: cut something or someone.")
    else:
        ctx.say(f"Team value: {value} of {budget} points ({budget - value} to spare).")
    potions = ctx.team.staff.get("magic_potion", 0)
    ctx.say(f"Magic Potions left: {potions} of {hr['support']['magic_potion']['max']}.")
    on_roster = sum(1 for p in ctx.team.players if p.status in pm.ON_ROSTER)
    ctx.say(f"Players on the roster: {on_roster}.")
    if on_roster < hr["min_players"]:
        ctx.say(
            f"Warning: only {plural(on_roster, 'player')}, fewer than {hr['min_players']}: hire before the next match."
        )
    elif hr["basic_mode"] and on_roster != hr["basic_roster_size"]:
        ctx.say(
            f"Warning: Basic-rules teams are exactly {hr['basic_roster_size']} players: hire before the next match."
        )
