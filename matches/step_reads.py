"""What a post-match step reads, in two locked queries: the team's row, then its sequence with everything else
the step declares it reads (`Step.reads`) folded into that one row as JSON — the match's sides, the team's
players with their positions, its roster's positions, its sponsorships, its players' rows of the match, and
the head (last sequence and balance) of each of its ledger accounts.

The second query starts once the team's row is locked, so what it folds is as fresh as separate queries would
read it: a concurrent step of the same team has committed before it (PostgreSQL's READ COMMITTED takes a new
snapshot per statement; a statement that waited for a row lock sees the other tables as they stood when it
started, which is why nothing but the team's own columns is read with the lock). docs/decisions/,
2026-12-02 "A step's reads folded into its sequence's row".
"""

from __future__ import annotations

import json
from functools import cache as memoise

from django.db import connection
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.db.models.functions import JSONObject

from league.selectors import compiled_once, json_fields, json_instances, json_rows
from teams.models import LedgerEntry, Player, Position, Sponsorship, Team

from .models import Aftermath, MatchTeam, PlayerMatch

#: A side's fields a step reads (`aftermath._side_view`), folded into its sequence's row.
SIDE_VIEW_FIELDS = ("team_id", "order", "score", "casualties_inflicted", "conceded", "conceded_early", "fame")
SIDE_VIEW_FIELDS += ("mvp_id", "placing", "eliminations", "outcome")

ACCOUNTS = tuple(LedgerEntry.Account)


@memoise
def step_reads(parts: frozenset[str]) -> tuple[QuerySet[Team], QuerySet[Aftermath]]:
    """A step's two locked reads for the view parts it reads: the team bare (its row, league, coach, roster and
    stadium) and its sequence with the match, league, stadium, sides, ledger heads and the parts folded in.
    Built once per process and parts (building their joins and subqueries cost a millisecond of CPU a step), the
    folds compiled to SQL once too (`compiled_once`: compiling them was a third of a step's CPU); each call
    clones them (`get`, `filter`), so their rows are read afresh every time."""
    team = Team.objects.select_related("league", "coach", "roster", "home_stadium").select_for_update(of=("self",))
    folds = {"side_rows": _sides_folded(), **team_folds(parts, team="team_id")}
    if "player_rows" in parts:
        rows = PlayerMatch.objects.filter(match=OuterRef("match_id"), team=OuterRef("team_id"))
        folds["match_row_fold"] = json_rows(rows, "match", **json_fields(PlayerMatch))
    sequence = (
        Aftermath.objects.select_for_update(of=("self",))
        .select_related("match__league", "match__stadium")
        .annotate(**compiled_once(Aftermath, **folds))
    )
    return team, sequence


def team_folds(parts: frozenset[str], *, team: str) -> dict:
    """A team's ledger heads and the `parts` of it a step reads (players with their positions, roster positions,
    sponsorships) as annotations of a row that holds the team's id at `team` (each correlated with that column
    alone, so `compiled_once` can compile it)."""
    folds = {f"head_{account}": _head(account, team) for account in ACCOUNTS}
    if "players" in parts:
        position = JSONObject(**_related("position", Position))
        players = Player.objects.filter(team=OuterRef(team))
        folds["player_fold"] = json_rows(players, "team", **json_fields(Player), position_row=position)
    if "positions" in parts:
        positions = Position.objects.filter(roster__teams=OuterRef(team))
        folds["position_fold"] = json_rows(positions, "roster", **json_fields(Position))
    if "sponsorships" in parts:
        sponsorships = Sponsorship.objects.filter(team=OuterRef(team))
        folds["sponsorship_fold"] = json_rows(sponsorships, "team", **json_fields(Sponsorship))
    return folds


#: What confirming a result reads of its teams (`result_apply`: the snapshot and the players' totals).
CONFIRM_PARTS = frozenset({"players", "positions"})


def confirm_teams(team_ids: list[int], *, match) -> dict[int, Team]:
    """The teams of a result being confirmed, by id, in one query once their rows are locked (`lock_teams`):
    each with its balances, roster positions and players (with their positions) held as `team_step_queryset`
    would have prefetched them, and `open_elsewhere`: whether it has another post-match sequence unfinished."""
    others = Aftermath.objects.filter(team=OuterRef("pk"), complete=False).exclude(match=match)
    teams = (
        Team.objects.select_related("league", "coach", "roster", "home_stadium")
        .filter(pk__in=team_ids)
        .annotate(open_elsewhere=Exists(others), **_confirm_folds())
    )
    out = {}
    for team in teams:
        team_install(team=team, folded=team, parts=CONFIRM_PARTS)
        out[team.pk] = team
    return out


@memoise
def _confirm_folds() -> dict:
    return compiled_once(Team, **team_folds(CONFIRM_PARTS, team="pk"))


def _related(name: str, model) -> dict[str, str]:
    """A related row's columns as a path from the folded rows (`position__key`): the join select_related made."""
    return {f.attname: f"{name}__{f.attname}" for f in model._meta.concrete_fields}


def _head(account: str, team: str) -> Subquery:
    entries = LedgerEntry.objects.filter(team=OuterRef(team), account=account).order_by("-sequence")
    return Subquery(entries.values(head=JSONObject(sequence="sequence", balance="balance_after"))[:1])


def _sides_folded():
    """The match's sides as one JSON array on its sequence's row: a step reads them without a query of their own."""
    return json_rows(MatchTeam.objects.filter(match=OuterRef("match_id")), "match", **{f: f for f in SIDE_VIEW_FIELDS})


def sides_unfolded(rows: list[dict]) -> list[MatchTeam]:
    """`_sides_folded`'s rows as the match's sides, in their order (SQLite's JSON has 0/1 for booleans)."""
    flags = ("conceded", "conceded_early")
    sides = [MatchTeam(**{**row, **{f: bool(row[f]) for f in flags}}) for row in rows]
    return sorted(sides, key=lambda side: side.order)


def ledger_heads(folded) -> dict[str, tuple[int, int]]:
    """The team's last (sequence, balance) per ledger account, as read with its sequence under the team's lock
    ((0, 0) for an account without entries): what `ledger_post_many` appends after."""
    heads = {}
    for account in ACCOUNTS:
        head = getattr(folded, f"head_{account}")
        if isinstance(head, str):  # SQLite's JSON subquery answers text
            head = json.loads(head)
        heads[account] = (head["sequence"], head["balance"]) if head else (0, 0)
    return heads


def team_install(*, team: Team, folded, parts: frozenset[str]) -> dict[str, tuple[int, int]]:
    """Hand the parts folded into `folded` (the team's sequence, or the team itself) to `team` as its prefetched
    players (each with his position), roster positions and sponsorships, in the orders their prefetches had, and
    its balances as annotated attributes; returns its ledger heads."""
    heads = ledger_heads(folded)
    team.treasury = heads[LedgerEntry.Account.TREASURY][1]
    team.stadium_fund = heads[LedgerEntry.Account.STADIUM_FUND][1]
    if "players" in parts:
        rows = folded.player_fold or []
        players = json_instances(Player, rows)
        positions = {}
        for player, row in zip(players, rows, strict=True):
            position = positions.get(player.position_id)
            if position is None:
                position = positions[player.position_id] = json_instances(Position, [row["position_row"]])[0]
            player._state.fields_cache["position"] = position
            player._state.fields_cache["team"] = team
        _hold(team, "players", sorted(players, key=_number_order))
    if "positions" in parts:
        positions = json_instances(Position, folded.position_fold)
        _hold(team.roster, "positions", sorted(positions, key=lambda p: (p.order, p.pk)))
    if "sponsorships" in parts:
        sponsorships = json_instances(Sponsorship, folded.sponsorship_fold)
        _hold(team, "sponsorships", sorted(sponsorships, key=lambda s: (s.gained_at, s.pk)))
    return heads


def _number_order(player: Player) -> tuple:
    """`order_by("number", "id")` as the databases sort it: PostgreSQL puts no number last, SQLite first."""
    missing = player.number is None
    return (missing if connection.vendor == "postgresql" else not missing, player.number or 0, player.pk)


def _hold(instance, name: str, rows: list) -> None:
    """`rows` as `instance`'s prefetched `name` (what `prefetch_related` leaves): `.all()` answers them."""
    held = getattr(instance, name).all()
    held._result_cache = rows
    held._prefetch_done = True
    vars(instance).setdefault("_prefetched_objects_cache", {})[name] = held


def match_rows_unfolded(aftermath: Aftermath) -> list[PlayerMatch]:
    """The team's players' rows of the match, as folded into its sequence's row."""
    return json_instances(PlayerMatch, aftermath.match_row_fold)
