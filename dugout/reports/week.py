"""Everything the weekly report reads, loaded once, in a fixed number of queries whatever the league size
(nothing is queried in a loop), and read by the week's activity and the league's size, not the season's length:

- the teams and their players (rows: `PlayerRow`), for names, the memorial and the team values now;
- results, the headline, team-value movers: the week's final sides (`MatchTeam`); the table at the week's end
  and a week ago are the league's cached table now without the week's sides (and any later ones), with
  head-to-head read only for the teams level before it (`head_to_head`); the chart reads its ten teams' sides
  (`value_sides`), a team leaderboard its teams' sums (`team_sums`);
- player scorers, MVPs, deaths, injuries, wounds: the week's per-player match rows (`PlayerMatch`), and each
  player's season totals (his season's tally, `matches.tally`: a row a player, however long the season);
- improvements: each post-match sequence's journal (`Aftermath.journal`) and the matches' own journals;
- gil (a game whose economy is gil): the ledger entries made in the week and the league's stadiums;
- fixtures: the sides of scheduled matches.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import F, IntegerField, Prefetch, Q, Sum, TextField
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast, Coalesce

from matches.models import Aftermath, Match, MatchTeam, PlayerMatch
from matches.tally import TALLIED, season_tallies
from teams.models import LedgerEntry, Player, Position, Sponsorship
from teams.selectors import team_queryset, team_state

#: The side columns a table counts (`matches.selectors.standings_from`).
STANDING_COLUMNS = ("match_id", "team_id", "score", "casualties_inflicted", "outcome", "league_points")

#: The season's periods the report sums: confirmed before the week (or with no moment), or by its end.
BEFORE, END = 0, 1


#: The player columns the report reads (`PlayerRow`'s fields, in the query's order).
PLAYER_COLUMNS = (
    "id",
    "team_id",
    "position_id",
    "name",
    "number",
    "role",
    "status",
    "value",
    "spp",
    "goal_points",
    "matches_survived",
    "elite",
    "abilities",
)
#: Read as their JSON text and decoded when read (`PlayerRow.attributes`, `.skills`): only an improvement
#: compares them, for the few players a week improves.
PLAYER_TEXT_COLUMNS = ("attributes", "skills")


_PLAYER_FIELDS = (*PLAYER_COLUMNS, *(f"{name}_text" for name in PLAYER_TEXT_COLUMNS), "position")


class PlayerRow(NamedTuple("PlayerColumns", [(name, Any) for name in _PLAYER_FIELDS])):
    """A player as the report reads him: `PLAYER_COLUMNS`, `PLAYER_TEXT_COLUMNS` and his position (a shared
    `Position`) — what `team_state` and the sections read of a `Player`, without a model instance and its other
    JSON fields."""

    __slots__ = ()

    @property
    def attributes(self) -> dict:
        return json.loads(self.attributes_text)

    @property
    def skills(self) -> list:
        return json.loads(self.skills_text)

    @property
    def pk(self) -> int:
        return self.id


class Week:
    """Everything the report reads, loaded once."""

    def __init__(self, league, start: datetime, end: datetime, season: int | None = None):
        self.league, self.start, self.end = league, start, end
        #: The season the report is of (default the open one): every match it reads is of it.
        self.season = league.season if season is None else season
        self.rules, self.hr = league.rules, league.house_rules
        self.words = self.rules.words
        self.gil = self.rules.economy == "gil"
        final = {"match__league": league, "match__season": self.season, "match__status": Match.Status.FINAL}

        # Teams with their rosters, treasuries and sponsorships (plain lists, `to_attr`: a managed prefetch
        # builds a queryset per team and relation); each roster is one row shared by its teams, its positions
        # read once. The players (dead and departed included) are read as rows, not models (`PlayerRow`): at 400
        # teams their 5,000 model instances, each decoding seven JSON fields, were a third of the report's time.
        self.teams = list(
            team_queryset()
            .filter(league=league)
            .order_by("name", "pk")
            .select_related(None)
            .prefetch_related(None)
            .prefetch_related(
                "roster",
                Prefetch("roster__positions", queryset=Position.objects.order_by("order", "id")),
                Prefetch(
                    "sponsorships", queryset=Sponsorship.objects.order_by("gained_at"), to_attr="sponsorship_list"
                ),
            )
        )
        self.team_by_id = {t.pk: t for t in self.teams}
        rows = list(
            Player.objects.filter(team__league=league)
            .order_by("number", "id")
            .values_list(*PLAYER_COLUMNS, *(Cast(name, TextField()) for name in PLAYER_TEXT_COLUMNS))
        )
        # The players' positions are their rosters' (prefetched), but for a player of another race's position
        # (a Halfling team's Elite Elf): those are read, only when there are any.
        positions = {p.pk: p for t in self.teams for p in t.roster.positions.all()}
        if missing := {row[2] for row in rows} - positions.keys():
            positions |= Position.objects.in_bulk(missing)
        by_team: dict[int, list[PlayerRow]] = {t.pk: [] for t in self.teams}
        for row in rows:
            by_team[row[1]].append(PlayerRow(*row, positions[row[2]]))
        self.players: dict[int, PlayerRow] = {p.pk: p for t in self.teams for p in by_team[t.pk]}
        specs = {t.roster_id: t.roster.spec() for t in self.teams}
        self.value_now = {
            t.pk: self.rules.team_value(team_state(team=t, players=by_team[t.pk], roster=specs[t.roster_id]), self.hr)
            for t in self.teams
        }
        self.has_value = any(v is not None for v in self.value_now.values())

        # The week's final sides, in the order the matches became final (the results, the headline, the movers;
        # the table a week ago is the table now without them). The season's other sides are not read: at 400
        # teams they were 20,000 rows decoded to count the table a week ago.
        self.week_sides = list(
            MatchTeam.objects.filter(**final, match__confirmed_at__gte=start, match__confirmed_at__lt=end)
            .order_by("match__confirmed_at", "match_id", "order")
            .values(
                "match_id",
                "team_id",
                "order",
                "score",
                "casualties_inflicted",
                "outcome",
                "league_points",
                "placing",
                "eliminations",
                "conceded",
                "conceded_early",
                confirmed_at=F("match__confirmed_at"),
                kind=F("match__kind"),
                event=F("match__event"),
                stadium=F("match__stadium__name"),
                team_value=KeyTransform("team_value", "snapshot"),
            )
        )
        self.week_match_ids = list(dict.fromkeys(s["match_id"] for s in self.week_sides))
        # The sides of matches confirmed after the week, read only when there are any (a week's report
        # regenerated later): the table at the week's end is the table now without them.
        self.later_sides: list[dict] = []

        # The week's player rows.
        self.rows = list(
            PlayerMatch.objects.filter(**final, match__confirmed_at__gte=start, match__confirmed_at__lt=end)
            .order_by("match__confirmed_at", "match_id", "team_id", "player_id")
            .values(
                "match_id",
                "team_id",
                "player_id",
                "touchdowns",
                "casualties",
                "mvp",
                "spp",
                "goal_points",
                "wounds",
                "injury",
                "injury_detail",
                "detail",
            )
        )
        # The journals of the week's matches and of every later one (a change's "after" may be found there).
        self.journal_matches = list(
            Match.objects.filter(league=league, season=self.season, status=Match.Status.FINAL, confirmed_at__gte=start)
            .order_by("confirmed_at", "id")
            .values("id", "journal", "confirmed_at")
        )
        self.later_matches = any(m["confirmed_at"] >= end for m in self.journal_matches)
        if self.later_matches:
            self.later_sides = list(
                MatchTeam.objects.filter(**final, match__confirmed_at__gte=end).values(*STANDING_COLUMNS)
            )
        # Each player's season up to the week's end: his season's tally (a row a player, kept by the confirming
        # and correcting transactions: matches/tally.py), less the rows of any match confirmed after the week.
        self.season_rows = season_tallies(league_id=league.pk, season=self.season)
        if self.later_matches:
            later = PlayerMatch.objects.filter(**final, match__confirmed_at__gte=end).values("player_id", *TALLIED)
            for row in later:
                blank = {"player_id": row["player_id"], "matches": 0, **dict.fromkeys(TALLIED, 0)}
                tally = self.season_rows.setdefault(row["player_id"], blank)
                tally["matches"] -= 1
                for name in TALLIED:
                    tally[name] -= row[name]
        self.aftermaths = list(
            Aftermath.objects.filter(**final, match__confirmed_at__gte=start)
            .order_by("match_id", "team_id")
            .values("match_id", "team_id", "journal")
        )
        # The gil: the week's ledger entries and the league's stadiums.
        self.ledger: list[dict] = []
        self.stadiums: dict[int, str] = {}
        if self.gil:
            self.ledger = list(
                LedgerEntry.objects.filter(team__league=league, created_at__gte=start, created_at__lt=end)
                .order_by("created_at", "team_id", "account", "sequence")
                .values("team_id", "account", "amount", "kind", "reason", "match_id")
            )
            self.stadiums = dict(league.stadiums.values_list("pk", "name"))
        # The fixtures: every side of a scheduled match.
        self.fixture_sides = list(
            MatchTeam.objects.filter(
                match__league=league, match__season=self.season, match__status=Match.Status.SCHEDULED
            )
            .order_by("match__created_at", "match_id", "order")
            .values(
                "match_id",
                "team_id",
                kind=F("match__kind"),
                event=F("match__event"),
                stadium=F("match__stadium__name"),
                created_at=F("match__created_at"),
            )
        )

    # --- the season's history, read only as far as asked ----------------------------------------------------
    def _final_sides(self, period: int):
        """The league's final sides of `period`: BEFORE the week (or never confirmed), or to its END (not later)."""
        moment = self.start if period == BEFORE else self.end
        return MatchTeam.objects.filter(
            Q(match__confirmed_at__lt=moment) | Q(match__confirmed_at__isnull=True),
            match__league=self.league,
            match__season=self.season,
            match__status=Match.Status.FINAL,
        )

    def team_sums(self, field: str) -> dict[int, int]:
        """Each team's sum of a side field over the final sides to the week's end (one query, a row a team)."""
        sums = (
            self._final_sides(END)
            .order_by()
            .values("team_id")
            .annotate(total=Sum(Coalesce(field, 0, output_field=IntegerField())))
        )
        return {row["team_id"]: row["total"] for row in sums}

    def _team_sides(self, teams: set[int], *fields: str, **expressions) -> list[dict]:
        """The final sides of `teams` (with `fields`, `expressions` and their match's `confirmed_at`), unordered.
        Two queries, the teams' sides by the team index and then their matches by key: a join (or the sides'
        default ordering, which joins the match) let a planner without statistics (the benchmark's database is
        never analysed) loop over every final match of the league, or hash every league's (docs/decisions/)."""
        sides = list(
            MatchTeam.objects.filter(team_id__in=teams).order_by().values("match_id", "team_id", *fields, **expressions)
        )
        matches = Match.objects.filter(
            pk__in={s["match_id"] for s in sides}, season=self.season, status=Match.Status.FINAL
        )
        confirmed = dict(matches.order_by().values_list("pk", "confirmed_at"))
        return [{**s, "confirmed_at": confirmed[s["match_id"]]} for s in sides if s["match_id"] in confirmed]

    def head_to_head(self, period: int, teams: set[int]) -> dict[tuple[int, int], int]:
        """The league points each of `teams` took off each other in `period`'s final sides, as `standings_from`
        counts them (two queries, the sides of these teams only)."""
        until = self.start if period == BEFORE else self.end
        by_match: dict[int, list[dict]] = defaultdict(list)
        for side in self._team_sides(teams, "league_points"):
            if side["confirmed_at"] is None or side["confirmed_at"] < until:
                by_match[side["match_id"]].append(side)
        pairs: dict[tuple[int, int], int] = defaultdict(int)
        for sides in by_match.values():
            for side in sides:
                for other in sides:
                    if other is not side:
                        pairs[(side["team_id"], other["team_id"])] += side["league_points"]
        return pairs

    def value_sides(self, teams: set[int]) -> list[dict]:
        """The final sides of `teams` with the team value each kept before its match, in the order the matches
        became final (the chart's lines)."""
        sides = self._team_sides(teams, "order", team_value=KeyTransform("team_value", "snapshot"))
        # The order the database gives `ORDER BY confirmed_at`: a match never confirmed sorts where its NULL does.
        unconfirmed = (1,) if connection.features.nulls_order_largest else (-1,)
        sides.sort(
            key=lambda s: ((0, s["confirmed_at"]) if s["confirmed_at"] else unconfirmed) + (s["match_id"], s["order"])
        )
        return sides

    def closed_table(self) -> list[dict]:
        """The report's season's final table, frozen when it closed (one query; read only for a closed season)."""
        from league.models import Season

        frozen = Season.objects.filter(league=self.league, number=self.season).values_list("final_table", flat=True)
        return list(frozen.first() or [])

    # --- lookups ------------------------------------------------------------------------------------------------
    def team_name(self, team_id: int) -> str:
        team = self.team_by_id.get(team_id)
        return team.name if team else f"Team #{team_id}"

    def player_ref(self, player_id: int, team_id: int | None = None) -> dict:
        player = self.players.get(player_id)
        team = team_id if team_id is not None else (player.team_id if player else None)
        return {
            "player": player_id,
            "name": player.name if player else f"Player #{player_id}",
            "number": player.number if player else None,
            "team": team,
            "team_name": self.team_name(team) if team is not None else "",
        }
