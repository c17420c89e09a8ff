"""Changing a published round robin: a team withdraws, a team joins late.

Neither moves a fixture that is already in the schedule (coaches may have agreed its time): a withdrawal only
takes matches out, a late team's matches are only added.

- `withdraw`: every pairing of the team not yet played is removed and its opponent rests that round instead (a
  bye); its played pairings stay, and it leaves every round's byes (it is no longer in the schedule).
- `add_late_team` (H, ../../docs/decisions/ "Pure schedule generators"): the late team owes every team of the
  schedule `legs` meetings. From `from_round` on, round by round, it plays a team resting that round that it
  still owes a meeting (the one it owes most, then the best seeded), so no one plays twice in a round and no
  fixture moves; what it still owes after the last round goes into rounds appended after it, one match each
  (the other teams rest), best seeds first. Its home and away alternate (home first), and with two legs its
  second meeting with a team is the first with home and away swapped. A placement that would break the
  consecutive rule is skipped (the meeting waits for a later round); if even the appended rounds cannot keep
  the rule, the late entry is refused in words.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ..errors import RuleViolation
from .consecutive import consecutive_violations
from .types import Pairing, Round, Schedule, round_dates


def withdraw(schedule: Schedule, team: int, *, played: Collection[Pairing] = ()) -> Schedule:
    """The schedule without `team`'s unplayed matches: each of its opponents in them rests that round instead.
    `played` holds the pairings already played (a pairing's (home, away) is unique within a round robin)."""
    if team not in schedule.teams:
        raise RuleViolation("That team is not in this schedule.", field="team")
    played = set(played)
    rounds = []
    for rnd in schedule.rounds:
        kept, byes = [], [t for t in rnd.byes if t != team]
        for pairing in rnd.pairings:
            opponent = pairing.opponent(team)
            if opponent is None or pairing in played:
                kept.append(pairing)
            else:
                byes.append(opponent)
        rounds.append(Round(rnd.number, rnd.starts, rnd.deadline, tuple(kept), tuple(byes)))
    teams = tuple(t for t in schedule.teams if t != team)
    return Schedule(teams=teams, legs=schedule.legs, days_per_round=schedule.days_per_round, rounds=tuple(rounds))


def add_late_team(
    schedule: Schedule,
    team: int,
    *,
    from_round: int,
    limit: int | None,
    previous: Mapping[int, Sequence[int]] | None = None,
) -> Schedule:
    """The schedule with `team` added from round `from_round` on (the rounds before it are left alone), by the
    algorithm of this module's docstring. `previous` and `limit` are as for `round_robin`."""
    if team in schedule.teams:
        raise RuleViolation("That team is already in this schedule.", field="team")
    last = schedule.rounds[-1].number if schedule.rounds else 0
    if not 1 <= from_round <= last + 1:
        raise RuleViolation(f"The late team's first round must be between 1 and {last + 1}.", field="from_round")
    seeding = {t: i for i, t in enumerate(schedule.teams)}
    owed = {t: schedule.legs for t in schedule.teams}
    first_home: dict[int, bool] = {}  # opponent -> whether the late team was at home in their first meeting
    homes = 0
    rounds = list(schedule.rounds)

    def meeting(opponent: int) -> Pairing:
        nonlocal homes
        if opponent in first_home:
            home = not first_home[opponent]
        else:
            played = schedule.legs * len(schedule.teams) - sum(owed.values())
            home = homes * 2 <= played
            first_home[opponent] = home
        homes += home
        owed[opponent] -= 1
        return Pairing(team, opponent) if home else Pairing(opponent, team)

    def keeps_rule(candidate: list[Round]) -> bool:
        return not consecutive_violations(candidate, limit=limit, previous=previous)

    for index, rnd in enumerate(rounds):
        if rnd.number < from_round:
            continue
        resting = sorted((t for t in rnd.byes if owed.get(t)), key=lambda t: (-owed[t], seeding[t]))
        for opponent in resting:
            state = (dict(owed), dict(first_home), homes)
            pairing = meeting(opponent)
            byes = tuple(t for t in rnd.byes if t != opponent)
            trial = Round(rnd.number, rnd.starts, rnd.deadline, (*rnd.pairings, pairing), byes)
            if keeps_rule([*rounds[:index], trial, *rounds[index + 1 :]]):
                rounds[index] = trial
                break
            owed, first_home, homes = state  # the meeting waits for a later round
        else:
            rounds[index] = Round(rnd.number, rnd.starts, rnd.deadline, rnd.pairings, (*rnd.byes, team))

    start = schedule.rounds[0].starts if schedule.rounds else None
    number = max(last, from_round - 1)
    while any(owed.values()):
        if start is None:
            raise RuleViolation("An empty schedule has no rounds to join.", field="team")
        number += 1
        starts, deadline = round_dates(start, number, schedule.days_per_round)
        for opponent in sorted((t for t in owed if owed[t]), key=lambda t: (-owed[t], seeding[t])):
            state = (dict(owed), dict(first_home), homes)
            pairing = meeting(opponent)
            others = tuple(t for t in schedule.teams if t != opponent)
            trial = Round(number, starts, deadline, (pairing,), others)
            if keeps_rule([*rounds, trial]):
                rounds.append(trial)
                break
            owed, first_home, homes = state
        else:
            raise RuleViolation(
                f"The late team's matches cannot be added without a team meeting the same opponent more than "
                f"{limit} times in a row.",
                field="team",
            )
    teams = (*schedule.teams, team)
    return Schedule(teams=teams, legs=schedule.legs, days_per_round=schedule.days_per_round, rounds=tuple(rounds))
