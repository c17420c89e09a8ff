"""Bone Cruncher pre-game rules as pure functions (../shared/rules/bonecruncher.md "Pre-game (recorded, optional)":
the Aggressor and terrain; roll keys `aggressor` and `terrain`, both 2d6).

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).

No Django, no I/O. The Aggressor roll-off takes a `roll` callable (the engine's: server dice or the coaches'
entered values, recorded by the engine) because ties re-roll an unknown number of times; terrain takes the 2d6
total. Dice outside 1–6 raise ValueError (a programming error).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

#: The league's effective house rules (data/house_rules.json merged with the commissioner's overrides).
HouseRules = Mapping[str, Any]

#: R: the Aggressor roll and the terrain roll are 2d6.
DICE, FACES = 2, 6
#: I: a roll-off still tied after this many rounds means the `roll` callable is broken (it never ends otherwise).
MAX_ROUNDS = 1000


def aggressor(roll: Callable[[int], tuple[int, int]], teams: Sequence[int]) -> tuple[int, list[dict[int, int]]]:
    """R (Pre-game, roll key `aggressor`): each team rolls 2d6; the highest total is the Aggressor, who starts with
    the ball. R: ties re-roll (house rules `pre_game.aggressor.ties` "reroll"); I: only the teams tied for the
    highest re-roll, until one team wins; a team may be any number of teams (events of more than two).

    `roll(team)` returns that team's two dice. Returns (the Aggressor, the rounds: [{team: total}, …]).
    """
    contenders = list(teams)
    if len(contenders) < 2:
        raise ValueError(f"the Aggressor roll-off needs at least two teams, got {len(contenders)}")
    if len(set(contenders)) != len(contenders):
        raise ValueError(f"a team rolls only once per round: {contenders}")
    rounds: list[dict[int, int]] = []
    while len(rounds) < MAX_ROUNDS:
        totals = {team: _total(roll(team), team) for team in contenders}
        rounds.append(totals)
        best = max(totals.values())
        contenders = [team for team, total in totals.items() if total == best]
        if len(contenders) == 1:
            return contenders[0], rounds
    raise ValueError(f"the Aggressor roll-off is still tied after {MAX_ROUNDS} rounds")


def _total(dice: Sequence[int], team: int) -> int:
    dice = tuple(dice)
    if len(dice) != DICE:
        raise ValueError(f"team {team} rolls {DICE}d{FACES} for the Aggressor, got {len(dice)} dice")
    for die in dice:
        if type(die) is not int or not 1 <= die <= FACES:
            raise ValueError(f"team {team}: a d{FACES} shows 1–{FACES}, got {die!r}")
    return sum(dice)


def terrain(total: int, hr: HouseRules) -> dict:
    """R (Pre-game, roll key `terrain`, 2d6 per coach): the total is the number of terrain pieces; on a 2 one of
    them may be a Death trap; on a 12 two may be Delay traps; otherwise no Death trap and at most one Delay trap
    (house rules `pre_game.terrain.results`: "2", "12" and "other", each with death_traps_max and delay_traps_max;
    as shipped a 2 also allows one Delay trap).

    Returns {"total", "pieces", "death_traps_max", "delay_traps_max"}.
    """
    if type(total) is not int or not DICE <= total <= DICE * FACES:
        raise ValueError(f"the terrain roll is {DICE}d{FACES} ({DICE}–{DICE * FACES}), got {total!r}")
    results = hr["pre_game"]["terrain"]["results"]
    row = results.get(str(total), results["other"])
    return {
        "total": total,
        "pieces": total,
        "death_traps_max": int(row["death_traps_max"]),
        "delay_traps_max": int(row["delay_traps_max"]),
    }


_NUMBERS = {1: "one", 2: "two", 3: "three"}


def _at_most(n: int, what: str) -> str:
    if n <= 0:
        return f"no {what}"
    return f"at most {_NUMBERS.get(n, str(n))} {what}{'' if n == 1 else 's'}"


def terrain_words(result: Mapping[str, int]) -> str:
    """A `terrain` result as a coach reads it, e.g. "Terrain roll 12: 12 terrain pieces; no Death trap; at most
    two Delay traps."
    """
    pieces = result["pieces"]
    return (
        f"Terrain roll {result['total']}: {pieces} terrain piece{'' if pieces == 1 else 's'}; "
        f"{_at_most(result['death_traps_max'], 'Death trap')}; {_at_most(result['delay_traps_max'], 'Delay trap')}."
    )
