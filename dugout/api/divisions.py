"""A league's divisions (docs/api-v1-extensions.md): thin views over teams/divisions.py.
The list is public; every write is the commissioner's (403 otherwise), audited, with an optional `reason`."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.errors import validated
from core.api.fields import TextField
from core.api.lookup import object_or_404
from league.models import Division, League
from league.models.divisions import NAME_LENGTH
from teams import divisions

FORBIDDEN = OpenApiResponse(description="Not a commissioner of this league.")
MISSING = OpenApiResponse(description="No such league (or no such division of it).")
REFUSED = OpenApiResponse(description="A field is missing or wrong (named in the answer).")
TAKEN = OpenApiResponse(description="The league already has a division of that name (or as many as it may).")


class DivisionOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    order = serializers.IntegerField()
    teams = serializers.ListField(child=serializers.IntegerField())


class DivisionIn(serializers.Serializer):
    name = TextField(max_length=NAME_LENGTH)
    order = serializers.IntegerField(required=False, min_value=0, max_value=999)
    reason = TextField(required=False, max_length=divisions.REASON_MAX)


class DivisionRenameIn(serializers.Serializer):
    name = TextField(max_length=NAME_LENGTH)
    reason = TextField(required=False, max_length=divisions.REASON_MAX)


class DivisionReasonIn(serializers.Serializer):
    reason = TextField(required=False, max_length=divisions.REASON_MAX)


class DivisionAssignIn(serializers.Serializer):
    division = serializers.IntegerField(allow_null=True, min_value=1)
    teams = serializers.ListField(child=serializers.IntegerField(min_value=1), allow_empty=False, max_length=1000)
    reason = TextField(required=False, max_length=divisions.REASON_MAX)


def _one(league: League, division_id: int) -> dict:
    return next(d for d in divisions.league_divisions(league=league) if d["id"] == division_id)


class DivisionListView(APIView):
    """GET (public): the league's divisions in their order with their teams. POST (commissioner) `{name, order?,
    reason?}`: a new division (201)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: DivisionOut(many=True), 404: MISSING})
    def get(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        return Response(divisions.league_divisions(league=league))

    @extend_schema(
        request=DivisionIn, responses={201: DivisionOut, 400: REFUSED, 403: FORBIDDEN, 404: MISSING, 409: TAKEN}
    )
    def post(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        data = validated(DivisionIn, request.data)
        made = divisions.division_create(user=request.user, league_id=league.pk, **data)
        return Response(_one(league, made.pk), status=status.HTTP_201_CREATED)


class DivisionDetailView(APIView):
    """PATCH (commissioner) `{name, reason?}`: rename the division. DELETE (commissioner, `{reason?}`): delete it;
    its teams fall back to no division (204)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        request=DivisionRenameIn,
        responses={200: DivisionOut, 400: REFUSED, 403: FORBIDDEN, 404: MISSING, 409: TAKEN},
    )
    def patch(self, request, pk: int, division_id: int):
        league = object_or_404(League, pk=pk)
        division = object_or_404(Division.objects.filter(league=league), pk=division_id)
        data = validated(DivisionRenameIn, request.data)
        divisions.division_rename(user=request.user, league_id=league.pk, division_id=division.pk, **data)
        return Response(_one(league, division.pk))

    @extend_schema(request=DivisionReasonIn, responses={204: None, 400: REFUSED, 403: FORBIDDEN, 404: MISSING})
    def delete(self, request, pk: int, division_id: int):
        league = object_or_404(League, pk=pk)
        division = object_or_404(Division.objects.filter(league=league), pk=division_id)
        data = validated(DivisionReasonIn, request.data)
        divisions.division_delete(user=request.user, league_id=league.pk, division_id=division.pk, **data)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DivisionAssignView(APIView):
    """POST (commissioner) `{division, teams, reason?}`: place the listed teams in the division (`division:
    null`: in none). Answers the league's divisions."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        request=DivisionAssignIn,
        responses={200: DivisionOut(many=True), 400: REFUSED, 403: FORBIDDEN, 404: MISSING},
    )
    def post(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        data = validated(DivisionAssignIn, request.data)
        divisions.division_assign(
            user=request.user,
            league_id=league.pk,
            division_id=data["division"],
            team_ids=data["teams"],
            reason=data.get("reason"),
        )
        return Response(divisions.league_divisions(league=league))
