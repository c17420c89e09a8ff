"""Reads of teams: one planned query set per page, whatever the league size."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import NamedTuple

from django.db.models import OuterRef, Prefetch, QuerySet, Subquery, Value, prefetch_related_objects
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from campaigns.engine import PlayerView
from campaigns.rulesets.base import PlayerState, RosterSpec, TeamState

from .models import LedgerEntry, Player, Position, Roster, Sponsorship, Team


def _latest_balance(account: str) -> Coalesce:
    latest = (
        LedgerEntry.objects.filter(team=OuterRef("pk"), account=account)
        .order_by("-sequence")
        .values("balance_after")[:1]
    )
    return Coalesce(Subquery(latest), Value(0))


def latest_balance(account: str) -> dict:
    """Annotations of a team's last entry in `account`: `balance` (0 before any entry) and `last_sequence`
    (None before any), for the writer that appends to many teams at once."""
    latest = LedgerEntry.objects.filter(team=OuterRef("pk"), account=account).order_by("-sequence")
    return {"balance": _latest_balance(account), "last_sequence": Subquery(latest.values("sequence")[:1])}


def team_sheet_queryset() -> QuerySet[Team]:
    """Teams with everything a team sheet shows — players, positions, injuries, treasury — in a fixed
    number of queries (four)."""
    return _team_with_players().prefetch_related(*_injury_prefetches())


def _team_with_players(*, positions: bool = True, players: bool = True) -> QuerySet[Team]:
    """A team, its balances, its roster's positions and its players in order: what every team read starts from
    (a post-match step that reads neither the positions nor the players leaves them out)."""
    prefetches = [Prefetch("roster__positions", queryset=_positions_in_order())] if positions else []
    if players:
        prefetches.append(Prefetch("players", queryset=_players_in_order()))
    return (
        Team.objects.select_related("league", "coach", "roster", "home_stadium")
        .annotate(
            treasury=_latest_balance(LedgerEntry.Account.TREASURY),
            stadium_fund=_latest_balance(LedgerEntry.Account.STADIUM_FUND),
        )
        .prefetch_related(*prefetches)
    )


def _positions_in_order() -> QuerySet[Position]:
    return Position.objects.order_by("order", "id")


def team_queryset() -> QuerySet[Team]:
    """Teams with everything the team API answers (the sheet's, and the sponsorships), in a fixed number of
    queries."""
    return team_sheet_queryset().prefetch_related("sponsorships")


def team_api_queryset() -> QuerySet[Team]:
    """Teams as the team API answers them: the sheet's reads, and the ongoing sponsorships folded into each
    team's row (`sponsorship_rows`, read by `team_sponsorships`) — five queries for a page of any teams."""
    from league.selectors import json_rows

    ongoing = Sponsorship.objects.filter(team=OuterRef("pk"), ended_at__isnull=True)
    return team_sheet_queryset().annotate(
        sponsorship_rows=json_rows(ongoing, "team", id="id", name="name", gained_at="gained_at")
    )


def team_sponsorships(*, team: Team) -> list[dict]:
    """The team's ongoing sponsorships ({id, name, gained_at}), oldest first: from `team_api_queryset`'s
    folded rows when present (their dates parsed back from the JSON text), else one query."""
    rows = getattr(team, "sponsorship_rows", None)
    if rows is None and not hasattr(team, "sponsorship_rows"):
        return [
            {"id": s.pk, "name": s.name, "gained_at": s.gained_at}
            for s in team.sponsorships.all()
            if s.ended_at is None
        ]
    out = []
    for row in rows or ():
        gained = parse_datetime(row["gained_at"])
        out.append({"id": row["id"], "name": row["name"], "gained_at": _aware(gained)})
    return sorted(out, key=lambda s: (s["gained_at"], s["id"]))


def _aware(moment: dt.datetime) -> dt.datetime:
    # SQLite keeps UTC datetimes as naive text; PostgreSQL's JSON carries the offset.
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, dt.UTC)


def team_list_queryset(players: QuerySet[Player] | None = None) -> QuerySet[Team]:
    """Teams as a league's list shows them (roster, coach, treasury, players for the count and the team
    value): three queries for any number of teams — no injuries, sponsorships nor stadiums, which a list
    never shows. `players`: the players' queryset, when a caller reads fewer of their columns."""
    return (
        Team.objects.select_related("coach", "roster")
        .annotate(treasury=_latest_balance(LedgerEntry.Account.TREASURY))
        .prefetch_related(
            Prefetch("roster__positions", queryset=Position.objects.order_by("order", "id")),
            Prefetch(
                "players",
                queryset=(Player.objects.select_related("position") if players is None else players).order_by(
                    "number", "id"
                ),
            ),
        )
        .order_by("name", "id")
    )


#: What a team's value reads of a player (`team_state`), read as a row rather than a model instance.
class _PositionKey(NamedTuple):
    key: str


class _ValueRow(NamedTuple):
    pk: int
    position: _PositionKey
    status: str
    value: int
    role: str
    abilities: list


def league_team_states(*, league_id: int, **annotations) -> tuple[list[Team], dict[int, TeamState]]:
    """A league's teams (name order) with their treasuries and any `annotations` asked, and each one's
    plain-value state as the rules read it for its team value: three queries whatever the league's size (the
    teams with their rosters, the rosters' positions, and the players' columns the value reads, as rows). A
    leaderboard of 400 teams built 10,000 model instances (each player and his position) for a few numbers
    each; read as rows the same takes a fraction of the time."""
    teams = list(
        Team.objects.filter(league_id=league_id)
        .select_related("roster")
        .annotate(treasury=_latest_balance(LedgerEntry.Account.TREASURY), **annotations)
        .prefetch_related(Prefetch("roster__positions", queryset=Position.objects.order_by("order", "id")))
        .order_by("name", "id")
    )
    by_team: dict[int, list[_ValueRow]] = {t.pk: [] for t in teams}
    rows = (
        Player.objects.filter(team__league_id=league_id)
        .order_by("number", "id")
        .values_list("id", "team_id", "position__key", "status", "value", "role", "abilities")
    )
    for pk, team_id, position, status, value, role, abilities in rows:
        if team_id in by_team:
            by_team[team_id].append(_ValueRow(pk, _PositionKey(position), status, value, role, abilities))
    specs = {t.roster_id: t.roster.spec() for t in teams}
    states = {t.pk: team_state(team=t, players=by_team[t.pk], roster=specs[t.roster_id]) for t in teams}
    return teams, states


def team_step_queryset(*, sponsorships: bool = True, positions: bool = True, players: bool = True) -> QuerySet[Team]:
    """A team as a post-match step or a confirmation reads it: its balances, roster positions, players and
    sponsorships (each unless told not to: a step loads only what it reads) in a fixed number of queries — and
    not the players' injury history (team_queryset's per-match rows grow with every match played; a step never
    reads them)."""
    teams = _team_with_players(positions=positions, players=players)
    # (Ordered by date alone: the model's default order starts with the team, a join to the league's name.)
    return (
        teams.prefetch_related(Prefetch("sponsorships", queryset=Sponsorship.objects.order_by("gained_at", "id")))
        if sponsorships
        else teams
    )


def team_parts_load(*, team: Team, positions: bool, players: bool, sponsorships: bool) -> None:
    """Prefetch onto a team loaded bare (`team_step_queryset` with every part off) the parts a step reads: one
    query each, as `team_step_queryset` would have read them."""
    prefetches = [Prefetch("roster__positions", queryset=_positions_in_order())] if positions else []
    if players:
        prefetches.append(Prefetch("players", queryset=_players_in_order()))
    if sponsorships:
        prefetches.append(Prefetch("sponsorships", queryset=Sponsorship.objects.order_by("gained_at", "id")))
    if prefetches:
        prefetch_related_objects([team], *prefetches)


def _players_in_order() -> QuerySet[Player]:
    return Player.objects.select_related("position").order_by("number", "id")


def team_players_reload(*, team: Team) -> None:
    """Read the team's players again into its prefetched list (one query), after a write changed them; and its
    roster's positions when they were not read yet (one more)."""
    getattr(team, "_prefetched_objects_cache", {}).pop("players", None)
    prefetch_related_objects([team], Prefetch("players", queryset=_players_in_order()))
    if "positions" not in getattr(team.roster, "_prefetched_objects_cache", {}):
        prefetch_related_objects([team.roster], Prefetch("positions", queryset=_positions_in_order()))


# A player's injuries are facts of the matches he played: the per-match rows the matches app keeps, a layer
# above teams (dugout/layers.py). Teams never imports matches; MatchesConfig.ready() lends its reader here
# (docs/decisions/, 2026-12-01 "Imports between the domain apps run one way").
_injury_source: dict[str, Callable] = {}


def player_injuries_source(*, prefetch: Callable[[], Prefetch], read: Callable[[Player], list[dict]]) -> None:
    """Where a player's injuries come from: `prefetch()` is a Prefetch onto a team's players (to_attr
    `injury_rows`), `read(player)` his injuries from it. Set once at start-up by the matches app."""
    _injury_source.update(prefetch=prefetch, read=read)


def _injury_prefetches() -> tuple[Prefetch, ...]:
    return (_injury_source["prefetch"](),) if _injury_source else ()


def player_injuries(*, player: Player) -> list[dict]:
    """A player's injuries from the matches he played (matches.selectors.player_injuries: the source of truth
    is his per-match rows). Uses team_queryset's prefetch when present."""
    return _injury_source["read"](player) if _injury_source else []


def team_balance(*, team: Team, account: str = LedgerEntry.Account.TREASURY) -> int:
    """An account's balance: its last entry's running balance (0 before any entry)."""
    entry = team.ledger.filter(account=account).order_by("-sequence").first()
    return entry.balance_after if entry else 0


def team_treasury(*, team: Team) -> int:
    """The treasury balance."""
    return team_balance(team=team)


def _treasury_of(team: Team) -> int:
    annotated = getattr(team, "treasury", None)
    return team_treasury(team=team) if annotated is None else annotated


def team_state(
    *,
    team: Team,
    treasury: int | None = None,
    players: Iterable[Player] | None = None,
    roster: RosterSpec | None = None,
) -> TeamState:
    """The plain-value team the rules read. Uses prefetched players and positions when present; a caller that
    loaded them itself (a list of the team's players, its roster's spec built once for many teams) passes them."""
    return TeamState(
        roster=team.roster.spec() if roster is None else roster,
        players=tuple(
            PlayerState(
                id=p.pk,
                position=p.position.key,
                status=p.status,
                value=p.value,
                role=p.role,
                abilities=len(p.abilities),
            )
            for p in (team.players.all() if players is None else players)
        ),
        staff=dict(team.staff),
        rerolls=team.rerolls,
        fan_factor=team.fan_factor,
        treasury=_treasury_of(team) if treasury is None else treasury,
        in_creation=team.in_creation,
    )


def team_value(*, team: Team) -> int | None:
    return team.league.rules.team_value(team_state(team=team), team.league.house_rules)


def roster_players(*, team: Team) -> list[Player]:
    """Players on the team sheet (not fired, not yet removed to the memorial), in shirt-number order."""
    return [p for p in team.players.all() if p.left_at is None]


def race_rosters(*, ruleset: str) -> dict[str, Roster]:
    """The ruleset's races by roster key (one query). A player carries his own race's health template:
    a Halfling team's Elite Elf keeps the Elves' (R)."""
    return {r.key: r for r in Roster.objects.filter(ruleset=ruleset)}


def player_race(*, player: Player) -> str:
    """The race a player belongs to: his position's own (`race` in its data), else his team's roster."""
    return player.position.extra.get("race") or player.team.roster.key


def team_races(*, team: Team) -> dict[str, Roster]:
    """The races a ruleset's players belong to, when it tracks races (one query; none otherwise)."""
    return race_rosters(ruleset=team.roster.ruleset) if "race" in team.league.rules.player_fields else {}


def player_view(player: Player, *, races: dict[str, Roster]) -> PlayerView:
    """The plain-value player the post-match steps and the ruleset's sheet summary read."""
    race = player_race(player=player) if races else ""
    race_roster = races.get(race)
    return PlayerView(
        id=player.pk,
        name=player.name,
        number=player.number,
        position=player.position.key,
        status=player.status,
        spp=player.spp,
        skills=tuple(player.skills),
        attributes=dict(player.attributes),
        value=player.value,
        skill_access={k: tuple(v) for k, v in player.position.skill_access.items()},
        role=player.role,
        abilities=tuple(player.abilities),
        goal_points=player.goal_points,
        wounds=player.wounds,
        armour_used=player.armour_used,
        wound_areas=dict(player.wound_areas),
        conditions=tuple(dict(c) for c in player.conditions),
        elite=player.elite,
        matches_survived=player.matches_survived,
        race=race,
        health_template=dict(race_roster.extra.get("health_template", {})) if race_roster else {},
        equipment=dict(player.equipment),
    )
