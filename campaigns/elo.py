"""Elo ratings: ruleset-agnostic and pure — the caller passes the league's confirmed two-sided results
in the order they became final, and the house rules' `elo_k` and `elo_start` (docs/decisions/, "Elo ratings").

For a match between A (rated Ra) and B (Rb): A's expected score is Ea = 1 / (1 + 10^((Rb - Ra) / 400)); A's score
Sa is 1 for a win, 0.5 for a draw, 0 for a loss; A's new rating is Ra + K·(Sa − Ea), and B's Rb + K·(Ea − Sa)
(the two changes cancel). Teams and coaches are rated alike, a coach over every match of every team they coach in
the league; a match between two teams of the same coach changes that coach's rating by nothing.
Ratings are kept exact (floats) and rounded only to be shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass(frozen=True)
class Game:
    """One rated result: the home and away team and coach, and the home side's outcome ("win"/"draw"/"loss")."""

    match_id: int
    team_a: int
    team_b: int
    coach_a: int | None
    coach_b: int | None
    outcome_a: str


@dataclass
class Ratings:
    teams: dict[int, float] = field(default_factory=dict)
    coaches: dict[int, float] = field(default_factory=dict)
    team_games: dict[int, int] = field(default_factory=dict)
    coach_games: dict[int, int] = field(default_factory=dict)
    #: Each team's rating after each of its rated matches, in order: {team: [(match id, rating), …]}.
    history: dict[int, list[tuple[int, float]]] = field(default_factory=dict)


def expected(rating: float, opponent: float) -> float:
    """The expected score of a side rated `rating` against one rated `opponent`."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def _update(table: dict, games: dict, a, b, score_a: float, *, k: float, start: float) -> None:
    ra, rb = table.get(a, start), table.get(b, start)
    change = k * (score_a - expected(ra, rb))
    table[a], table[b] = ra + change, rb - change
    games[a], games[b] = games.get(a, 0) + 1, games.get(b, 0) + 1


def rate(games: Iterable[Game], *, k: int, start: int) -> Ratings:
    """Every team's and coach's rating after `games`, in order (a game with an unknown outcome is skipped)."""
    out = Ratings()
    for game in games:
        score = SCORES.get(game.outcome_a)
        if score is None or game.team_a == game.team_b:
            continue
        _update(out.teams, out.team_games, game.team_a, game.team_b, score, k=k, start=start)
        for team in (game.team_a, game.team_b):
            out.history.setdefault(team, []).append((game.match_id, out.teams[team]))
        a, b = game.coach_a, game.coach_b
        if a is not None and b is not None and a != b:
            _update(out.coaches, out.coach_games, a, b, score, k=k, start=start)
    return out
