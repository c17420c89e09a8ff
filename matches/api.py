"""Match endpoints (api-v1 "Matches", "Post-match sequence"): thin views over services and selectors."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from campaigns.rulesets.elfball.rules import MAX_TESTS_TO_WIN
from core.api.errors import validated
from core.api.lookup import object_or_404, path_id
from league.models import League
from league.selectors import viewer_roles

from . import aftermath as engine
from . import prematch, services
from .models import Aftermath, Inducement, Match, Roll
from .result_api import ResultActions
from .selectors import match_queryset
from .serializers import MatchActionsOut
from .waiting_reads import waiting_annotations


class MatchIn(serializers.Serializer):
    league = serializers.IntegerField()
    teams = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=16)
    kind = serializers.ChoiceField(choices=Match.Kind.choices, default=Match.Kind.LEAGUE)
    stadium = serializers.IntegerField(required=False, allow_null=True)
    event = serializers.ChoiceField(choices=Match.Event.choices, required=False, default="")
    tests_to_win = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_TESTS_TO_WIN,
        help_text="ElfBall: the first team to win N Tests wins (no limit in the rulebook; the bound refuses absurd "
        "input).",
    )


class StepIn(serializers.Serializer):
    step = serializers.CharField(max_length=30)
    choices = serializers.JSONField(required=False)
    rolls = serializers.JSONField(required=False)


class RollOut(serializers.ModelSerializer):
    class Meta:
        model = Roll
        fields = [
            "id",
            "league",
            "match",
            "team",
            "step",
            "key",
            "expression",
            "values",
            "entered",
            "rolled_by",
            "created_at",
        ]


class AftermathOut(serializers.Serializer):
    step = serializers.CharField(allow_null=True)
    steps = serializers.ListField(child=serializers.CharField())
    complete = serializers.BooleanField()
    pending = serializers.JSONField(allow_null=True)
    log = serializers.JSONField()


class InducementIn(serializers.Serializer):
    item = serializers.ChoiceField(choices=Inducement.Item.choices)
    quantity = serializers.IntegerField(min_value=1, max_value=99, default=1)
    position = serializers.CharField(
        max_length=50, required=False, default="", allow_blank=True, help_text="A mercenary's position."
    )
    skill = serializers.CharField(
        max_length=40, required=False, default="", allow_blank=True, help_text="A mercenary's extra skill."
    )
    star = serializers.CharField(
        max_length=40, required=False, default="", allow_blank=True, help_text="A Star Player's key."
    )


class InducementOut(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.IntegerField()
    item = serializers.CharField()
    name = serializers.CharField()
    quantity = serializers.IntegerField()
    position = serializers.CharField(allow_null=True)
    position_name = serializers.CharField(allow_null=True)
    skill = serializers.CharField()
    star = serializers.CharField()
    price = serializers.IntegerField()


class PrematchOut(serializers.Serializer):
    step = serializers.CharField(allow_null=True)
    steps = serializers.ListField(child=serializers.CharField())
    complete = serializers.BooleanField()
    weather = serializers.CharField(allow_null=True)
    fans = serializers.DictField(child=serializers.IntegerField())
    gate = serializers.IntegerField(allow_null=True)
    fame = serializers.DictField(child=serializers.IntegerField())
    team_values = serializers.DictField(child=serializers.IntegerField(allow_null=True))
    superior = serializers.IntegerField(allow_null=True)
    underdog = serializers.IntegerField(allow_null=True)
    budgets = serializers.JSONField(help_text="{team id: {induced, treasury_spent, remaining}}")
    inducements = serializers.JSONField(help_text="{team id: [inducement, …]}")
    shared_stars = serializers.ListField(child=serializers.CharField())
    aggressor = serializers.IntegerField(allow_null=True)
    terrain = serializers.JSONField()
    shopping = serializers.IntegerField(allow_null=True, help_text="The team whose shopping turn is open.")
    time_limit_seconds = serializers.IntegerField(allow_null=True)
    log = serializers.JSONField()


class MatchViewSet(ResultActions, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = match_queryset()
    serializer_class = MatchActionsOut
    permission_classes = [IsAuthenticatedOrReadOnly]
    filterset_fields = ["league", "status", "kind"]

    def get_queryset(self):
        # The viewer's roles (what he may do) and what the match waits for, with each match: no query per match.
        roles = viewer_roles(user=self.request.user, league="league_id")
        return super().get_queryset().annotate(**roles, **waiting_annotations())

    def _out(self, match_id: int, code: int = status.HTTP_200_OK) -> Response:
        match = self.get_queryset().get(pk=match_id)
        return Response(self.get_serializer(match).data, status=code)

    @extend_schema(request=MatchIn, responses={201: MatchActionsOut})
    def create(self, request):
        data = validated(MatchIn, request.data)
        league = League.objects.filter(pk=data["league"]).first()
        if league is None:
            return Response({"league": ["No such league."]}, status=status.HTTP_400_BAD_REQUEST)
        match = services.match_schedule(
            user=request.user,
            league=league,
            team_ids=data["teams"],
            kind=data["kind"],
            stadium_id=data.get("stadium"),
            event=data.get("event", ""),
            tests_to_win=data.get("tests_to_win"),
        )
        return self._out(match.pk, status.HTTP_201_CREATED)

    @extend_schema(responses=RollOut(many=True))
    @action(detail=True, methods=["get"])
    def rolls(self, request, pk=None):
        match = object_or_404(Match, pk=pk)
        return Response(RollOut(match.rolls.order_by("id"), many=True).data)

    @extend_schema(request=StepIn, responses=AftermathOut)
    @action(detail=True, methods=["get", "post"], url_path=r"aftermath/(?P<team_id>[0-9]+)")
    def aftermath(self, request, pk=None, team_id=None):
        record = object_or_404(Aftermath.objects.select_related("match__league"), match_id=pk, team_id=team_id)
        if request.method == "GET":
            return Response(engine.aftermath_state(record))
        data = validated(StepIn, request.data)
        record = engine.aftermath_post(
            user=request.user,
            match_id=path_id(pk),
            team_id=path_id(team_id),
            step=data["step"],
            choices=data.get("choices"),
            rolls=data.get("rolls"),
        )
        return Response(engine.aftermath_state(record))

    @extend_schema(request=StepIn, responses=PrematchOut)
    @action(detail=True, methods=["get", "post"], url_path="prematch")
    def prematch(self, request, pk=None):
        """The pre-match sequence: Blitz Bowl weather, fans, inducements_superior, inducements_underdog;
        Bone Cruncher aggressor, terrain. POST runs the current step (409 for any other)."""
        match = object_or_404(Match.objects.select_related("league"), pk=pk)
        if request.method == "POST":
            data = validated(StepIn, request.data)
            prematch.prematch_post(
                user=request.user,
                match_id=match.pk,
                step=data["step"],
                choices=data.get("choices"),
                rolls=data.get("rolls"),
            )
        return Response(prematch.prematch_state(match))

    @extend_schema(methods=["GET"], responses=InducementOut(many=True))
    @extend_schema(methods=["POST"], request=InducementIn, responses={201: InducementOut})
    @action(detail=True, methods=["get", "post"], url_path=r"inducements/(?P<team_id>[0-9]+)")
    def inducements(self, request, pk=None, team_id=None):
        """A team's inducements for this match; POST buys one in its shopping turn (409 outside it)."""
        match = object_or_404(Match, pk=pk)
        if request.method == "GET":
            rows = match.inducements.filter(team_id=path_id(team_id)).select_related("position").order_by("id")
            return Response([prematch.inducement_out(i) for i in rows])
        data = validated(InducementIn, request.data)
        bought = prematch.inducement_add(user=request.user, match_id=match.pk, team_id=path_id(team_id), **data)
        bought = Inducement.objects.select_related("position").get(pk=bought.pk)
        return Response(prematch.inducement_out(bought), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"inducements/(?P<team_id>[0-9]+)/(?P<inducement_id>[0-9]+)")
    def inducement(self, request, pk=None, team_id=None, inducement_id=None):
        """Give an inducement back while the team's shopping turn is open."""
        object_or_404(Match, pk=pk)
        prematch.inducement_remove(
            user=request.user, match_id=path_id(pk), team_id=path_id(team_id), inducement_id=path_id(inducement_id)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
