"""The whole league as one JSON document (api-v1 `GET /leagues/{id}/export/`): league, house rules, teams
and players with their match history, matches with results and pre-match sequences, ledgers, rolls and
reports — built in a fixed number of queries whatever the league's size."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Prefetch
from django.utils import timezone

from league.api.serializers import LeagueOut
from league.models import League
from league.reports import report_url
from league.selectors import league_queryset
from matches.api import MatchOut, RollOut
from matches.models import Inducement, PlayerMatch, Roll
from matches.prematch import inducement_out
from matches.selectors import match_queryset
from teams.api import LedgerOut, TeamOut
from teams.models import LedgerEntry
from teams.selectors import team_queryset

ROW_FIELDS = (
    "touchdowns",
    "casualties",
    "completions",
    "interceptions",
    "mvp",
    "spp",
    "goal_points",
    "wounds",
    "injury",
    "injury_detail",
    "detail",
)


def league_export(*, league: League) -> dict:
    league = league_queryset().get(pk=league.pk)
    teams = list(team_queryset().filter(league=league).order_by("name", "id"))
    history: dict[int, list[dict]] = defaultdict(list)
    for row in (
        PlayerMatch.objects.filter(match__league=league)
        .order_by("match_id")
        .values("player_id", "match_id", *ROW_FIELDS)
    ):
        history[row.pop("player_id")].append(row)
    team_docs = TeamOut(teams, many=True, context={}).data
    for doc in team_docs:
        for player in doc["players"]:
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
        prematch = getattr(match, "prematch", None)
        doc["prematch"] = (
            {
                "complete": prematch.complete,
                "weather": prematch.weather or None,
                "fans": prematch.fans,
                "gate": sum(prematch.fans.values()) if prematch.fans else None,
                "fame": prematch.fame,
                "team_values": prematch.team_values,
                "induced": prematch.induced,
                "superior": prematch.superior_id,
                "underdog": prematch.underdog_id,
                "aggressor": prematch.aggressor_id,
                "terrain": prematch.terrain,
                "log": prematch.log,
            }
            if prematch is not None
            else None
        )
        doc["inducements"] = [inducement_out(i) for i in match.inducements.all()]
        match_docs.append(doc)
    ledgers: dict[str, list] = {str(t.pk): [] for t in teams}
    entries = list(LedgerEntry.objects.filter(team__league=league).order_by("team_id", "account", "sequence"))
    for entry, data in zip(entries, LedgerOut(entries, many=True).data, strict=True):
        ledgers.setdefault(str(entry.team_id), []).append(data)
    rolls = Roll.objects.filter(league=league).order_by("id")
    return {
        "exported_at": timezone.now().isoformat(),
        "league": LeagueOut(league).data,
        "house_rules": league.house_rules,
        "teams": team_docs,
        "matches": match_docs,
        "ledgers": ledgers,
        "rolls": RollOut(rolls, many=True).data,
        "reports": [
            {"id": r.pk, "week": r.week, "created_at": r.created_at.isoformat(), "url": report_url(r), "data": r.data}
            for r in league.reports.order_by("-week_start", "-id")
        ],
    }
