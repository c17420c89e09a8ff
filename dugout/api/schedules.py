"""Generated schedules and the bracket (contract: docs api-v1 "Contract additions (v1.1)", Schedules;
extensions: docs/api-v1-extensions.md): thin views over matches/schedules.py."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.errors import validated
from core.api.fields import TextField
from core.api.lookup import object_or_404
from league.audit import REASON_MAX
from league.models import League
from matches import schedules
from matches.models import Schedule


class ScheduleIn(serializers.Serializer):
    format = serializers.ChoiceField(choices=Schedule.Format.values)
    teams = serializers.ListField(child=serializers.IntegerField(), required=False, allow_empty=False)
    legs = serializers.ChoiceField(choices=[1, 2], required=False, default=1)
    start = serializers.DateField(required=False)
    days_per_round = serializers.IntegerField(
        required=False, default=7, min_value=1, max_value=schedules.MAX_DAYS_PER_ROUND
    )
    from_standings = serializers.IntegerField(required=False, min_value=2)
    preview = serializers.BooleanField(required=False, default=False)
    per_division = serializers.BooleanField(required=False, default=False)
    division = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    divisions = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        allow_empty=False,
        max_length=16,
    )
    top = serializers.IntegerField(required=False, min_value=1, max_value=1000)
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON_MAX)


class ScheduleTeamIn(serializers.Serializer):
    team = serializers.IntegerField()
    format = serializers.ChoiceField(
        choices=[Schedule.Format.ROUND_ROBIN, Schedule.Format.SWISS], required=False, default="round_robin"
    )
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON_MAX)


class LateTeamIn(ScheduleTeamIn):
    from_round = serializers.IntegerField(required=False, min_value=1)


class RoundOut(serializers.Serializer):
    round = serializers.IntegerField()
    starts = serializers.DateField()
    deadline = serializers.DateField()
    kind = serializers.CharField()
    matches = serializers.ListField(child=serializers.JSONField())
    bye = serializers.IntegerField(allow_null=True)
    byes = serializers.ListField(child=serializers.IntegerField())


class ScheduleOut(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True)
    format = serializers.CharField()
    season = serializers.IntegerField(required=False)
    preview = serializers.BooleanField(required=False)
    rounds = RoundOut(many=True)


class BracketMatchOut(serializers.Serializer):
    id = serializers.IntegerField()
    teams = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()


class BracketRoundOut(serializers.Serializer):
    round = serializers.IntegerField()
    kind = serializers.CharField()
    starts = serializers.DateField()
    deadline = serializers.DateField()
    matches = BracketMatchOut(many=True)
    byes = serializers.ListField(child=serializers.IntegerField())


class BracketOut(serializers.Serializer):
    rounds = BracketRoundOut(many=True)
    champion = serializers.IntegerField(allow_null=True)
    seeds = serializers.ListField(child=serializers.IntegerField())


class ScheduleView(APIView):
    """GET (public): the open season's schedules with their rounds and matches. POST (commissioner): generate a
    round robin, a knockout's first round or a Swiss' next round — `preview: true` answers 200 and creates
    nothing, else 201 with the match ids."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=ScheduleOut(many=True))
    def get(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        listed = schedules.league_schedules(league=league)
        for schedule in listed:
            for rnd in schedule["rounds"]:
                rnd["starts"], rnd["deadline"] = rnd["starts"].isoformat(), rnd["deadline"].isoformat()
        return Response(listed)

    @extend_schema(
        request=ScheduleIn,
        responses={
            200: ScheduleOut,
            201: ScheduleOut,
            403: OpenApiResponse(description="Not a commissioner of this league."),
            409: OpenApiResponse(description="The season already has that schedule, or a Swiss round is unfinished."),
        },
    )
    def post(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        data = validated(ScheduleIn, request.data)
        answer = schedules.schedule_generate(
            user=request.user,
            league_id=league.pk,
            format=data["format"],
            start=data.get("start"),
            teams=data.get("teams"),
            legs=data["legs"],
            days_per_round=data["days_per_round"],
            from_standings=data.get("from_standings"),
            preview=data["preview"],
            per_division=data["per_division"],
            division=data.get("division"),
            divisions=data.get("divisions"),
            top=data.get("top"),
            reason=data["reason"],
        )
        return Response(answer, status=status.HTTP_200_OK if answer["preview"] else status.HTTP_201_CREATED)


class WithdrawView(APIView):
    """POST (commissioner) `{team, format?}`: the team leaves the round robin (or Swiss); its unplayed matches
    become byes for their opponents."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(request=ScheduleTeamIn, responses={200: ScheduleOut})
    def post(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        data = validated(ScheduleTeamIn, request.data)
        answer = schedules.schedule_withdraw(
            user=request.user, league_id=league.pk, team=data["team"], format=data["format"], reason=data["reason"]
        )
        return Response(answer)


class LateTeamView(APIView):
    """POST (commissioner) `{team, from_round?, format?}`: the team joins the round robin late (its matches
    added to the remaining rounds and, when needed, to rounds after the last) or the Swiss from its next round."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(request=LateTeamIn, responses={201: ScheduleOut})
    def post(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        data = validated(LateTeamIn, request.data)
        answer = schedules.schedule_add_team(
            user=request.user,
            league_id=league.pk,
            team=data["team"],
            from_round=data.get("from_round"),
            format=data["format"],
            reason=data["reason"],
        )
        return Response(answer, status=status.HTTP_201_CREATED)


class BracketView(APIView):
    """GET (public): the open season's knockout, round by round, each match with its winner, and the champion
    once the final is played."""

    @extend_schema(responses=BracketOut)
    def get(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        return Response(schedules.league_bracket(league=league))
