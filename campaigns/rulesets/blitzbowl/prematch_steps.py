"""The Blitz Bowl pre-match sequence (rules/blitzbowl.md "Pre-match sequence") as steps: weather, fans and
FAME, then each side's shopping turn for inducements — the higher Team Value first, then the underdog."""

from __future__ import annotations

from campaigns.errors import RuleViolation
from campaigns.prematch import PrematchContext, PrematchStep
from campaigns.rulesets.base import fmt_gil

from . import prematch as pre


def weather(ctx: PrematchContext) -> None:
    """H: the league's 2d6 weather table."""
    dice = ctx.dice(None).roll("weather")
    key = pre.weather(sum(dice), ctx.hr)
    ctx.updates["weather"] = key
    ctx.say(f"Weather: {dice[0]} + {dice[1]} = {sum(dice)}: {pre.weather_words(key)}.")


def fans(ctx: PrematchContext) -> None:
    """H: fans = (2d6 + Fan Factor) × 1,000 per team, the gate both together, FAME 0/1/2 against the other's
    fans. Then the inducement gil (R): the TV difference to the underdog, +5,000 to a team playing at the
    other's home stadium — Team Values as they stand now, players missing this match left out."""
    hr = ctx.hr
    fans_by_team = {}
    for team in ctx.teams:
        dice = ctx.dice(team.id).roll("fans")
        fans_by_team[team.id] = pre.fans(dice, team.fan_factor, hr)
        ctx.say(f"{team.name}: {dice[0]} + {dice[1]} + Fan Factor {team.fan_factor} → {fans_by_team[team.id]:,} fans.")
    first, second = ctx.teams
    fame = {
        first.id: pre.fame(fans_by_team[first.id], fans_by_team[second.id], hr),
        second.id: pre.fame(fans_by_team[second.id], fans_by_team[first.id], hr),
    }
    ctx.say(
        f"Gate: {pre.gate(fans_by_team):,} fans. FAME: {first.name} {fame[first.id]}, {second.name} {fame[second.id]}."
    )
    tv = {team.id: team.team_value or 0 for team in ctx.teams}
    home = next(team.id for team in ctx.teams if team.home)
    superior, underdog = pre.superior_and_underdog(tv=tv, home=home)
    stadium_home_of = next((team.id for team in ctx.teams if team.at_home_stadium), None)
    induced = pre.inducement_budgets(tv=tv, home=home, stadium_home_of=stadium_home_of, hr=hr)
    level = " (level: the home team counts as the higher)" if tv[superior] == tv[underdog] else ""
    ctx.say(
        f"Team Values: {ctx.team(superior).name} {fmt_gil(tv[superior])}, {ctx.team(underdog).name} "
        f"{fmt_gil(tv[underdog])}{level}. {ctx.team(superior).name} shops first, with its treasury."
    )
    for team in ctx.teams:
        if induced.get(team.id):
            ctx.say(f"{team.name} receives {fmt_gil(induced[team.id])} of inducement gil.")
    ctx.updates.update(
        fans={str(k): v for k, v in fans_by_team.items()},
        fame={str(k): v for k, v in fame.items()},
        team_values={str(k): v for k, v in tv.items()},
        induced={str(team.id): induced.get(team.id, 0) for team in ctx.teams},
        superior=superior,
        underdog=underdog,
    )


def close_shopping(ctx: PrematchContext) -> None:
    """R: a team's shopping ends when its coach says so (`{"done": true}`); the engine then posts its
    treasury-funded purchases to the ledger. Unspent inducement gil is lost."""
    if ctx.choices.get("done") is not True:
        raise RuleViolation(
            'Send {"choices": {"done": true}} to close this team\'s shopping for inducements.', field="choices.done"
        )


STEPS = (
    PrematchStep("weather", "Weather", weather, rolls=("weather",)),
    PrematchStep("fans", "Fans and FAME", fans, rolls=("fans",), per_team=True),
    PrematchStep("inducements_superior", "Inducements: the higher Team Value", close_shopping, turn="superior"),
    PrematchStep("inducements_underdog", "Inducements: the underdog", close_shopping, turn="underdog"),
)
