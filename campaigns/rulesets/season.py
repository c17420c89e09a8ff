"""The season turn, as plain data: what each team keeps or gives up when a season closes and the next
opens. Pure: no ORM, no dice. dugout/seasons.py reads the teams as `SeasonTeam`s, asks the league's ruleset
(`Ruleset.season_turn`) and applies the `TeamTurn`s it answers, in bulk, inside the turn's transaction.

House rule `season_rollover` (every ruleset): `carry` (the default) keeps what the ruleset's `season_carries`
names; `redraft` rebuilds every team from scratch — its players released, its re-rolls, staff and Fan Factor
given up, the team back in creation — with, where the ruleset has a treasury, the treasury set to a budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from campaigns.errors import RuleViolation

if TYPE_CHECKING:  # base imports this module
    from .base import PlayerState

#: The values of house rule `season_rollover`.
ROLLOVERS = ("carry", "redraft")

#: What a redrafted team gives up besides its players: every count a coach bought for it (its staff, team
#: support, re-rolls and Fan Factor), because a redraft rebuilds the team from its budget.
REDRAFT_RESETS = ("rerolls", "fan_factor", "staff")


@dataclass(frozen=True)
class SeasonTeam:
    """A team as the season turn reads it: its players (on the roster or not) and its treasury balance."""

    id: int
    players: tuple[PlayerState, ...] = ()
    treasury: int = 0
    rerolls: int = 0
    fan_factor: int = 0
    staff: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class TeamTurn:
    """What the turn changes on one team. A team the turn leaves alone has no `TeamTurn`."""

    team: int
    #: Players who leave the roster (marked, never deleted: their history and pages stay).
    release: tuple[int, ...] = ()
    #: The treasury's balance after the turn; None: unchanged.
    treasury: int | None = None
    #: The team's counts set back to nothing (names of `REDRAFT_RESETS`).
    reset: tuple[str, ...] = ()
    #: The team is back in creation (its coach rebuilds it at creation prices).
    back_in_creation: bool = False

    def treasury_change(self, balance: int) -> int:
        """The signed gil the treasury moves by (0: no ledger entry)."""
        return 0 if self.treasury is None else self.treasury - balance


def rollover(hr: Mapping[str, Any]) -> str:
    """The league's `season_rollover` (`carry` when the house rules predate it)."""
    return hr.get("season_rollover", "carry")


def check_rollover(value: Any) -> None:
    """H: `season_rollover` is `carry` or `redraft`."""
    if value not in ROLLOVERS:
        raise RuleViolation("season_rollover must be 'carry' or 'redraft'.", field="season_rollover")


def redraft(team: SeasonTeam, *, treasury: int | None) -> TeamTurn:
    """A team rebuilt from scratch: every player on its roster released (the dead and the retired are gone
    already), its bought counts given up, back in creation, its treasury set to `treasury` (None: no treasury)."""
    return TeamTurn(
        team=team.id,
        release=tuple(p.id for p in team.players if p.on_roster),
        treasury=treasury,
        reset=REDRAFT_RESETS,
        back_in_creation=True,
    )
