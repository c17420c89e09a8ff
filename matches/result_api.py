"""A match's result through the API (api-v1 "Matches", "Result disputes and the commissioner's queue"): its
body, its submission and confirmation, and the commissioner's rulings on it — reject, dispute, ruling, forfeit,
correct. A mixin of `matches.api.MatchViewSet` (same URLs, same schema): thin views over matches/services.py,
matches/disputes.py and matches/corrections.py."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action

from core.api.errors import validated
from core.api.fields import TextField
from core.api.lookup import object_or_404, path_id
from league.audit import REASON_MAX
from matches import corrections, disputes, services
from matches.models import Match
from matches.serializers import MatchActionsOut


class RejectIn(serializers.Serializer):
    reason = TextField(required=False, allow_blank=True, default="", max_length=disputes.REASON_MAX)


class DisputeIn(serializers.Serializer):
    reason = TextField(max_length=disputes.REASON_MAX, help_text="Why the result is wrong, in words.")


class RulingIn(serializers.Serializer):
    ruling = serializers.ChoiceField(choices=disputes.RULINGS)
    reason = TextField(max_length=disputes.REASON_MAX)
    result = serializers.JSONField(required=False, help_text="The corrected result body (ruling `correct`).")


class VoidIn(serializers.Serializer):
    reason = TextField(max_length=disputes.REASON_MAX, help_text="Why the match will not be played, in words.")


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


class CorrectIn(ResultIn):
    """The corrected result body, and the commissioner's reason for the correction (kept in the audit)."""

    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON_MAX)


class CorrectReasonIn(serializers.Serializer):
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON_MAX)


# The result's actions of the match viewset (`self._out` answers the match as it now stands). No docstring: the
# schema would give it to every action that has none of its own.
class ResultActions:
    @extend_schema(request=ResultIn, responses={201: MatchActionsOut})
    @action(detail=True, methods=["post"])
    def result(self, request, pk=None):
        object_or_404(Match, pk=pk)
        services.match_submit_result(user=request.user, match_id=path_id(pk), body=request.data)
        return self._out(path_id(pk), status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=MatchActionsOut)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        object_or_404(Match, pk=pk)
        services.match_confirm(user=request.user, match_id=path_id(pk))
        return self._out(path_id(pk))

    @extend_schema(request=RejectIn, responses=MatchActionsOut)
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        """The commissioner sends a submitted or disputed result back (`reason` optional, kept in the audit)."""
        object_or_404(Match, pk=pk)
        reason = validated(RejectIn, request.data)["reason"]
        services.match_reject(user=request.user, match_id=path_id(pk), reason=reason)
        return self._out(path_id(pk))

    @extend_schema(request=DisputeIn, responses=MatchActionsOut)
    @action(detail=True, methods=["post"])
    def dispute(self, request, pk=None):
        """A coach of the match who did not enter its result disputes it, with a reason (the commissioner rules)."""
        object_or_404(Match, pk=pk)
        data = validated(DisputeIn, request.data)
        disputes.match_dispute(user=request.user, match_id=path_id(pk), reason=data["reason"])
        return self._out(path_id(pk))

    @extend_schema(request=RulingIn, responses=MatchActionsOut)
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

    @extend_schema(request=ForfeitIn, responses=MatchActionsOut)
    @action(detail=True, methods=["post"])
    def forfeit(self, request, pk=None):
        """The commissioner records a forfeit: final as a loss for `team`, no post-match sequence."""
        object_or_404(Match, pk=pk)
        data = validated(ForfeitIn, request.data)
        disputes.match_forfeit(user=request.user, match_id=path_id(pk), team_id=data["team"], reason=data["reason"])
        return self._out(path_id(pk))

    @extend_schema(request=VoidIn, responses=MatchActionsOut)
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        """The commissioner makes a match still to be played void: it will not be played, takes no result and
        counts in no table (`reason` required, kept in the audit). A knockout match is refused: forfeit it."""
        object_or_404(Match, pk=pk)
        data = validated(VoidIn, request.data)
        disputes.match_void(user=request.user, match_id=path_id(pk), reason=data["reason"])
        return self._out(path_id(pk))

    @extend_schema(request=CorrectIn, responses=MatchActionsOut)
    @action(detail=True, methods=["post"])
    def correct(self, request, pk=None):
        """The commissioner corrects a final result: its effects are reversed and the corrected one applied.
        `reason` (optional, beside the result's fields) is kept in the audit."""
        object_or_404(Match, pk=pk)
        body = request.data
        reason = ""
        if isinstance(body, dict) and "reason" in body:
            reason = validated(CorrectReasonIn, {"reason": body["reason"]})["reason"]
            body = {key: value for key, value in body.items() if key != "reason"}
        corrections.match_correct(user=request.user, match_id=path_id(pk), body=body, reason=reason)
        return self._out(path_id(pk))
