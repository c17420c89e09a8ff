"""Swiss rounds for open leagues: pairing by the table, no rematch while another
pairing exists, a bye to the lowest-ranked team without one.

H (../../docs/decisions/ "Pure schedule generators"), where the rules are silent:
- The table comes in order (points, then the ruleset's tie-breakers — the league's standings already rank so),
  and teams are paired down it: the best unpaired team meets the next best it has not played (Monrad pairing,
  the usual one in club leagues: it pairs teams of equal points first). The better ranked team is at home.
- With an odd number of teams, the bye goes to the lowest-ranked team that has not had one; only if no such
  choice leaves a pairing without a rematch does it go to the next one up, then to teams that have had a bye
  (lowest first). When no choice at all avoids a rematch, the bye goes to the lowest-ranked team without one
  and the pairing has as few rematches as the bounded search finds.
- The search backtracks (the best unpaired team tries its candidates in table order) and is bounded by
  `MAX_SEARCH_STEPS`, so it answers in bounded time even for a field with no rematch-free pairing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from ..errors import RuleViolation
from .types import Pairing, round_dates

MAX_SEARCH_STEPS = 50_000


@dataclass(frozen=True)
class SwissRound:
    number: int
    starts: dt.date
    deadline: dt.date
    pairings: tuple[Pairing, ...]
    bye: int | None
    #: How many pairings repeat an earlier meeting (0 unless no pairing without one exists).
    rematches: int


def pair_set(played: Iterable[Collection[int]]) -> set[frozenset[int]]:
    """The pairs already played, as unordered pairs (a pairing, a (home, away) tuple or a set each)."""
    pairs = set()
    for pair in played:
        teams = pair.teams if isinstance(pair, Pairing) else tuple(pair)
        pairs.add(frozenset(teams))
    return pairs


def pair_without_rematch(ranked: Sequence[int], played: set[frozenset[int]], budget: list[int]) -> list | None:
    """Pairs of `ranked` (an even number of teams, best first) with no pair in `played`, found depth first
    (the best unpaired team takes the next best it has not met); None if none exists or the budget ran out."""
    if not ranked:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first, rest = ranked[0], ranked[1:]
    for index, other in enumerate(rest):
        if frozenset((first, other)) in played:
            continue
        found = pair_without_rematch([*rest[:index], *rest[index + 1 :]], played, budget)
        if found is not None:
            return [(first, other), *found]
    return None


def pair_fewest_rematches(ranked: Sequence[int], played: set[frozenset[int]], budget: list[int]) -> list:
    """Pairs of `ranked` with as few rematches as the bounded branch-and-bound finds (the greedy table order
    first, so a result always exists)."""
    best: list = [None, len(ranked)]

    def search(rest: Sequence[int], pairs: list, rematches: int) -> None:
        if rematches >= best[1] or budget[0] < 0:
            return
        budget[0] -= 1
        if not rest:
            best[0], best[1] = list(pairs), rematches
            return
        first, others = rest[0], rest[1:]
        candidates = sorted(range(len(others)), key=lambda i: frozenset((first, others[i])) in played)
        for index in candidates:
            repeat = frozenset((first, others[index])) in played
            search([*others[:index], *others[index + 1 :]], [*pairs, (first, others[index])], rematches + repeat)

    budget[0] = max(budget[0], len(ranked))  # enough for the first (greedy) descent
    search(list(ranked), [], 0)
    return best[0]


def swiss_round(
    standings: Sequence[int],
    *,
    played: Iterable[Collection[int]] = (),
    had_bye: Collection[int] = (),
    number: int,
    start: dt.date,
    days_per_round: int = 7,
) -> SwissRound:
    """Round `number` of a Swiss: `standings` are the team ids in table order, `played` every pair already
    played, `had_bye` the teams that already sat out a round on a bye. Dates as a round robin's round 1 from
    `start` (the service passes the round's own start)."""
    if len(standings) < 2:
        raise RuleViolation("A Swiss round needs at least two teams.", field="teams")
    if len(set(standings)) != len(standings):
        raise RuleViolation("A team can only be listed once.", field="teams")
    if isinstance(days_per_round, bool) or not isinstance(days_per_round, int) or days_per_round < 1:
        raise RuleViolation("A round lasts at least one day.", field="days_per_round")
    played_pairs = pair_set(played)
    had_bye = set(had_bye)
    budget = [MAX_SEARCH_STEPS]
    candidates: list[int | None] = [None]
    if len(standings) % 2:
        lowest_first = list(reversed(standings))
        candidates = [t for t in lowest_first if t not in had_bye] + [t for t in lowest_first if t in had_bye]
    pairs, bye, rematches = None, candidates[0], 0
    for candidate in candidates:
        ranked = [t for t in standings if t != candidate]
        pairs = pair_without_rematch(ranked, played_pairs, budget)
        if pairs is not None:
            bye = candidate
            break
    if pairs is None:
        ranked = [t for t in standings if t != bye]
        pairs = pair_fewest_rematches(ranked, played_pairs, budget)
        rematches = sum(frozenset(pair) in played_pairs for pair in pairs)
    starts, deadline = round_dates(start, 1, days_per_round)
    pairings = tuple(Pairing(home=home, away=away) for home, away in pairs)
    return SwissRound(number, starts, deadline, pairings, bye, rematches)
