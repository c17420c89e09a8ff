"""Match endpoints (api-v1 "Matches", "Post-match sequence"): thin views over services and selectors."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from campaigns.rulesets.elfball.rules import MAX_TESTS_TO_WIN
from league.api.errors import validated
from league.api.fields import TextField
from league.api.lookup import object_or_404, path_id
from league.models import League

from . import aftermath as engine
from . import corrections, disputes, prematch, services
from .models import Aftermath, Inducement, Match, MatchTeam, Roll
from .selectors import match_queryset


class SideOut(serializers.ModelSerializer):
    team_name = serializers.CharField(source="team.name")

    class Meta:
        model = MatchTeam
        fields = [
            "team",
            "team_name",
            "order",
            "score",
            "casualties_inflicted",
            "conceded",
            "conceded_early",
            "fame",
            "placing",
            "eliminations",
            "mvp",
            "outcome",
            "league_points",
            "snapshot",
        ]


class MatchOut(serializers.ModelSerializer):
    teams = serializers.SerializerMethodField()
    sides = SideOut(many=True)
    aftermath = serializers.SerializerMethodField()
    prematch = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "league",
            "season",
            "round",
            "scheduled_for",
            "deadline",
            "kind",
            "event",
            "stadium",
            "tests_to_win",
            "status",
            "teams",
            "sides",
            "result",
            "submitted_by",
            "submitted_at",
            "confirmed_by",
            "confirmed_at",
            "aftermath",
            "prematch",
            "created_at",
        ]

    def get_prematch(self, match: Match) -> dict | None:
        """The pre-match sequence in brief (its steps, inducements and log: GET .../prematch/)."""
        try:
            prematch = match.prematch
        except ObjectDoesNotExist:
            return None
        return {
            "complete": prematch.complete,
            "weather": prematch.weather or None,
            "fans": prematch.fans,
            "gate": sum(prematch.fans.values()) if prematch.fans else None,
            "fame": prematch.fame,
            "aggressor": prematch.aggressor_id,
        }

    def get_teams(self, match: Match) -> list[int]:
        return [side.team_id for side in match.sides.all()]

    def get_aftermath(self, match: Match) -> list[dict]:
        steps = [s.key for s in match.league.rules.postmatch_steps]
        return [
            {
                "team": a.team_id,
                "step": None if a.complete else steps[a.step_index],
                "complete": a.complete,
                "pending": bool(a.pending),
            }
            for a in match.aftermaths.all()
        ]


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


class RejectIn(serializers.Serializer):
    reason = TextField(required=False, allow_blank=True, default="", max_length=disputes.REASON_MAX)


class DisputeIn(serializers.Serializer):
    reason = TextField(max_length=disputes.REASON_MAX, help_text="Why the result is wrong, in words.")


class RulingIn(serializers.Serializer):
    ruling = serializers.ChoiceField(choices=disputes.RULINGS)
    reason = TextField(max_length=disputes.REASON_MAX)
    result = serializers.JSONField(required=False, help_text="The corrected result body (ruling `correct`).")


class ForfeitIn(serializers.Serializer):
    team = serializers.IntegerField(help_text="The team at fault: it loses by forfeit.")
    reason = TextField(max_length=disputes.REASON_MAX)


class ResultSideIn(serializers.Serializer):
    team = serializers.IntegerField()
    score = serializers.IntegerField(required=False)
    casualties_inflicted = serializers.IntegerField(required=False)
    mvp = serializers.IntegerField(required=False, allow_null=True)
    conceded = serializers.BooleanField(required=False)
    conceded_early = serializers.BooleanField(required=False)
    fame = serializers.IntegerField(required=False, min_value=0, max_value=2)
    placing = serializers.IntegerField(required=False, help_text="Terminix: 1 = the last team standing.")
    eliminations = serializers.IntegerField(required=False, help_text="Terminix: opposing players eliminated.")
    no_face_off = serializers.BooleanField(required=False, help_text="ElfBall: the team cannot set up a face-off.")
    squad = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Bone Cruncher: the players who took part."
    )


class ResultPlayerIn(serializers.Serializer):
    player = serializers.IntegerField()
    touchdowns = serializers.IntegerField(required=False)
    casualties = serializers.IntegerField(required=False)
    completions = serializers.IntegerField(required=False)
    interceptions = serializers.IntegerField(required=False)
    injury = serializers.CharField(required=False)
    stat = serializers.CharField(required=False)
    attribute = serializers.CharField(required=False, help_text="ElfBall lasting injury: the tied attribute lowered.")
    goal_points = serializers.IntegerField(required=False, help_text="ElfBall, when no goals list is given.")


class ResultIn(serializers.Serializer):
    """The result body (api-v1). Each ruleset validates its own format; this describes it for the schema."""

    teams = ResultSideIn(many=True)
    players = ResultPlayerIn(many=True, required=False)
    goals = serializers.JSONField(required=False, help_text="ElfBall: [{team, on_field: [player ids]}] per goal.")
    potions = serializers.JSONField(required=False, help_text="ElfBall: [{player, roll (D12), ability?, attribute?}].")
    wounds = serializers.JSONField(
        required=False, help_text="Bone Cruncher: [{player, wounds | areas: {head, torso, …}, critical: [1–6]}]."
    )
    rolls = serializers.JSONField(required=False)


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


class MatchViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = match_queryset()
    serializer_class = MatchOut
    permission_classes = [IsAuthenticatedOrReadOnly]
    filterset_fields = ["league", "status", "kind"]

    def _out(self, match_id: int, code: int = status.HTTP_200_OK) -> Response:
        return Response(MatchOut(self.get_queryset().get(pk=match_id)).data, status=code)

    @extend_schema(request=MatchIn, responses={201: MatchOut})
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

    @extend_schema(request=ResultIn, responses={201: MatchOut})
    @action(detail=True, methods=["post"])
    def result(self, request, pk=None):
        object_or_404(Match, pk=pk)
        services.match_submit_result(user=request.user, match_id=path_id(pk), body=request.data)
        return self._out(path_id(pk), status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=MatchOut)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        object_or_404(Match, pk=pk)
        services.match_confirm(user=request.user, match_id=path_id(pk))
        return self._out(path_id(pk))

    @extend_schema(request=RejectIn, responses=MatchOut)
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        """The commissioner sends a submitted or disputed result back (`reason` optional, kept in the audit)."""
        object_or_404(Match, pk=pk)
        reason = validated(RejectIn, request.data if isinstance(request.data, dict) else {})["reason"]
        services.match_reject(user=request.user, match_id=path_id(pk), reason=reason)
        return self._out(path_id(pk))

    @extend_schema(request=DisputeIn, responses=MatchOut)
    @action(detail=True, methods=["post"])
    def dispute(self, request, pk=None):
        """A coach of the match who did not enter its result disputes it, with a reason (the commissioner rules)."""
        object_or_404(Match, pk=pk)
        data = validated(DisputeIn, request.data)
        disputes.match_dispute(user=request.user, match_id=path_id(pk), reason=data["reason"])
        return self._out(path_id(pk))

    @extend_schema(request=RulingIn, responses=MatchOut)
    @action(detail=True, methods=["post"])
    def ruling(self, request, pk=None):
        """The commissioner's ruling on a disputed result: confirm it as is, correct it (`result`: the corrected
        result body, confirmed at once) or reject it; `reason` is required and kept in the audit."""
        object_or_404(Match, pk=pk)
        data = validated(RulingIn, request.data)
        disputes.match_rule_dispute(
            user=request.user,
            match_id=path_id(pk),
            ruling=data["ruling"],
            reason=data["reason"],
            body=data.get("result"),
        )
        return self._out(path_id(pk))

    @extend_schema(request=ForfeitIn, responses=MatchOut)
    @action(detail=True, methods=["post"])
    def forfeit(self, request, pk=None):
        """The commissioner records a forfeit: final as a loss for `team`, no post-match sequence."""
        object_or_404(Match, pk=pk)
        data = validated(ForfeitIn, request.data)
        disputes.match_forfeit(user=request.user, match_id=path_id(pk), team_id=data["team"], reason=data["reason"])
        return self._out(path_id(pk))

    @extend_schema(request=ResultIn, responses=MatchOut)
    @action(detail=True, methods=["post"])
    def correct(self, request, pk=None):
        """The commissioner corrects a final result: its effects are reversed and the corrected one applied."""
        object_or_404(Match, pk=pk)
        corrections.match_correct(user=request.user, match_id=path_id(pk), body=request.data)
        return self._out(path_id(pk))

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
