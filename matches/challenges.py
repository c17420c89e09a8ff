"""The Challenge roller (rules/elfball.md "The Challenge roller"): a table without dice rolls through the
service, or enters its own dice to have them scored — logged like every other roll."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from campaigns.dice import RollRecord, server_roll
from campaigns.errors import NotPermitted, RuleViolation
from league.models import League

from . import policy
from .models import Match, Roll
from .rolls import record_rolls


def challenge_roll(
    *,
    user: AbstractBaseUser,
    league: League,
    dice_count: int,
    threshold: int,
    values: list[int] | None = None,
    match_id: int | None = None,
) -> tuple[Roll, Any]:
    """Roll a Challenge of `dice_count` dice against `threshold` (or score the dice entered), and log it."""
    if not policy.may_roll_challenge(user, league):
        raise NotPermitted("Only the league's coaches and commissioners can roll Challenges in it.")
    match = None
    if match_id is not None:
        match = Match.objects.filter(pk=match_id, league=league).first()
        if match is None:
            raise RuleViolation("The match must be one of this league's.", field="match")
    dice, result = league.rules.challenge(
        dice_count=dice_count, threshold=threshold, values=values, roller=server_roll, hr=league.house_rules
    )
    (roll,) = record_rolls(
        league=league,
        match=match,
        step="challenge",
        records=[RollRecord("challenge", f"{len(dice)}d6", tuple(dice), values is not None)],
        rolled_by=user,
    )
    return roll, result


def recent_challenges(*, league: League, limit: int = 20) -> list[Roll]:
    return list(league.rolls.filter(key="challenge").select_related("rolled_by").order_by("-id")[:limit])
