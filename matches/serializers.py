"""A match as the API answers it (api-v1 "Matches"): shared by the match endpoints, the live sheet's and the
times' answers and the export."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.selectors import hold_viewer_roles

from .available import available
from .models import Match, MatchTeam
from .waiting import KINDS, waiting_for


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


class WaitingOut(serializers.Serializer):
    user = serializers.IntegerField()
    username = serializers.CharField()
    action = serializers.CharField(help_text=f"One of {', '.join(KINDS)}.")


class MatchActionsOut(MatchOut):
    """A match as the match endpoints answer it: with what the caller may do to it now."""

    actions = serializers.SerializerMethodField(
        help_text="What the caller may do to the match now (its status and his roles): any of submit, confirm, "
        "reject, correct, dispute, rule, prematch, forfeit, sorted; [] for a visitor."
    )

    waiting_for = serializers.SerializerMethodField(
        help_text=f"Who must act next on the match and what ({', '.join(KINDS)}); [] once nothing waits."
    )

    class Meta(MatchOut.Meta):
        fields = [*MatchOut.Meta.fields, "actions", "waiting_for"]

    @extend_schema_field(WaitingOut(many=True))
    def get_waiting_for(self, match: Match) -> list[dict]:
        # The facts come annotated with the match (`MatchViewSet.get_queryset`): no query of its own.
        return [{"user": w.user_id, "username": w.username, "action": w.kind} for w in waiting_for(match)]

    def get_actions(self, match: Match) -> list[str]:
        user = self.context["request"].user
        # The caller's roles come annotated with the match (`MatchViewSet.get_queryset`): no query per match.
        hold_viewer_roles(league=match.league, user=user, annotated=match)
        return sorted(available(user, match).actions)
