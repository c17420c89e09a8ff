"""The player statistics a ruleset declares: plain data and pure functions.

Each ruleset lists its stats (`Ruleset.player_stats`) as `StatSpec`s: the key the API names (api-v1 v1.1: the keys
of a player's `career`, `seasons[]`, `history[]` and of the leaders' `stat`), its label and how it is read from
one per-match player row (matches.models.PlayerMatch). Pages and the API ask these; they never name a game. The
league's reads turn a spec into a database aggregate (league/players) and read a single row with `read_row`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class StatSpec:
    """One stat: `key`, `label`, `short` (a table header), and its source in a per-match row:

    - `how="sum"`: the sum of the row's `field` (a PlayerMatch column), or of `detail[detail_key]` when given
      (a missing or null value counts 0);
    - `how="count_true"`: the number of rows whose `field` is true (an MVP award);
    - `how="count"`: the number of rows (every ruleset's `matches`);
    - `how="survived"`: the rows the player came out of alive: all of them, less the match he died in (a dead
      player's last row, as the memorial reads it: `died_in_match`).
    """

    key: str
    label: str
    short: str
    how: str = "sum"
    field: str = ""
    detail_key: str = ""


MATCHES = StatSpec("matches", "Matches played", "M", how="count")


def read_row(spec: StatSpec, row: Mapping[str, Any], *, died_here: bool = False) -> int:
    """The stat's value in one per-match row (`row`: the PlayerMatch's fields, `detail` its JSON); `died_here`:
    the player died in this match (`survived` only)."""
    if spec.how == "count":
        return 1
    if spec.how == "survived":
        return 0 if died_here else 1
    if spec.how == "count_true":
        return 1 if row.get(spec.field) else 0
    if spec.detail_key:
        value = (row.get("detail") or {}).get(spec.detail_key)
        return int(value) if isinstance(value, int) and not isinstance(value, bool) else 0
    return int(row.get(spec.field) or 0)


def by_key(specs: tuple[StatSpec, ...]) -> dict[str, StatSpec]:
    return {s.key: s for s in specs}


def ranked(rows: list[dict], *, limit: int = 10) -> list[dict]:
    """The leaders' table: rows `{player, name, team, value}` by value, highest first, ties by name
    (then by id, so equal names keep one order), the first `limit` with their `position` (1-based; tied rows
    share none: the position is the row's place in the list, H docs/decisions/ "Leaders' ties")."""
    ordered = sorted(rows, key=lambda r: (-r["value"], r["name"].casefold(), r["player"]))[:limit]
    return [{"position": i, **r} for i, r in enumerate(ordered, start=1)]
