"""Blitz Bowl's "not three times in a row against the same team" over a generated schedule.

R (../shared/rules/blitzbowl.md, "League"): a team may not play the same opponent more than two matches in a
row, counted per team over its own sequence of matches. The limit is the ruleset's
`max_consecutive_meetings(hr)` (2 by default; None for the games without the rule; None or 0 means no rule, as
matches/services.py reads it). A bye is not a match, so it does not break a run. A team's recent previous
opponents (oldest first) are part of its sequence, so a schedule generated after earlier play is held to the
rule too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .types import Round


@dataclass(frozen=True)
class Violation:
    """`team` would meet `opponent` for the `run`-th time in a row in round `round` (run > the limit)."""

    team: int
    opponent: int
    round: int
    run: int


def team_sequences(rounds: Iterable[Round]) -> dict[int, list[tuple[int, int]]]:
    """Each team's matches in order: [(round number, opponent), …]."""
    sequences: dict[int, list[tuple[int, int]]] = {}
    for rnd in rounds:
        for pairing in rnd.pairings:
            sequences.setdefault(pairing.home, []).append((rnd.number, pairing.away))
            sequences.setdefault(pairing.away, []).append((rnd.number, pairing.home))
    return sequences


def trailing_run(opponents: Sequence[int]) -> tuple[int | None, int]:
    """The opponent the sequence ends with and how many matches in a row it has been met: (None, 0) if empty."""
    if not opponents:
        return None, 0
    last, run = opponents[-1], 0
    for opponent in reversed(opponents):
        if opponent != last:
            break
        run += 1
    return last, run


def consecutive_violations(
    rounds: Iterable[Round], *, limit: int | None, previous: Mapping[int, Sequence[int]] | None = None
) -> tuple[Violation, ...]:
    """Every place where a team would meet the same opponent more than `limit` times in a row, counting its
    `previous` opponents (oldest first) before the rounds. Empty when the schedule keeps the rule (always, when
    `limit` is None or 0)."""
    if not limit:
        return ()
    previous = previous or {}
    found = []
    for team, sequence in team_sequences(rounds).items():
        last, run = trailing_run(previous.get(team, ()))
        for number, opponent in sequence:
            run = run + 1 if opponent == last else 1
            last = opponent
            if run > limit:
                found.append(Violation(team=team, opponent=opponent, round=number, run=run))
    return tuple(sorted(found, key=lambda v: (v.round, v.team)))
