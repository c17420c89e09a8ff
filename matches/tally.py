"""Each player's running totals of a season: the sums
of his final matches' rows (`PlayerMatch`) of one season, kept as a row (`PlayerSeason`) that the confirming or
correcting transaction moves with the rows themselves, so a report reads a row a player instead of summing the
season's history (73,000 rows in the benchmark's 400-team league; docs/decisions/, "The season's tally").

Exact by construction: `tally_add(+1)` adds exactly the rows `result_apply` writes, `tally_add(-1)` takes away
exactly the rows `result_undo` deletes (a correction is the one then the other, in its transaction); writers that
make rows in bulk (the import, the benchmark's seed) rebuild the league's tally from its rows (`tally_rebuild`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from django.db import connection, models
from django.db.models import Count, Sum

from matches.models.tally import PlayerSeason

#: The row fields the tally sums (with `matches`, the count of rows).
TALLIED = ("touchdowns", "casualties", "goal_points")


def tally_add(*, league_id: int, season: int, rows: Iterable, sign: int = 1) -> None:
    """Add (`sign` 1) or take away (-1) match rows — `PlayerMatch` instances or dicts with `player_id` and the
    `TALLIED` fields — to their players' tallies of `season`: one statement (an upsert), none for no rows. Called
    inside the transaction that writes or deletes the rows."""
    totals: dict[int, list[int]] = defaultdict(lambda: [0] * (1 + len(TALLIED)))
    for row in rows:
        get = row.get if isinstance(row, Mapping) else lambda name, r=row: getattr(r, name)
        total = totals[get("player_id")]
        total[0] += sign
        for i, name in enumerate(TALLIED, 1):
            total[i] += sign * (get(name) or 0)
    if not totals:
        return
    table = connection.ops.quote_name(PlayerSeason._meta.db_table)
    columns = ("league_id", "player_id", "season", "matches", *TALLIED)
    values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * len(totals))
    params = [v for pid, total in sorted(totals.items()) for v in (league_id, pid, season, *total)]
    moved = ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in ("matches", *TALLIED))
    # One upsert that adds to the stored sums (Django's `update_conflicts` can only overwrite them). Only the
    # model's own table and column names are written into the text; every value is a parameter.
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values} ON CONFLICT (player_id, season) DO UPDATE SET {moved}"  # noqa: E501, S608
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def tally_rebuild(*, league_id: int) -> None:
    """The league's tallies made again from its final matches' rows (after rows were written in bulk)."""
    from .models import Match, PlayerMatch

    PlayerSeason.objects.filter(league_id=league_id).delete()
    sums = (
        PlayerMatch.objects.filter(match__league_id=league_id, match__status=Match.Status.FINAL)
        .order_by()
        .values("player_id", season=models.F("match__season"))
        .annotate(matches=Count("id"), **{name: Sum(name) for name in TALLIED})
    )
    PlayerSeason.objects.bulk_create((PlayerSeason(league_id=league_id, **row) for row in sums.iterator()), 1000)


def season_tallies(*, league_id: int, season: int) -> dict[int, dict]:
    """Each player's totals of the league's season (`matches` and the `TALLIED` fields), by player id (one query)."""
    rows = PlayerSeason.objects.filter(league_id=league_id, season=season).values("player_id", "matches", *TALLIED)
    return {r["player_id"]: r for r in rows}
