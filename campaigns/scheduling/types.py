"""The schedule's immutable data: pairings (home, away), rounds with dates and byes, a whole schedule.

Team ids are plain ints (the caller's primary keys); nothing here knows a model. A round's `byes` are the teams
of the schedule that sit out that round (the team drawn against the phantom "bye" slot of an odd round robin,
the opponents of a withdrawn team, the teams idle in a late team's catch-up round)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True)
class Pairing:
    home: int
    away: int

    @property
    def teams(self) -> tuple[int, int]:
        return (self.home, self.away)

    def swapped(self) -> Pairing:
        return Pairing(home=self.away, away=self.home)

    def opponent(self, team: int) -> int | None:
        """The other team of the pairing, None when `team` is not in it."""
        if team == self.home:
            return self.away
        if team == self.away:
            return self.home
        return None


@dataclass(frozen=True)
class Round:
    number: int
    starts: dt.date
    #: The round's last day (inclusive): its matches are due by the end of it.
    deadline: dt.date
    pairings: tuple[Pairing, ...]
    byes: tuple[int, ...] = ()

    def teams_playing(self) -> tuple[int, ...]:
        return tuple(team for pairing in self.pairings for team in pairing.teams)


@dataclass(frozen=True)
class Schedule:
    """A round robin: `teams` are the teams still in it, in seeding order."""

    teams: tuple[int, ...]
    legs: int
    days_per_round: int
    rounds: tuple[Round, ...]

    def pairings(self) -> tuple[tuple[int, Pairing], ...]:
        """Every (round number, pairing) in round order."""
        return tuple((r.number, p) for r in self.rounds for p in r.pairings)


def round_dates(start: dt.date, number: int, days_per_round: int) -> tuple[dt.date, dt.date]:
    """H: round `number` (from 1) starts `days_per_round` days after the one before and is due on its last day,
    the day before the next round starts — so rounds never overlap."""
    starts = start + dt.timedelta(days=(number - 1) * days_per_round)
    return starts, starts + dt.timedelta(days=days_per_round - 1)
