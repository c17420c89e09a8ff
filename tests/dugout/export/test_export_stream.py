"""api-v1 `GET /leagues/{id}/export/` streamed: the same document as the whole-in-memory export wrote, read
in pages, so its queries grow with the pages and never with the rows (docs/decisions/,
2026-12-01 "The export streams")."""

import json
from collections import defaultdict
from datetime import timedelta

from django.db import connection
from django.db.models import Prefetch
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.fields import DateTimeField

from dugout import export
from dugout.api.seasons import AuditOut, SeasonOut
from dugout.api.serializers import LeagueOut
from dugout.reports.services import report_url
from league.audit import audit_record
from league.models import League, LeagueReport, Season
from league.selectors import league_queryset
from matches.api import RollOut
from matches.models import Dispute, Inducement, Match, PlayerMatch, Prematch, Roll
from matches.prematch import inducement_out, prematch_record
from matches.selectors import match_queryset
from matches.serializers import MatchOut
from teams.api import LedgerOut, PlayerOut, TeamOut
from teams.models import LedgerEntry
from teams.selectors import team_queryset
from tests.dugout.export.test_export import export_doc, play, played_league
from tests.dugout.schedules.helpers import three_schedules


def in_memory_export(league) -> dict:
    """The export as it was built before it streamed (the whole document in memory): the reference."""
    league = league_queryset().get(pk=league.pk)
    teams = list(team_queryset().filter(league=league).order_by("name", "id"))
    history = defaultdict(list)
    for row in (
        PlayerMatch.objects.filter(match__league=league)
        .order_by("match_id")
        .values("player_id", "match_id", *export.ROW_FIELDS)
    ):
        history[row.pop("player_id")].append(row)
    team_docs = TeamOut(teams, many=True, context={}).data
    for team, doc in zip(teams, team_docs, strict=True):
        former = sorted((p for p in team.players.all() if p.left_at), key=lambda p: (p.left_at, p.pk))
        doc["former_players"] = [PlayerOut(p).data | {"left_at": p.left_at.isoformat()} for p in former]
        for player in (*doc["players"], *doc["former_players"]):
            player["history"] = history.get(player["id"], [])
    matches = list(
        match_queryset()
        .filter(league=league)
        .select_related("prematch")
        .prefetch_related(
            Prefetch("inducements", queryset=Inducement.objects.select_related("position").order_by("id"))
        )
        .order_by("created_at", "id")
    )
    match_docs = []
    for match, doc in zip(matches, MatchOut(matches, many=True).data, strict=True):
        doc["prematch"] = prematch_record(getattr(match, "prematch", None))
        doc["result_body"] = match.result_body
        doc["schedule_round"] = match.schedule_round_id
        # The export lists the post-match sequences in the sides' order (home first), not by team id, so an
        # imported league (whose ids run in the teams' order) exports them alike.
        order = {side["team"]: side["order"] for side in doc["sides"]}
        doc["aftermath"].sort(key=lambda a: order[a["team"]])
        prematch = getattr(match, "prematch", None)
        doc["prematch_step"] = prematch.step_index if prematch else None
        doc["postmatch"] = [
            {
                "team": a.team_id,
                "step_index": a.step_index,
                "complete": a.complete,
                "pending": a.pending,
                "log": a.log,
                "carry": a.carry,
                "journal": a.journal,
            }
            for a in sorted(match.aftermaths.all(), key=lambda a: order[a.team_id])
        ]
        doc["inducements"] = [inducement_out(i) for i in match.inducements.all()]
        doc["disputes"] = [
            {
                "raised_by": d.raised_by_id,
                "reason": d.reason,
                "created_at": DateTimeField().to_representation(d.created_at),
                "ruling": d.ruling,
                "ruled_by": d.ruled_by_id,
                "ruled_at": d.ruled_at and DateTimeField().to_representation(d.ruled_at),
                "ruling_reason": d.ruling_reason,
            }
            for d in match.disputes.order_by("created_at", "id")
        ]
        match_docs.append(doc)
    ledgers = {str(t.pk): [] for t in teams}
    entries = list(LedgerEntry.objects.filter(team__league=league).order_by("team_id", "account", "sequence"))
    for entry, data in zip(entries, LedgerOut(entries, many=True).data, strict=True):
        ledgers.setdefault(str(entry.team_id), []).append(data)
    rolls = Roll.objects.filter(league=league).order_by("id")
    return json.loads(
        json.dumps(
            {
                "league": LeagueOut(league).data,
                "house_rules": league.house_rules,
                # Issue 13: the divisions in their order, before the teams that name them.
                "divisions": list(league.divisions.order_by("order", "name", "id").values("id", "name", "order")),
                "teams": team_docs,
                # Issue 13: the generated schedules, each with its rounds (its creator as his id).
                "schedules": [
                    {
                        "id": sc.pk,
                        "season": sc.season,
                        "format": sc.format,
                        "legs": sc.legs,
                        "days_per_round": sc.days_per_round,
                        "start": sc.start.isoformat(),
                        "teams": sc.teams,
                        "withdrawn": sc.withdrawn,
                        "created_by": sc.created_by_id,
                        "created_at": DateTimeField().to_representation(sc.created_at),
                        "rounds": [
                            {
                                "id": r.pk,
                                "number": r.number,
                                "starts": r.starts.isoformat(),
                                "deadline": r.deadline.isoformat(),
                                "kind": r.kind,
                                "byes": r.byes,
                                "slots": r.slots,
                            }
                            for r in sc.rounds.order_by("number")
                        ],
                    }
                    for sc in league.schedules.order_by("season", "id")
                ],
                "matches": match_docs,
                "ledgers": ledgers,
                "rolls": RollOut(rolls, many=True).data,
                "reports": [
                    {
                        "id": r.pk,
                        "week": r.week,
                        "season": r.season,
                        "week_start": r.week_start.isoformat(),
                        "week_end": r.week_end.isoformat(),
                        "created_at": r.created_at.isoformat(),
                        "url": report_url(r),
                        "data": r.data,
                    }
                    for r in league.reports.order_by("-week_start", "-id")
                ],
                "seasons": [
                    {
                        k: v
                        for k, v in (SeasonOut(s).data | {"final_table": s.final_table}).items()
                        if k not in ("id", "champion_name")
                    }
                    for s in league.seasons.order_by("number")
                ],
                # Oldest first, the actor as his id.
                "audit": [
                    {k: v for k, v in AuditOut(e).data.items() if k != "id"} | {"actor": e.actor_id}
                    for e in league.audit_entries.order_by("at", "id")
                ],
            },
            default=str,
        )
    )


def busy_league(api_as, commissioner, coaches, teams=10, matches=5):
    """A league of `teams` teams of which the first 2 × `matches` played a match each, with rolls and two weekly
    reports; two of the matches made in the same instant (a page boundary between them must lose or repeat
    neither)."""
    league, built = played_league(commissioner, coaches, teams)
    ids = [play(api_as, league, built[2 * i], built[2 * i + 1], commissioner)[0] for i in range(matches)]
    same = Match.objects.get(pk=ids[0]).created_at
    Match.objects.filter(pk__in=ids[:2]).update(created_at=same)
    for i in range(7):
        Roll.objects.create(
            league=league,
            match_id=ids[i % matches],
            team=built[0],
            key=f"k{i}",
            expression="2d6",
            values=[i, 1],
            entered=i % 2 == 0,
        )
    if matches >= 3:  # a pre-match sequence with its inducements, as the pre-match steps leave them
        home, away = built[4], built[5]
        Prematch.objects.create(
            match_id=ids[2], weather="blizzard", fans={str(home.pk): 10_000, str(away.pk): 5_000}, superior=home
        )
        mercenary = home.roster.positions.order_by("id").first()
        Inducement.objects.create(match_id=ids[2], team=away, item="keg", price=5_000)
        Inducement.objects.create(match_id=ids[2], team=away, item="mercenary", position=mercenary, price=60_000)
    now = timezone.now()
    for w in (1, 2):
        LeagueReport.objects.create(
            league=league,
            week=f"2026-W{w:02}",
            week_start=now + timedelta(weeks=w),
            week_end=now,
            data={"w": w},
            html="",
        )
    # Issue 13: a dispute ruled and one open, a player gone to the memorial, a closed season, two audit entries.
    Dispute.objects.create(
        match_id=ids[0],
        raised_by=built[1].coach,
        reason="wrong score",
        ruling="rejected",
        ruled_by=commissioner,
        ruled_at=now,
        ruling_reason="as played",
    )
    Dispute.objects.create(match_id=ids[0], raised_by=built[1].coach, reason="still wrong")
    built[0].players.filter(number=11).update(status="dead", left_at=now)
    Season.objects.filter(league=league, number=1).update(
        status="closed", closed_at=now, champion=built[0], final_table=[{"position": 1, "team": built[0].pk}]
    )
    Season.objects.create(league=league, number=2, name="Second", started_at=now)
    League.objects.filter(pk=league.pk).update(season=2)
    for reason in ("first", "second"):
        audit_record(
            league=league, actor=commissioner, action="season", target="season 2", after={"n": 2}, reason=reason
        )
    return league


def test_the_streamed_export_equals_the_in_memory_document_across_many_pages(
    api, api_as, commissioner, coach, other_coach, monkeypatch
):
    league = busy_league(api_as, commissioner, [coach, other_coach])
    three_schedules(league, commissioner)
    reference = in_memory_export(league)
    for chunk, team_chunk in ((500, 50), (2, 1), (1, 3), (3, 4)):
        monkeypatch.setattr(export, "CHUNK", chunk)
        monkeypatch.setattr(export, "TEAM_CHUNK", team_chunk)
        doc = export_doc(api, league.pk)
        assert list(doc) == [
            "exported_at",
            "league",
            "house_rules",
            "divisions",
            "teams",
            "schedules",
            "matches",
            "ledgers",
            "rolls",
            "reports",
            "seasons",
            "audit",
        ]
        doc.pop("exported_at")
        assert doc == reference, (chunk, team_chunk)
        assert list(doc["ledgers"]) == list(reference["ledgers"])
    # Issue 13: the schedules, oldest first, with their rounds; the matches name their rounds.
    assert [sc["format"] for sc in reference["schedules"]] == ["round_robin", "knockout", "swiss"]
    rounds = {r["id"] for sc in reference["schedules"] for r in sc["rounds"]}
    assert {m["schedule_round"] for m in reference["matches"]} - {None} <= rounds
    scheduled = [m for m in reference["matches"] if m["schedule_round"]]
    reference["matches"] = [m for m in reference["matches"] if not m["schedule_round"]]
    assert len(scheduled) == 9 and reference["schedules"][0]["withdrawn"]  # 10 - 4 withdrawn, 2 and 1
    assert len(reference["matches"]) == 5 and len(reference["rolls"]) == 7 and len(reference["reports"]) == 2
    (induced,) = [m for m in reference["matches"] if m["inducements"]]
    assert induced["prematch"]["gate"] == 15_000 and len(induced["inducements"]) == 2
    # Issue 13: seasons oldest first, the audit oldest first, a match's disputes, the memorial's players.
    assert [(s["number"], s["status"]) for s in reference["seasons"]] == [(1, "closed"), (2, "open")]
    assert reference["seasons"][0]["champion"] == reference["teams"][0]["id"]
    assert [e["reason"] for e in reference["audit"]][:2] == ["first", "second"]  # then the schedules'
    assert [d["ruling"] for m in reference["matches"] for d in m["disputes"]] == ["rejected", ""]
    (gone,) = reference["teams"][0]["former_players"]
    assert gone["status"] == "dead" and gone["left_at"]
    # He played the matches before he died, named in no result: rows that record nothing else.
    assert gone["history"] and not any(h["touchdowns"] or h["spp"] or h["mvp"] for h in gone["history"])


def test_the_export_is_a_streamed_json_answer(api, api_as, commissioner, coach, other_coach, monkeypatch):
    league = busy_league(api_as, commissioner, [coach, other_coach], teams=4, matches=2)
    monkeypatch.setattr(export, "BUFFER", 10)
    response = api.get(f"/api/v1/leagues/{league.pk}/export/")
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"] == "application/json"
    pieces = list(response.streaming_content)
    assert len(pieces) > 10
    assert json.loads(b"".join(pieces))["league"]["id"] == league.pk


def test_an_unknown_league_has_no_export(api, db):
    assert api.get("/api/v1/leagues/999999/export/").status_code == 404


def queries_of_export(client, league_id: int) -> int:
    with CaptureQueriesContext(connection) as ctx:
        export_doc(client, league_id)
    return len(ctx.captured_queries)


def test_the_export_costs_the_same_queries_for_a_small_or_a_large_league_within_one_page(
    api, api_as, commissioner, coach, other_coach
):
    small = busy_league(api_as, commissioner, [coach, other_coach], teams=2, matches=1)
    large = busy_league(api_as, commissioner, [coach, other_coach], teams=12, matches=5)
    assert queries_of_export(api, small.pk) == queries_of_export(api, large.pk)


def test_the_export_queries_grow_with_its_pages_not_its_rows(
    api, api_as, commissioner, coach, other_coach, monkeypatch
):
    leagues = [busy_league(api_as, commissioner, [coach, other_coach], teams=10, matches=n) for n in (1, 3, 5)]
    monkeypatch.setattr(export, "CHUNK", 2)
    # 1, 3 and 5 matches are 1, 2 and 3 pages of 2: each page costs the same fixed number of queries.
    one, two, three = (queries_of_export(api, league.pk) for league in leagues)
    assert three - two == two - one > 0
    # Within a page, rows cost nothing: 3 matches of a page of 500 cost what 1 does.
    monkeypatch.setattr(export, "CHUNK", 500)
    assert queries_of_export(api, leagues[1].pk) == queries_of_export(api, leagues[0].pk)


def test_the_export_keeps_json_numbers_past_64_bits_and_dates_in_the_current_time_zone(
    api, api_as, commissioner, coach, other_coach
):
    """JSON columns are read as text (orjson unless 19 digits in a row may be an integer past 64 bits, which it
    would read as a float) and datetimes as the database's text: the document stays the serializers'."""
    league = busy_league(api_as, commissioner, [coach, other_coach], teams=4, matches=2)
    match = Match.objects.filter(league=league).order_by("id").first()
    huge, negative = 2**70, -(2**63) - 1
    Match.objects.filter(pk=match.pk).update(result={**match.result, "huge": huge, "negative": negative, "f": 1e-05})
    Roll.objects.filter(league=league).update(values=[2**64])  # 22 characters: past the short-text shortcut
    for zone in ("UTC", "Asia/Kolkata"):
        with timezone.override(zone):
            reference = in_memory_export(league)
            doc = export_doc(api, league.pk)
        doc.pop("exported_at")
        assert doc == reference, zone
    (exported,) = [m for m in doc["matches"] if m["id"] == match.pk]
    assert (exported["result"]["huge"], exported["result"]["negative"]) == (huge, negative)
    assert {tuple(r["values"]) for r in doc["rolls"]} == {(2**64,)}
    assert exported["created_at"].endswith("+05:30")
