"""Team, player, purchase and ledger endpoints (api-v1 "Teams"): thin views over services and selectors."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from core.api.errors import validated
from core.api.lookup import object_or_404, path_id
from league.models import League
from teams import services, transfers
from teams.identity.api import IDENTITY_FIELDS, TeamIdentityActions, TeamIdentityOutMixin
from teams.models import LedgerEntry, Player, Team, Transfer
from teams.permissions import IsTeamCoachOrReadOnly
from teams.selectors import (
    player_injuries,
    player_view,
    race_rosters,
    roster_players,
    team_api_queryset,
    team_sponsorships,
    team_state,
)

#: Player fields shown only for the rulesets that track them (Ruleset.player_fields).
RULESET_PLAYER_FIELDS = (
    "spp",
    "goal_points",
    "abilities",
    "role",
    "wounds",
    "armour_used",
    "matches_survived",
    "elite",
    "wound_areas",
    "conditions",
    "equipment",
)


class PlayerOut(serializers.ModelSerializer):
    position = serializers.CharField(source="position.key")
    position_name = serializers.CharField(source="position.name")
    injuries = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = [
            "id",
            "name",
            "number",
            "position",
            "position_name",
            "status",
            "attributes",
            "skills",
            "value",
            "injuries",
            "spp",
            "goal_points",
            "abilities",
            "role",
            "wounds",
            "armour_used",
            "matches_survived",
            "elite",
            "wound_areas",
            "conditions",
            "equipment",
        ]

    def get_injuries(self, player: Player) -> list[dict]:
        return player_injuries(player=player)

    def to_representation(self, instance):
        data = super().to_representation(instance)
        # Only the fields of this player's ruleset (api-v1: "plus, by ruleset").
        league = instance.team.league
        rules = league.rules
        for key in RULESET_PLAYER_FIELDS:
            if key not in rules.player_fields:
                data.pop(key)
        races = {}
        if "race" in rules.player_fields:
            # One query per ruleset for the whole response (the context is shared by nested serializers).
            cache = self.context.setdefault("races", {})
            if league.ruleset not in cache:
                cache[league.ruleset] = race_rosters(ruleset=league.ruleset)
            races = cache[league.ruleset]
        view = player_view(instance, races=races)
        if races:
            data["race"] = view.race
            data["health_template"] = dict(view.health_template)
        for key, value in rules.player_summary(view, league.house_rules).items():
            data.setdefault(key, value)  # the stored fields win over the summary's words for them
        return data


class TeamOut(TeamIdentityOutMixin, serializers.ModelSerializer):
    roster = serializers.CharField(source="roster.key")
    roster_name = serializers.CharField(source="roster.name")
    coach_username = serializers.CharField(source="coach.username", default=None, read_only=True, allow_null=True)
    treasury = serializers.IntegerField()
    stadium_fund = serializers.IntegerField()
    team_value = serializers.SerializerMethodField()
    points_value = serializers.SerializerMethodField()
    points_budget = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField()
    sponsorships = serializers.SerializerMethodField()
    in_creation = serializers.BooleanField()

    class Meta:
        model = Team
        fields = [
            "id",
            "league",
            "division",
            "name",
            "roster",
            "roster_name",
            "coach",
            "coach_username",
            "treasury",
            "team_value",
            "fan_factor",
            "rerolls",
            "players",
            "staff",
            "sponsorships",
            "home_stadium",
            "owns_stadium",
            "stadium_fund",
            "points_value",
            "points_budget",
            "in_creation",
            "created_at",
            *IDENTITY_FIELDS,
        ]

    def _value(self, team: Team) -> int | None:
        if not hasattr(team, "_value_cache"):
            team._value_cache = team.league.rules.team_value(team_state(team=team), team.league.house_rules)
        return team._value_cache

    def get_team_value(self, team: Team) -> int | None:
        return self._value(team)

    def get_points_value(self, team: Team) -> int | None:
        return self._value(team) if team.league.rules.economy == "points" else None

    def get_points_budget(self, team: Team) -> int | None:
        return team.league.rules.points_budget(team.league.house_rules)

    def get_players(self, team: Team) -> list[dict]:
        players = roster_players(team=team)
        for player in players:
            player.team = team  # already loaded: spare a query per player
        # One player serializer for every team this one writes (a list's, an export's): DRF builds and copies
        # its 20-odd fields once, not once per team.
        if not hasattr(self, "_player_out"):
            self._player_out = PlayerOut(context=self.context)
        return [self._player_out.to_representation(player) for player in players]

    def get_sponsorships(self, team: Team) -> list[dict]:
        return team_sponsorships(team=team)


class TeamIn(serializers.Serializer):
    league = serializers.IntegerField()
    name = serializers.CharField(max_length=100)
    roster = serializers.CharField(max_length=50)


class HireIn(serializers.Serializer):
    position = serializers.CharField(max_length=50)
    name = serializers.CharField(max_length=100)
    number = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=99)
    role = serializers.ChoiceField(choices=Player.Role.choices, required=False, default="")


class PlayerPatchIn(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False)
    number = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=99)
    role = serializers.ChoiceField(choices=Player.Role.choices, required=False)


class EquipmentIn(serializers.Serializer):
    weapon = serializers.ChoiceField(choices=["none", "blade", "polearm"], default="none")
    shield = serializers.BooleanField(default=False)


class PlayerPatchEquipmentIn(PlayerPatchIn):
    equipment = EquipmentIn(required=False, help_text="Bone Cruncher Bloody Blades (a league option).")


class AbilityIn(serializers.Serializer):
    ability = serializers.CharField(max_length=30)


class PurchaseIn(serializers.Serializer):
    item = serializers.CharField(max_length=50)
    quantity = serializers.IntegerField(min_value=1, max_value=99, default=1)


class LedgerOut(serializers.ModelSerializer):
    class Meta:
        model = LedgerEntry
        fields = ["id", "account", "amount", "balance_after", "reason", "kind", "match", "created_at"]


class TeamViewSet(TeamIdentityActions, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = team_api_queryset()
    serializer_class = TeamOut
    permission_classes = [IsAuthenticatedOrReadOnly, IsTeamCoachOrReadOnly]
    filterset_fields = ["league", "coach"]

    def _team_out(self, team_id: int, code: int = status.HTTP_200_OK) -> Response:
        return Response(TeamOut(self.get_queryset().get(pk=team_id)).data, status=code)

    @extend_schema(request=TeamIn, responses={201: TeamOut})
    def create(self, request):
        data = validated(TeamIn, request.data)
        league = League.objects.filter(pk=data["league"]).first()
        if league is None:
            return Response({"league": ["No such league."]}, status=status.HTTP_400_BAD_REQUEST)
        team = services.team_create(user=request.user, league=league, name=data["name"], roster_key=data["roster"])
        return self._team_out(team.pk, status.HTTP_201_CREATED)

    @extend_schema(request=HireIn, responses={201: PlayerOut})
    @action(detail=True, methods=["post"])
    def players(self, request, pk=None):
        team = self.get_object()
        data = validated(HireIn, request.data)
        player = services.team_hire_player(team_id=team.pk, user=request.user, **data)
        return Response(self._player_out(team.pk, player.pk), status=status.HTTP_201_CREATED)

    def _player_out(self, team_id: int, player_id: int) -> dict:
        player = Player.objects.select_related("position", "team__league").get(pk=player_id, team_id=team_id)
        return PlayerOut(player).data

    @extend_schema(methods=["PATCH"], request=PlayerPatchEquipmentIn, responses={200: PlayerOut})
    @extend_schema(methods=["DELETE"], responses={204: None})
    @action(detail=True, methods=["patch", "delete"], url_path=r"players/(?P<player_id>[0-9]+)")
    def player(self, request, pk=None, player_id=None):
        team = self.get_object()
        object_or_404(Player.objects.filter(team=team, left_at__isnull=True), pk=player_id)
        if request.method == "DELETE":
            services.team_fire_player(team_id=team.pk, player_id=path_id(player_id), user=request.user)
            return Response(status=status.HTTP_204_NO_CONTENT)
        data = validated(PlayerPatchEquipmentIn, request.data)
        services.team_update_player(team_id=team.pk, player_id=path_id(player_id), user=request.user, fields=data)
        return Response(self._player_out(team.pk, path_id(player_id)))

    @extend_schema(request=AbilityIn, responses={201: PlayerOut})
    @action(detail=True, methods=["post"], url_path=r"players/(?P<player_id>[0-9]+)/abilities")
    def abilities(self, request, pk=None, player_id=None):
        """ElfBall: learn an ability the player is entitled to (every full 10 Goal Points), at any time."""
        team = self.get_object()
        object_or_404(Player.objects.filter(team=team, left_at__isnull=True), pk=player_id)
        data = validated(AbilityIn, request.data)
        services.team_learn_ability(
            team_id=team.pk, player_id=path_id(player_id), user=request.user, ability=data["ability"]
        )
        return Response(self._player_out(team.pk, path_id(player_id)), status=status.HTTP_201_CREATED)

    @extend_schema(request=PurchaseIn, responses={201: TeamOut})
    @action(detail=True, methods=["post"])
    def purchases(self, request, pk=None):
        team = self.get_object()
        data = validated(PurchaseIn, request.data)
        services.team_purchase(team_id=team.pk, user=request.user, item=data["item"], quantity=data["quantity"])
        return self._team_out(team.pk, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: TeamOut})
    @action(detail=True, methods=["post"])
    def ready(self, request, pk=None):
        team = self.get_object()
        services.team_close_creation(team_id=team.pk, user=request.user)
        return self._team_out(team.pk)

    @extend_schema(
        request=None,
        responses={
            200: TeamOut,
            400: OpenApiResponse(description="The treasury cannot pay the cancellation; nothing changed."),
            401: OpenApiResponse(description="Not signed in."),
            403: OpenApiResponse(description="Only this team's coach may cancel its home stadium."),
            404: OpenApiResponse(description="No such team, or its ruleset has no home stadiums."),
            409: OpenApiResponse(description="The team has no home stadium to cancel, or owns it (sell it first)."),
        },
    )
    @action(detail=True, methods=["post"], url_path="stadium/cancel")
    def stadium_cancel(self, request, pk=None):
        """Cancel the team's home stadium (Blitz Bowl: "at any time for 5,000 gil", the house rule
        `residency.cancel_cost`), paid from the treasury. Answers the team."""
        team = self.get_object()
        rules = team.league.rules
        if not rules.has_residencies:
            return Response({"detail": f"{rules.name} teams have no home stadium."}, status=status.HTTP_404_NOT_FOUND)
        services.team_cancel_residency(team_id=team.pk, user=request.user)
        return self._team_out(team.pk)

    @extend_schema(
        responses=LedgerOut(many=True),
        parameters=[
            OpenApiParameter(
                "account",
                enum=LedgerEntry.Account.values,
                default="treasury",
                description="Which account: the treasury (default) or the stadium fund.",
            )
        ],
    )
    @action(detail=True, methods=["get"])
    def ledger(self, request, pk=None):
        """One account's entries, oldest first, so `balance_after` is the running sum down the list."""
        team = object_or_404(Team, pk=pk)
        account = request.query_params.get("account", LedgerEntry.Account.TREASURY)
        if account not in LedgerEntry.Account.values:
            return Response(
                {"account": [f"Choose one of {', '.join(LedgerEntry.Account.values)}."]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response(LedgerOut(team.ledger.filter(account=account).order_by("sequence"), many=True).data)


class TransferOut(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Transfer
        fields = [
            "id",
            "player",
            "player_name",
            "from_team",
            "to_team",
            "price",
            "status",
            "proposed_by",
            "created_at",
            "decided_at",
        ]


class TransferIn(serializers.Serializer):
    player = serializers.IntegerField()
    to_team = serializers.IntegerField()
    price = serializers.IntegerField(min_value=0, max_value=10_000_000, default=0)


class TransferViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Transfers between two coaches' teams: the seller proposes, the buyer accepts, the commissioner approves."""

    queryset = Transfer.objects.select_related("player").order_by("-created_at")
    serializer_class = TransferOut
    permission_classes = [IsAuthenticatedOrReadOnly]
    filterset_fields = ["status", "from_team", "to_team", "from_team__league"]

    @extend_schema(request=TransferIn, responses={201: TransferOut})
    def create(self, request):
        data = validated(TransferIn, request.data)
        transfer = transfers.transfer_propose(
            user=request.user, player_id=data["player"], to_team_id=data["to_team"], price=data["price"]
        )
        return Response(TransferOut(transfer).data, status=status.HTTP_201_CREATED)

    def _decide(self, request, pk, service) -> Response:
        transfer = service(user=request.user, transfer_id=path_id(pk))
        return Response(TransferOut(Transfer.objects.select_related("player").get(pk=transfer.pk)).data)

    @extend_schema(request=None, responses=TransferOut)
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        return self._decide(request, pk, transfers.transfer_accept)

    @extend_schema(request=None, responses=TransferOut)
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        return self._decide(request, pk, transfers.transfer_approve)

    @extend_schema(request=None, responses=TransferOut)
    @action(detail=True, methods=["post"])
    def refuse(self, request, pk=None):
        return self._decide(request, pk, transfers.transfer_refuse)
