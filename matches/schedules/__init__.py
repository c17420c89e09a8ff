"""Generated schedules (contract: docs api-v1 "Contract additions (v1.1)"): the pure
generators of campaigns/scheduling/ turned into matches of the league's open season.

- `schedule_generate`: a round robin (all its rounds at once), a knockout's first round, or a Swiss' next round
  — previewed (nothing written) or published: a `Schedule` with its `ScheduleRound`s and their matches (each
  with `season`, `round`, `scheduled_for` = the round's start and `deadline` = start + `days_per_round`), made in
  bulk (a constant number of queries whatever the number of teams) and an audit entry (action "schedule").
- `schedule_round_final`: the hook the confirm and forfeit services call once a match is final; when that
  match closes a knockout round, the bracket's next round is created (a drawn knockout match: the better seed
  goes through — H, docs/decisions/ "Generated schedules as matches").
- `schedule_withdraw`, `schedule_add_team`: a team leaves a round robin or Swiss (its unplayed matches become
  byes) or joins one late (its matches added to the remaining rounds).
- Reads for the API and the pages: `schedule_rounds_out`, `league_schedules`, `league_bracket`.

Blitz Bowl's "not three in a row against the same team" (R, ../shared/rules/blitzbowl.md "League") holds for
everything generated here: the pairs are checked with `consecutive_violations` against each team's recent
opponents (one query) and a schedule that cannot keep it is refused in words.

The package, by concern: `base` (what the others share), `reads`, `bracket` (the knockout's read and its next
round), `generate` with one plan per format (`round_robin`, `knockout`, `swiss`), `changes` (withdraw, join
late). Every public name is importable from `matches.schedules`.
"""

from .base import FORMATS, MAX_DAYS_PER_ROUND, Planned, ScheduleConflict
from .bracket import league_bracket, schedule_round_final
from .changes import schedule_add_team, schedule_withdraw
from .generate import schedule_generate
from .reads import league_schedules, schedule_rounds_out

__all__ = [
    "FORMATS",
    "MAX_DAYS_PER_ROUND",
    "Planned",
    "ScheduleConflict",
    "league_bracket",
    "league_schedules",
    "schedule_add_team",
    "schedule_generate",
    "schedule_round_final",
    "schedule_rounds_out",
    "schedule_withdraw",
]
