"""Seasons and the audit (contract: docs api-v1 "Contract additions (v1.1)"): thin views over
dugout/seasons.py and league/audit.py."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.errors import NotPermitted
from core.api.errors import validated
from core.api.fields import TextField
from core.api.lookup import object_or_404
from core.api.pagination import Pagination
from dugout.seasons import league_seasons, league_set_next_season_rules, season_start_next
from league.audit import REASON_MAX, league_audit
from league.models import AuditEntry, League, Season
from league.policy import may_run_league


class SeasonOut(serializers.ModelSerializer):
    champion_name = serializers.CharField(source="champion.name", default=None, read_only=True, allow_null=True)

    class Meta:
        model = Season
        fields = ["id", "number", "name", "status", "started_at", "closed_at", "champion", "champion_name"]


class SeasonIn(serializers.Serializer):
    name = TextField(max_length=100, required=False, allow_blank=True, default="")
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON_MAX)


class AuditOut(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.username", default=None, read_only=True)
    before = serializers.JSONField()
    after = serializers.JSONField()

    class Meta:
        model = AuditEntry
        fields = ["id", "at", "actor", "action", "target", "before", "after", "reason"]


class SeasonListView(APIView):
    """GET: the league's seasons, oldest first (public). POST (commissioner): close the open season (its final
    table and champion kept) and open the next; 409, in words, while a result of it waits or a post-match
    sequence is unfinished."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=SeasonOut(many=True))
    def get(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        return Response(SeasonOut(league_seasons(league=league), many=True).data)

    @extend_schema(
        request=SeasonIn,
        responses={
            201: SeasonOut,
            403: OpenApiResponse(description="Not a commissioner of this league."),
            409: OpenApiResponse(description="A result of the season waits, or a post-match sequence is unfinished."),
        },
    )
    def post(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        data = validated(SeasonIn, request.data)
        season = season_start_next(user=request.user, league_id=league.pk, name=data["name"], reason=data["reason"])
        return Response(SeasonOut(season).data, status=status.HTTP_201_CREATED)


class AuditListView(generics.ListAPIView):
    """The league's audit (commissioner): every commissioner action, newest first, in pages."""

    serializer_class = AuditOut
    pagination_class = Pagination
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema's generator asks for the model only
            return AuditEntry.objects.none()
        league = object_or_404(League, pk=self.kwargs["pk"])
        if not may_run_league(self.request.user, league):
            raise NotPermitted("Only the league's commissioner reads its audit.")
        return league_audit(league=league)

    @extend_schema(
        responses={200: AuditOut(many=True), 403: OpenApiResponse(description="Not a commissioner of this league.")}
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class NextSeasonRulesIn(serializers.Serializer):
    house_rules = serializers.JSONField(help_text="Overrides to apply when the next season opens ({} withdraws).")
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON_MAX)


class NextSeasonRulesView(APIView):
    """House-rule overrides "from next season": GET (public) what is set; PUT (commissioner) `{house_rules}`
    replaces them. They are merged into the league's overrides when the open season closes."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: OpenApiResponse(description="{house_rules: {...}} set for next season")})
    def get(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        return Response({"house_rules": league.house_rules_next_season})

    @extend_schema(
        request=NextSeasonRulesIn,
        responses={200: OpenApiResponse(description="{house_rules: {...}} as validated and kept")},
    )
    def put(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        data = validated(NextSeasonRulesIn, request.data)
        league = league_set_next_season_rules(
            user=request.user, league_id=league.pk, overrides=data["house_rules"], reason=data["reason"]
        )
        return Response({"house_rules": league.house_rules_next_season})
