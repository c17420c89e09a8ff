"""Knockout brackets: seeded from an ordered list, byes to the top seeds.

Standard seeding (H, ../../docs/decisions/ "Pure schedule generators"): the bracket holds the next power of
two at or above the number of teams; its slots are ordered so that in round 1 seed 1 meets the last seed, seed 2
the second last, and so on, with 1 and 2 in opposite halves (they can meet only in the final), 1–4 in different
quarters, and so on down. The seeds past the number of teams are empty, so their opponents — the top seeds —
go through round 1 on a bye. The better seed is at home (H). Each later round pairs the winners of neighbouring
slots; the last round's single match is of kind "final", every other one "playoff" (R,
../shared/rules/blitzbowl.md, "League": match kinds).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..errors import RuleViolation
from .types import Pairing, round_dates

FINAL = "final"
PLAYOFF = "playoff"


@dataclass(frozen=True)
class KnockoutRound:
    """One round of a bracket. `slots` are in bracket order: each a Pairing (a match) or a team id going through
    on a bye; `seeds` is the whole bracket's seed order (index 0 = seed 1), which later rounds keep."""

    number: int
    starts: dt.date
    deadline: dt.date
    days_per_round: int
    kind: str
    slots: tuple[Pairing | int, ...]
    seeds: tuple[int, ...]

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        return tuple(slot for slot in self.slots if isinstance(slot, Pairing))

    @property
    def byes(self) -> tuple[int, ...]:
        return tuple(slot for slot in self.slots if not isinstance(slot, Pairing))


def bracket_size(teams: int) -> int:
    """The smallest power of two holding `teams`."""
    size = 1
    while size < teams:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """The seeds (from 1) in bracket order for a bracket of `size` (a power of two): [1, 8, 4, 5, 2, 7, 3, 6]
    for 8 — each seed s of the order for half the size is followed by its round-1 opponent size + 1 - s."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def seeds_from_standings(standings: Sequence[int], top: int) -> list[int]:
    """The first `top` teams of a table (team ids in table order) as the bracket's seeds."""
    if isinstance(top, bool) or not isinstance(top, int) or not 2 <= top <= len(standings):
        raise RuleViolation(f"A knockout draws between 2 and {len(standings)} teams from the table.", field="teams")
    return list(standings[:top])


def knockout(seeds: Sequence[int], *, start: dt.date, days_per_round: int = 7) -> KnockoutRound:
    """The bracket's first round for `seeds` (team ids, best first)."""
    if len(seeds) < 2:
        raise RuleViolation("A knockout needs at least two teams.", field="teams")
    if len(set(seeds)) != len(seeds):
        raise RuleViolation("A team can only be listed once.", field="teams")
    if isinstance(days_per_round, bool) or not isinstance(days_per_round, int) or days_per_round < 1:
        raise RuleViolation("A round lasts at least one day.", field="days_per_round")
    size = bracket_size(len(seeds))
    order = seed_order(size)
    slots: list[Pairing | int] = []
    for upper, lower in zip(order[::2], order[1::2], strict=True):
        if lower > len(seeds):
            slots.append(seeds[upper - 1])
        else:
            slots.append(Pairing(home=seeds[upper - 1], away=seeds[lower - 1]))
    starts, deadline = round_dates(start, 1, days_per_round)
    kind = FINAL if size == 2 else PLAYOFF
    return KnockoutRound(1, starts, deadline, days_per_round, kind, tuple(slots), tuple(seeds))


def next_round(previous: KnockoutRound, winners: Collection[int], *, start: dt.date | None = None) -> KnockoutRound:
    """The round after `previous` once each of its matches has a winner (`winners`: one team of each match, no
    other); it starts the day after `previous`'s deadline unless `start` says otherwise."""
    if previous.kind == FINAL:
        raise RuleViolation("The final is the last round of the bracket.", field="winners")
    winners = set(winners)
    advancing = []
    for slot in previous.slots:
        if not isinstance(slot, Pairing):
            advancing.append(slot)
            continue
        won = winners.intersection(slot.teams)
        if len(won) != 1:
            raise RuleViolation("Each match of the round needs exactly one winner.", field="winners")
        advancing.append(won.pop())
    if not winners.issubset(team for pairing in previous.pairings for team in pairing.teams):
        raise RuleViolation("Every winner must be a team of one of the round's matches.", field="winners")
    rank = {team: index for index, team in enumerate(previous.seeds)}
    slots = []
    for first, second in zip(advancing[::2], advancing[1::2], strict=True):
        home, away = sorted((first, second), key=rank.__getitem__)
        slots.append(Pairing(home=home, away=away))
    number = previous.number + 1
    first_day = start or previous.deadline + dt.timedelta(days=1)
    starts, deadline = round_dates(first_day, 1, previous.days_per_round)
    kind = FINAL if len(slots) == 1 else PLAYOFF
    return KnockoutRound(number, starts, deadline, previous.days_per_round, kind, tuple(slots), previous.seeds)
