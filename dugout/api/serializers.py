"""Explicit input and output serializers for leagues, memberships, stadiums and rulesets."""

from __future__ import annotations

from rest_framework import serializers

from campaigns.rulesets import CHOICES as RULESET_CHOICES
from core.api.fields import TextField
from league.audit import REASON_MAX
from league.models import Invitation, League, Membership, Stadium
from league.selectors import league_commissioners
from teams.models import Position, Roster


class LeagueOut(serializers.ModelSerializer):
    commissioner = serializers.IntegerField(source="created_by_id", read_only=True)
    commissioners = serializers.SerializerMethodField()
    house_rules = serializers.JSONField(read_only=True)
    house_rules_overrides = serializers.JSONField(read_only=True)
    stadiums = serializers.SerializerMethodField()

    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "ruleset",
            "commissioner",
            "commissioners",
            "open_registration",
            "house_rules",
            "house_rules_overrides",
            "stadiums",
            "reports_enabled",
            "report_weekday",
            "report_hour",
            "timezone",
            "created_at",
        ]

    def get_commissioners(self, league: League) -> list[str]:
        return league_commissioners(league=league)

    def get_stadiums(self, league: League) -> list[dict]:
        return [StadiumSerializer(s).data for s in league.stadiums.all()]


class LeagueIn(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    ruleset = serializers.ChoiceField(choices=RULESET_CHOICES)
    house_rules = serializers.JSONField(required=False, default=dict)
    open_registration = serializers.BooleanField(required=False, default=True)


class LeagueUpdateIn(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False)
    house_rules = serializers.JSONField(required=False)
    open_registration = serializers.BooleanField(required=False)
    reports_enabled = serializers.BooleanField(required=False)
    report_weekday = serializers.IntegerField(required=False, min_value=0, max_value=6, help_text="0 = Monday.")
    report_hour = serializers.IntegerField(required=False, min_value=0, max_value=23)
    timezone = serializers.CharField(required=False, max_length=64, help_text="e.g. Europe/London")
    reason = TextField(
        required=False,
        allow_blank=True,
        max_length=REASON_MAX,
        help_text="Why the house rules change (kept in the audit entry of the change).",
    )


class ReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    week = serializers.CharField()
    season = serializers.IntegerField(help_text="The number of the season the report is of.")
    created_at = serializers.DateTimeField()
    url = serializers.CharField()


class MembershipIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON_MAX)


class MembershipOut(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "league", "user", "username", "role", "created_at"]


class InvitationOut(serializers.ModelSerializer):
    """An invitation to a league (docs/api-v1-extensions.md "Membership by invitation")."""

    username = serializers.CharField(source="user.username", read_only=True)
    league_name = serializers.CharField(source="league.name", read_only=True)
    invited_by = serializers.CharField(source="invited_by.username", read_only=True)
    status = serializers.ChoiceField(
        choices=[("invited", "Invited"), ("accepted", "Accepted"), ("declined", "Declined")],
        read_only=True,
        help_text='"invited" until the user accepts or declines.',
    )

    class Meta:
        model = Invitation
        fields = ["id", "league", "league_name", "user", "username", "role", "status", "invited_by", "created_at"]


class StadiumSerializer(serializers.ModelSerializer):
    class Meta:
        model = Stadium
        fields = ["id", "league", "name", "special_attribute"]
        read_only_fields = ["id", "league"]


class RulesetOut(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()


class PositionOut(serializers.ModelSerializer):
    min = serializers.IntegerField(source="min_count")
    max = serializers.IntegerField(source="max_count")

    class Meta:
        model = Position
        fields = ["key", "name", "min", "max", "cost", "attributes", "skills", "skill_access", "extra"]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        # api-v1: positions carry their attributes flat (`...attributes`), as well as grouped.
        for attr, value in instance.attributes.items():
            data.setdefault(attr, value)
        return data


class RosterOut(serializers.ModelSerializer):
    positions = PositionOut(many=True)

    class Meta:
        model = Roster
        fields = ["key", "name", "positions"]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        # Roster extras (reroll_cost, white_mage, special_prices, traits, health_template …) sit at top level.
        for key, value in instance.extra.items():
            data.setdefault(key, value)
        return data


class ChallengeIn(serializers.Serializer):
    dice = serializers.IntegerField(min_value=1, max_value=20, help_text="The attribute: how many dice to roll.")
    threshold = serializers.IntegerField(min_value=1, max_value=12, help_text="7 or more: successes are 6s − flops.")
    rolls = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        max_length=200,
        help_text="Dice rolled at the table (the first `dice`, then one more for each 6), to be scored.",
    )
    match = serializers.IntegerField(required=False, help_text="Log the Challenge with this match.")


class SeasonQuery(serializers.Serializer):
    season = serializers.IntegerField(
        required=False, min_value=1, max_value=32767, help_text="A season's number (default: the open season)."
    )


class StandingsQuery(SeasonQuery):
    division = serializers.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1, help_text="A division's id: its table (Divisions)."
    )


class ReportQuery(serializers.Serializer):
    season = serializers.IntegerField(
        required=False, min_value=1, max_value=32767, help_text="Only the reports of this season (default: all)."
    )
