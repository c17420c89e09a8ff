"""Players and leaders (contract: api-v1 "Contract additions (v1.1)", "Players and leaders"; the CSV
forms of "Feeds, exports and webhooks"): thin views over league/players."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import renderers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.lookup import path_id
from core.csv import csv_bytes
from core.paging import page_number
from dugout.players.career import player_career, player_row
from dugout.players.leaders import leaders, league_row, parse_season, parse_stat, team_boards
from dugout.players.records import league_records
from league.models import League
from teams.api import PlayerOut


class CSVRenderer(renderers.BaseRenderer):
    """`?format=csv`: `text/csv` with a header row. A view answers its rows itself (`csv_response`); this
    renders what else DRF answers in that format (an error's fields) the same way."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        rows = data.get("rows", [data]) if isinstance(data, dict) else list(data or [])
        return csv_bytes(list(rows[0]) if rows else [], rows)


def csv_response(header: list[str], rows: list[dict], filename: str) -> HttpResponse:
    response = HttpResponse(csv_bytes(header, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


#: The renderers of a read that also answers `?format=csv`.
CSV_RENDERERS = [renderers.JSONRenderer, renderers.BrowsableAPIRenderer, CSVRenderer]

LEADER_COLUMNS = ["position", "player", "name", "team", "team_name", "value"]


def _league(pk) -> League:
    """The league as the leaders and records read it, or 404."""
    league = league_row(path_id(pk))
    if league is None:
        raise Http404("No such league.")
    return league


class PlayerDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("page", OpenApiTypes.INT, description="The history's page (25 matches each).")],
        responses={
            200: OpenApiResponse(
                description="The player as in a team, plus team, career {matches, ...stats}, seasons [{season, "
                "matches, ...stats}], history [{match, season, played_at, opponent, ...stats, injury}] (newest "
                "first, paged: history_page), gained [{kind, name, match}], value_over_time [{match, value}]"
            ),
            404: OpenApiResponse(description="No such player."),
        },
    )
    def get(self, request, pk: int):
        player = player_row(path_id(pk))
        if player is None:
            raise Http404("No such player.")
        page = request.query_params.get("page", "1")
        doc = player_career(player, page=page_number(page))
        data = PlayerOut(player, context={"request": request}).data
        team = player.team
        return Response({**data, "team": team.pk, "team_name": team.name, "league": team.league_id, **doc})


class LeadersView(APIView):
    permission_classes = [AllowAny]
    renderer_classes = CSV_RENDERERS

    @extend_schema(
        parameters=[
            OpenApiParameter("stat", OpenApiTypes.STR, required=True, description="A stat of the league's ruleset."),
            OpenApiParameter("season", OpenApiTypes.STR, description="A season's number, or `all` (default: open)."),
            OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv"], description="`csv`: text/csv."),
        ],
        responses={
            200: OpenApiResponse(
                description="{stat, season, rows: [{position, player, name, team, team_name, value}]}"
            ),
            400: OpenApiResponse(description="An unknown stat of the ruleset, or a season the league has not had."),
            404: OpenApiResponse(description="No such league."),
        },
    )
    def get(self, request, pk: int):
        league = _league(pk)
        asked = request.query_params
        stat = parse_stat(league, asked.get("stat"))
        season = parse_season(league, asked.get("season"))
        body = leaders(league, stat, season)
        if request.accepted_renderer.format == "csv":
            return csv_response(LEADER_COLUMNS, body["rows"], f"leaders-{league.pk}-{stat}-{body['season']}.csv")
        return Response(body)


class TeamLeadersView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("season", OpenApiTypes.STR, description="A season's number, or `all` (default: open)."),
        ],
        responses={
            200: OpenApiResponse(
                description="{season, boards: [{key, label, rows: [{position, team, name, value}]}]}: the teams' "
                "leaderboards the ruleset has, each the top 10"
            ),
            400: OpenApiResponse(description="A season the league has not had."),
            404: OpenApiResponse(description="No such league."),
        },
    )
    def get(self, request, pk: int):
        league = _league(pk)
        season = parse_season(league, request.query_params.get("season"))
        boards = [
            {
                "key": board["key"],
                "label": board["label"],
                "rows": [
                    {"position": n, "team": team.pk, "name": team.name, "value": value}
                    for n, (team, value) in enumerate(board["rows"], start=1)
                ],
            }
            for board in team_boards(league, season)
        ]
        return Response({"season": "all" if season is None else season, "boards": boards})


class RecordsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            200: OpenApiResponse(description="The league's records and hall of fame (docs/api-v1-extensions.md)."),
            404: OpenApiResponse(description="No such league."),
        },
    )
    def get(self, request, pk: int):
        league = _league(pk)
        return Response(league_records(league))
