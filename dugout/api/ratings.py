"""`GET /api/v1/leagues/{id}/ratings/`: the league's Elo ratings of teams and coaches (public; the
document dugout/ratings.py computes and caches per table version; documented in docs/api-v1-extensions.md)."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.lookup import object_or_404, path_id
from core.paging import page_number
from dugout.ratings import league_ratings, team_rating_history
from league.models import League


class RatingPointOut(serializers.Serializer):
    match = serializers.IntegerField()
    rating = serializers.FloatField()


class TeamRatingOut(serializers.Serializer):
    team = serializers.IntegerField()
    name = serializers.CharField()
    coach = serializers.IntegerField(allow_null=True)
    rating = serializers.FloatField()
    matches = serializers.IntegerField()
    history = RatingPointOut(many=True, help_text="The team's latest ratings (at most 20), oldest first.")
    history_count = serializers.IntegerField(help_text="How many rated matches the team's whole history has.")


class HistoryPageOut(serializers.Serializer):
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    count = serializers.IntegerField()


class TeamRatingHistoryOut(TeamRatingOut):
    history = RatingPointOut(many=True, help_text="The page's ratings, oldest first (50 a page).")
    history_page = HistoryPageOut()


class CoachRatingOut(serializers.Serializer):
    coach = serializers.IntegerField()
    username = serializers.CharField()
    rating = serializers.FloatField()
    matches = serializers.IntegerField()


class RatingsOut(serializers.Serializer):
    league = serializers.IntegerField()
    k = serializers.IntegerField()
    start = serializers.IntegerField()
    teams = TeamRatingOut(many=True)
    coaches = CoachRatingOut(many=True)


class RatingsView(APIView):
    """GET: every team's and coach's Elo rating, highest first (ties: more matches, then name), each team with its
    latest ratings (its whole history, paged: TeamRatingHistoryView)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: RatingsOut, 404: OpenApiResponse(description="No such league.")})
    def get(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        return Response(league_ratings(league))


class TeamRatingHistoryView(APIView):
    """GET: one team's rating row with its whole history after each rated match, oldest first, 50 a page."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[OpenApiParameter("page", OpenApiTypes.INT, description="The history's page (50 each).")],
        responses={
            200: TeamRatingHistoryOut,
            404: OpenApiResponse(description="No such league, or no such team in it."),
        },
    )
    def get(self, request, pk: int, team_id: int):
        league = object_or_404(League, pk=pk)
        raw = request.query_params.get("page", "1")
        body = team_rating_history(league, path_id(team_id), page=page_number(raw))
        if body is None:
            raise Http404("No such team in this league.")
        return Response(body)
