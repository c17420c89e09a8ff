"""Reads of matches and the standings they make."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from django.db.models import OuterRef, Prefetch, QuerySet

from league.models import Division, League
from league.selectors import json_rows
from teams.models import Player, Position, Team

from . import lifecycle
from .models import Aftermath, Inducement, Match, MatchTeam, PlayerMatch, Roll
from .standings import cached_table


def match_queryset() -> QuerySet[Match]:
    return Match.objects.select_related("league", "stadium", "prematch").prefetch_related(
        Prefetch("sides", queryset=MatchTeam.objects.select_related("team").order_by("order")),
        Prefetch("aftermaths", queryset=Aftermath.objects.order_by("team_id")),
    )


#: What the league page's and the match lists' rows show of a match (the heavy JSON columns stay behind).
_LISTED = (
    "id",
    "league_id",
    "kind",
    "status",
    "created_at",
    "confirmed_at",
    "stadium__name",
    "round",
    "scheduled_for",
    "deadline",
)


def league_fixtures(*, league: League) -> QuerySet[Match]:
    """The league's matches still to be played or confirmed, soonest first (scheduled first: the
    `match_league_fixtures` index serves the order)."""
    return (
        Match.objects.filter(league=league, status__in=lifecycle.OPEN)
        .select_related("stadium")
        .only(*_LISTED)
        .order_by("created_at", "id")
    )


def league_results(*, league: League) -> QuerySet[Match]:
    """The league's final matches, latest confirmed first (the `match_league_results` index serves it)."""
    return (
        Match.objects.filter(league=league, status=Match.Status.FINAL)
        .select_related("stadium")
        .only(*_LISTED)
        .order_by("-confirmed_at", "-id")
    )


def match_lines(matches: Iterable[Match]) -> list[Match]:
    """`matches` with each one's `lines` — its sides with their teams, home first — in one query for all of
    them (a list page of 50, or the league page's two panels together)."""
    matches = list(matches)
    by_match: dict[int, list[MatchTeam]] = defaultdict(list)
    if matches:
        sides = MatchTeam.objects.filter(match_id__in=[m.pk for m in matches]).select_related("team")
        for side in sides.only("match_id", "order", "score", "team__id", "team__name").order_by("match_id", "order"):
            by_match[side.match_id].append(side)
    for m in matches:
        m.lines = by_match[m.pk]
    return matches


def league_panels(*, league: League, fixtures: int = 10, results: int = 10) -> tuple[list[Match], list[Match]]:
    """The league page's next `fixtures` and latest `results`, each match with its `lines`, in ONE query
    whatever the league's history: the sides of the matches the two bounded subqueries pick (each served by
    its index), with their matches and teams. A match always has its sides (`match_schedule` makes them)."""
    # One `IN (… UNION ALL …)` rather than two ORed INs: PostgreSQL plans the OR as a scan of every side
    # of every match; the union as two index reads and a join (docs/decisions/, 2026-12-01). Each sliced
    # pick is wrapped once more, as SQLite allows no LIMIT directly inside a compound statement.
    fixture_ids = league_fixtures(league=league).values("id")[:fixtures]
    result_ids = league_results(league=league).values("id")[:results]
    picked = (
        Match.objects.filter(pk__in=fixture_ids)
        .values("id")
        .order_by()
        .union(Match.objects.filter(pk__in=result_ids).values("id").order_by(), all=True)
    )
    fields = [f"match__{f}" for f in _LISTED] + ["match_id", "order", "score", "team__id", "team__name"]
    sides = MatchTeam.objects.filter(match_id__in=picked).select_related("match__stadium", "team").only(*fields)
    matches: dict[int, Match] = {}
    for side in sides.order_by("match_id", "order"):
        match = matches.setdefault(side.match_id, side.match)
        if not hasattr(match, "lines"):
            match.lines = []
        match.lines.append(side)
    final = Match.Status.FINAL
    upcoming = sorted((m for m in matches.values() if m.status != final), key=lambda m: (m.created_at, m.pk))
    played = [m for m in matches.values() if m.status == final]
    played.sort(key=lambda m: (m.confirmed_at or m.created_at, m.pk), reverse=True)
    return upcoming, played


def rank_standings(group: list[dict], breakers: list[str], head_to_head: dict[tuple[int, int], int]) -> list[dict]:
    """Order teams by the first breaker, then each group still level by the next ones (recursively).

    Head-to-head is a mini-table of the league points the level teams took off each other, so it stays
    well-defined when three or more teams are level (a pairwise comparison would not be transitive).
    """
    if len(group) <= 1 or not breakers:
        return group
    breaker, rest = breakers[0], breakers[1:]
    if breaker == "name":
        return sorted(group, key=lambda row: row["name"].lower())
    if breaker == "head_to_head":
        members = [row["team"] for row in group]
        key = {row["team"]: sum(head_to_head[(row["team"], other)] for other in members) for row in group}
    elif breaker in ("touchdown_difference", "goal_difference"):
        key = {row["team"]: row["difference"] for row in group}
    else:
        key = {row["team"]: row.get(breaker, 0) for row in group}
    ranked: list[dict] = []
    for value in sorted({key[row["team"]] for row in group}, reverse=True):
        ranked += rank_standings([row for row in group if key[row["team"]] == value], rest, head_to_head)
    return ranked


#: An inducement's columns as the match report folds them into its match's row (`match_inducements`).
_INDUCEMENT_FIELDS = ("id", "team_id", "item", "quantity", "position_id", "skill", "star", "price")


def match_report_queryset() -> QuerySet[Match]:
    """Everything a match report shows, in a fixed number of queries whatever the number of players and rolls:
    five — the match (its inducements folded in as JSON: a few rows, `match_inducements`), its sides, post-match
    sequences, rolls and player rows."""
    related = ("league", "stadium", "created_by", "submitted_by", "confirmed_by", "prematch")
    inducements = json_rows(
        Inducement.objects.filter(match=OuterRef("pk")),
        "match",
        position_name="position__name",
        **{field: field for field in _INDUCEMENT_FIELDS},
    )
    return (
        Match.objects.select_related(*related)
        .annotate(inducement_json=inducements)
        .prefetch_related(
            Prefetch("sides", queryset=MatchTeam.objects.select_related("team__coach", "mvp").order_by("order")),
            Prefetch("aftermaths", queryset=Aftermath.objects.order_by("team_id")),
            Prefetch("rolls", queryset=Roll.objects.select_related("rolled_by").order_by("id")),
            Prefetch("player_rows", queryset=PlayerMatch.objects.select_related("player")),
        )
    )


def match_inducements(match: Match) -> list:
    """The inducements `match_report_queryset` folded into `match`, as (unsaved) Inducement rows by id, each
    with its mercenary's position name — what the report reads of them."""
    rows = sorted(match.inducement_json or [], key=lambda row: row["id"])
    out = []
    for row in rows:
        inducement = Inducement(match=match, **{field: row[field] for field in _INDUCEMENT_FIELDS})
        if row["position_id"] is not None:
            inducement.position = Position(pk=row["position_id"], name=row["position_name"])
        out.append(inducement)
    return out


def league_standings(*, league: League) -> list[dict]:
    """R/H: league points from final results, ordered by the league's tie-breakers (default: points,
    touchdown difference, casualties inflicted, head-to-head, name).

    Cached per table version (matches/standings.py): no query when the table is cached, two whatever the league
    size when it is not. Exact as of the league row passed in — pass one loaded by this request."""
    tie_breakers = list(league.house_rules.get("tie_breakers", ["points", "touchdown_difference", "name"]))

    def compute() -> list[dict]:
        teams = Team.objects.filter(league=league).values_list("pk", "name")
        # The open season's table (a closed season's is frozen on its Season row).
        sides = MatchTeam.objects.filter(
            match__league=league, match__season=league.season, match__status=Match.Status.FINAL
        ).values("match_id", "team_id", "score", "casualties_inflicted", "outcome", "league_points")
        return standings_from(teams=list(teams), sides=sides, tie_breakers=tie_breakers)

    return cached_table(league=league, tie_breakers=tie_breakers, compute=compute)


def division_standings(*, league: League) -> list[dict]:
    """One table per division of the league, in the divisions' order — `[{id, name,
    order, rows}]`, each `rows` the division's teams ranked as `league_standings` ranks the league's (the same
    final sides of the open season, the same tie-breakers, head-to-head among the division's tied teams), and
    last, when some teams are in none, theirs (`id` None, "No division"). [] when the league has no divisions.
    Cached per table version beside the league's table (every division write renews the version): no query when
    cached, three at most when not."""
    tie_breakers = list(league.house_rules.get("tie_breakers", ["points", "touchdown_difference", "name"]))

    def compute() -> list[dict]:
        divisions = list(Division.objects.filter(league=league).values("id", "name", "order"))
        if not divisions:
            return []
        placed: dict[int | None, list[tuple[int, str]]] = defaultdict(list)
        for pk, name, division_id in Team.objects.filter(league=league).values_list("pk", "name", "division_id"):
            placed[division_id].append((pk, name))
        if placed[None]:  # the teams in no division still have a table, last
            divisions.append({"id": None, "name": "No division", "order": None})
        sides = list(
            MatchTeam.objects.filter(
                match__league=league, match__season=league.season, match__status=Match.Status.FINAL
            ).values("match_id", "team_id", "score", "casualties_inflicted", "outcome", "league_points")
        )
        return [
            {**d, "rows": standings_from(teams=placed[d["id"]], sides=sides, tie_breakers=tie_breakers)}
            for d in divisions
        ]

    return cached_table(league=league, tie_breakers=tie_breakers, compute=compute, variant="divisions")


def standings_from(
    *, teams: Iterable[tuple[int, str]], sides: Iterable[Mapping], tie_breakers: list[str]
) -> list[dict]:
    """The league table from final sides (the rows `league_standings` reads), ordered by the league's
    tie-breakers with `rank_standings` (also the weekly report's table as of a past moment)."""
    rows = {
        pk: {
            "team": pk,
            "name": name,
            "played": 0,
            "won": 0,
            "drawn": 0,
            "lost": 0,
            "points": 0,
            "scored": 0,
            "conceded": 0,
            "casualties_inflicted": 0,
        }
        for pk, name in teams
    }
    by_match: dict[int, list[Mapping]] = defaultdict(list)
    for side in sides:
        by_match[side["match_id"]].append(side)
    head_to_head: dict[tuple[int, int], int] = defaultdict(int)
    for match_sides in by_match.values():
        for side in match_sides:
            row = rows.get(side["team_id"])
            if row is None:
                continue
            others = [s for s in match_sides if s is not side]
            row["played"] += 1
            row[{"win": "won", "draw": "drawn", "loss": "lost"}.get(side["outcome"], "drawn")] += 1
            row["points"] += side["league_points"]
            row["scored"] += side["score"] or 0
            row["conceded"] += sum(s["score"] or 0 for s in others)
            row["casualties_inflicted"] += side["casualties_inflicted"]
            for other in others:
                head_to_head[(side["team_id"], other["team_id"])] += side["league_points"]
    for row in rows.values():
        row["difference"] = row["scored"] - row["conceded"]
    ordered = rank_standings(list(rows.values()), list(tie_breakers), head_to_head)
    for position, row in enumerate(ordered, start=1):
        row["position"] = position
    return ordered


def league_memorial(*, league: League) -> list[dict]:
    """R: dead players are listed in the league's memorial, with their record (one query)."""
    from django.db.models import Count, Exists, Max, OuterRef, Q, Sum

    from teams.models import Player

    from .models import PlayerMatch

    # R (ElfBall): a career-ending injury removes the player for good; he is remembered with the dead.
    career_ended = PlayerMatch.objects.filter(player=OuterRef("pk"), injury="career_ending")
    players = (
        Player.objects.filter(team__league=league)
        .annotate(ended=Exists(career_ended))
        .filter(Q(status=Player.Status.DEAD) | Q(status=Player.Status.RETIRED, left_at__isnull=False, ended=True))
        .select_related("team", "position")
        .annotate(
            matches=Count("match_rows"),
            touchdowns=Sum("match_rows__touchdowns"),
            casualties=Sum("match_rows__casualties"),
            last_match=Max("match_rows__match_id"),
        )
        .order_by("-last_match", "name")
    )
    return [
        {
            "player": p.pk,
            "name": p.name,
            "team": p.team_id,
            "team_name": p.team.name,
            "position": p.position.name,
            "spp": p.spp,
            "matches": p.matches,
            "touchdowns": p.touchdowns or 0,
            "casualties": p.casualties or 0,
            "died_in_match": p.last_match,
            "cause": "dead" if p.status == Player.Status.DEAD else "career_ending",
            "goal_points": p.goal_points,
            "matches_survived": p.matches_survived,
        }
        for p in players
    ]


def player_injury_rows() -> QuerySet[PlayerMatch]:
    """The per-match rows that carry an injury: the source of truth for a player's injuries."""
    from django.db.models import Q

    return PlayerMatch.objects.filter(~Q(injury="") | Q(detail__has_key="lasting")).order_by("match_id")


def player_injuries_prefetch() -> Prefetch:
    """The injury rows of a team's players in one query, for teams.selectors.team_queryset (lent at start-up
    by MatchesConfig.ready: teams sits below matches and does not import it)."""
    return Prefetch("players__match_rows", queryset=player_injury_rows(), to_attr="injury_rows")


def player_injuries(*, player: Player) -> list[dict]:
    """A player's injuries, from his per-match rows (the source of truth). Uses the prefetch when present.

    A row's `detail.lasting` (ElfBall) lists the lasting injuries the post-match sequence applied, with the
    attribute each lowered — the Grit outcome's, and a potion's seizure (listed as `seizure`)."""
    rows = getattr(player, "injury_rows", None)
    if rows is None:
        rows = list(player_injury_rows().filter(player=player))
    out = []
    for r in rows:
        lasting = r.detail.get("lasting")
        if r.injury and not (lasting is not None and r.injury == "lasting_injury"):
            out.append({"match": r.match_id, "injury": r.injury, "detail": r.injury_detail})
        for item in lasting or ():
            injury = "lasting_injury" if item["cause"] == "grit" else "seizure"  # a potion's (2) lasting injury
            out.append({"match": r.match_id, "injury": injury, "detail": item["attribute"]})
    return out
