"""The pre-match workflow's pure half: steps over the whole match (not one team), with dice per team.

A ruleset declares its `prematch_steps`. A step reads a `PrematchContext` — the teams as they stand before
the match, what earlier steps settled (`state`), the house rules, the dice (per team, or the match's own
for a roll like the weather) and the coaches' choices — and writes what it settles into `ctx.updates` with
log lines. A shopping step (`turn` set) is a team's turn to buy inducements: the engine lets only that team
buy while it is current, and posts the treasury-funded part of its shopping to the ledger when it closes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .dice import Dice


@dataclass(frozen=True)
class PrematchTeam:
    id: int
    name: str
    roster_key: str
    home: bool
    fan_factor: int
    team_value: int | None
    #: Whether the match's stadium is this team's home.
    at_home_stadium: bool = False


@dataclass
class PrematchContext:
    teams: tuple[PrematchTeam, ...]
    hr: Mapping[str, Any]
    dice: Callable[[int | None], Dice]
    choices: Mapping[str, Any]
    #: What the earlier steps settled (the Prematch record's fields, team ids as strings in mappings).
    state: Mapping[str, Any]
    updates: dict[str, Any] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)

    def say(self, line: str) -> None:
        self.log.append(line)

    def team(self, team_id: int) -> PrematchTeam:
        return next(t for t in self.teams if t.id == team_id)


@dataclass(frozen=True)
class PrematchStep:
    key: str
    title: str
    run: Callable[[PrematchContext], None]
    #: The roll keys the step uses; `per_team` ones are entered as {team id: [dice]}.
    rolls: tuple[str, ...] = ()
    per_team: bool = False
    #: The state key naming the team whose shopping turn this step is (None: not a shopping turn).
    turn: str | None = None
