"""`GET /api/v1/leagues/{id}/ratings/` (issue 14): the league's Elo ratings of teams and coaches (public; the
document league/ratings.py computes and caches per table version; documented in docs/api-v1-extensions.md)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from league.models import League
from league.ratings import league_ratings

from .lookup import object_or_404


class RatingPointOut(serializers.Serializer):
    match = serializers.IntegerField()
    rating = serializers.FloatField()


class TeamRatingOut(serializers.Serializer):
    team = serializers.IntegerField()
    name = serializers.CharField()
    coach = serializers.IntegerField(allow_null=True)
    rating = serializers.FloatField()
    matches = serializers.IntegerField()
    history = RatingPointOut(many=True)


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
    rating after each of its rated matches."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: RatingsOut, 404: OpenApiResponse(description="No such league.")})
    def get(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        return Response(league_ratings(league))
