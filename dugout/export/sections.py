"""The export's sections after its head, in the document's order (SECTIONS): each a writer of its JSON value
from the shared Context (the league, its teams' ids and the page sizes of this export)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from dugout.export.columns import (
    AUDIT_FIELDS,
    DISPUTE_FIELDS,
    HISTORY_FIELDS,
    LEDGER_FIELDS,
    MATCH_FIELDS,
    POSTMATCH_FIELDS,
    ROLL_FIELDS,
    SEASON_FIELDS,
    SIDE_FIELDS,
    columns,
    row_writer,
)
from dugout.export.divisions import divisions_section
from dugout.export.encoding import batches, json_array, json_object, pages
from dugout.export.schedules import schedules_section
from dugout.reports.services import report_url
from league.models import AuditEntry, League, Season
from league.selectors import league_queryset
from matches.models import Aftermath, Dispute, Inducement, Match, MatchTeam, PlayerMatch, Prematch, Roll
from matches.prematch import inducement_out, prematch_record
from matches.serializers import MatchOut
from teams.api import PlayerOut, TeamOut
from teams.models import LedgerEntry, Team
from teams.selectors import team_queryset


@dataclass(frozen=True)
class Limits:
    """An export's page sizes (dugout.export's CHUNK, ROLL_CHUNK, TEAM_CHUNK, REPORT_CHUNK, BATCH)."""

    chunk: int
    roll_chunk: int
    team_chunk: int
    report_chunk: int
    batch: int


class Context:
    """What the sections share: the league (read once), its teams' ids in the teams' order, the page sizes."""

    def __init__(self, league: League, limits: Limits):
        self.league = league_queryset().get(pk=league.pk)
        self.limits = limits
        self.team_ids = list(Team.objects.filter(league=league).order_by("name", "id").values_list("pk", flat=True))


def _reports(ctx: Context) -> Iterator[bytes]:
    """The weekly reports, newest first, each with its week's bounds and its sections as data."""
    rows = (
        ctx.league.reports.defer("chart_png")
        .order_by("-week_start", "-id")
        .iterator(chunk_size=ctx.limits.report_chunk)
    )
    return json_array((report_record(r) for r in rows), 1)


def report_record(report) -> dict:
    """A weekly report as the export records it."""
    return {
        "id": report.pk,
        "week": report.week,
        "season": report.season,
        "week_start": report.week_start.isoformat(),
        "week_end": report.week_end.isoformat(),
        "created_at": report.created_at.isoformat(),
        "url": report_url(report),
        "data": report.data,
    }


def _seasons(ctx: Context) -> Iterator[bytes]:
    """The league's seasons, oldest first, each with its champion (a team id) and frozen final table."""
    season_out = row_writer(SEASON_FIELDS)
    rows = Season.objects.filter(league=ctx.league).order_by("number").values_list(*columns(SEASON_FIELDS))
    return json_array((season_out(row) for row in rows.iterator(chunk_size=ctx.limits.chunk)), ctx.limits.batch)


def _audit(ctx: Context) -> Iterator[bytes]:
    """The league's audit, OLDEST first (a log read from its start; an import appends it in that order), the
    actor as a user id like every other user of the document."""
    entry_out = row_writer(AUDIT_FIELDS)
    rows = AuditEntry.objects.filter(league=ctx.league).order_by("at", "id").values_list(*columns(AUDIT_FIELDS))
    return json_array((entry_out(row) for row in rows.iterator(chunk_size=ctx.limits.chunk)), ctx.limits.batch)


#: The document's sections after its head, in order: (key, writer of its JSON value). A new section is one
#: more entry here and one in dugout.importer.SECTIONS, in the same place. The divisions come before the teams,
#: which name theirs; the schedules before the matches, which name their rounds.
SECTIONS: tuple[tuple[str, Callable[[Context], Iterator[bytes]]], ...] = (
    ("divisions", divisions_section),
    ("teams", lambda ctx: json_array(_teams(ctx), 1)),
    ("schedules", schedules_section),
    ("matches", lambda ctx: json_array(_matches(ctx), ctx.limits.batch // 10)),
    ("ledgers", lambda ctx: json_object(_ledgers(ctx), 1)),
    ("rolls", lambda ctx: json_array(_rolls(ctx), ctx.limits.batch)),
    ("reports", _reports),
    ("seasons", _seasons),
    ("audit", _audit),
)


def _teams(ctx: Context) -> Iterator[dict]:
    """Teams by name, read a page at a time, each player with his match rows in this league (match order)."""
    history_out = row_writer(HISTORY_FIELDS)
    serializer, player_out = TeamOut(context={}), PlayerOut(context={})
    league = ctx.league
    for page in pages(ctx.team_ids, ctx.limits.team_chunk):
        teams = list(team_queryset().filter(pk__in=page).order_by("name", "id"))
        for team in teams:
            # The league read once for all: its house rules (which the team value and every player's summary
            # read) are merged once, not once per team.
            team.league = league
        history: dict[int, list[tuple]] = defaultdict(list)
        # By the players' ids (the page's prefetched players): an index scan of the rows, where a join to the
        # players by team read the whole table for each page.
        players = [player.pk for team in teams for player in team.players.all()]
        rows = (
            PlayerMatch.objects.filter(match__league=league, player__in=players)
            .order_by("match_id")
            .values_list("player_id", *columns(HISTORY_FIELDS))
        )
        for row in rows:
            history[row[0]].append(row[1:])
        for team in teams:
            doc = serializer.to_representation(team)
            # Players who left (fired, dead, retired: the memorial) keep their match rows, which the matches'
            # results name: the export keeps them too, apart from the team sheet.
            former = [p for p in team.players.all() if p.left_at is not None]
            doc["former_players"] = [
                player_out.to_representation(_on(p, team)) | {"left_at": p.left_at.isoformat()}
                for p in sorted(former, key=lambda p: (p.left_at, p.pk))
            ]
            for player in (*doc["players"], *doc["former_players"]):
                player["history"] = [history_out(row) for row in history.get(player["id"], ())]
            yield doc


def _on(player, team):
    player.team = team  # already loaded: spare a query per player
    return player


def _matches(ctx: Context) -> Iterator[dict]:
    """Matches in the order they were made (created_at, id), read through one cursor a page at a time: each as
    MatchOut writes it, with its whole pre-match sequence and its inducements. Read as values (a match's journal
    and corrections are not read at all); 4 more queries a page."""
    league, chunk = ctx.league, ctx.limits.chunk
    steps = [s.key for s in league.rules.postmatch_steps]
    match_out, side_out, dispute_out = row_writer(MATCH_FIELDS), row_writer(SIDE_FIELDS), row_writer(DISPUTE_FIELDS)
    postmatch_out = row_writer(POSTMATCH_FIELDS)
    rows = Match.objects.filter(league=league).order_by("created_at", "id").values_list(*columns(MATCH_FIELDS))
    match_id = columns(MATCH_FIELDS).index("id")
    for page in batches(rows.iterator(chunk_size=chunk), chunk):
        ids = [row[match_id] for row in page]
        sides, aftermaths, inducements, disputes = (defaultdict(list) for _ in range(4))
        for side in (
            MatchTeam.objects.filter(match__in=ids)
            .order_by("match_id", "order")
            .values_list("match_id", *columns(SIDE_FIELDS))
        ):
            sides[side[0]].append(side[1:])
        for a in (
            Aftermath.objects.filter(match__in=ids)
            .order_by("team_id")
            .values_list("match_id", *columns(POSTMATCH_FIELDS))
        ):
            aftermaths[a[0]].append(postmatch_out(a[1:]))
        for d in (
            Dispute.objects.filter(match__in=ids)
            .order_by("created_at", "id")
            .values_list("match_id", *columns(DISPUTE_FIELDS))
        ):
            disputes[d[0]].append(dispute_out(d[1:]))
        prematches = {p.match_id: p for p in Prematch.objects.filter(match__in=ids)}
        for i in Inducement.objects.filter(match__in=ids).select_related("position").order_by("id"):
            inducements[i.match_id].append(inducement_out(i))
        for row in page:
            doc = match_out(row)
            pk = row[match_id]
            doc["sides"] = [side_out(side) for side in sides[pk]]
            doc["teams"] = [side["team"] for side in doc["sides"]]
            # The sides' order (home first), not the teams' ids: an imported league's ids run another way.
            order = {side["team"]: side["order"] for side in doc["sides"]}
            aftermaths[pk].sort(key=lambda a: order.get(a["team"], 0))
            doc["aftermath"] = [
                {"team": a["team"], "step": None if a["complete"] else steps[a["step_index"]]}
                | {"complete": a["complete"], "pending": bool(a["pending"])}
                for a in aftermaths[pk]
            ]
            prematch = prematches.get(pk)
            doc["prematch"] = prematch_record(prematch)
            yield {name: doc[name] for name in MatchOut.Meta.fields} | {
                "result_body": doc["result_body"],
                # The generated schedule's round it was made in (an id of the schedules' rounds), or null.
                "schedule_round": doc["schedule_round"],
                # The sequences' whole state (the brief `aftermath` and `prematch` above are MatchOut's): what an
                # import needs to resume them where they stand.
                "prematch_step": prematch.step_index if prematch else None,
                "postmatch": aftermaths[pk],
                "inducements": inducements[pk],
                "disputes": disputes[pk],
            }


def _ledgers(ctx: Context) -> Iterator[tuple[str, list[dict]]]:
    """Each team's entries (account, sequence order) by team id, the teams in the teams' order, read a page of
    teams at a time."""
    entry_out = row_writer(LEDGER_FIELDS)
    for page in pages(ctx.team_ids, ctx.limits.team_chunk):
        entries: dict[int, list] = defaultdict(list)
        rows = LedgerEntry.objects.filter(team__in=page).order_by("team_id", "account", "sequence")
        for row in rows.values_list("team_id", *columns(LEDGER_FIELDS)):
            entries[row[0]].append(row[1:])
        for team_id in page:
            yield str(team_id), [entry_out(entry) for entry in entries.get(team_id, ())]


def _rolls(ctx: Context) -> Iterator[dict]:
    """The league's rolls in id order, through one cursor read ROLL_CHUNK rows at a time."""
    roll_out = row_writer(ROLL_FIELDS)
    rows = Roll.objects.filter(league=ctx.league).order_by("id").values_list(*columns(ROLL_FIELDS))
    for row in rows.iterator(chunk_size=ctx.limits.roll_chunk):
        yield roll_out(row)
