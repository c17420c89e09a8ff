"""League, membership, stadium and ruleset endpoints: thin views over services and selectors."""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import Http404, StreamingHttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.errors import NotPermitted
from campaigns.rulesets import REGISTRY
from core.api.errors import validated
from core.api.lookup import object_or_404, path_id
from core.api.permissions import IsCommissionerOrReadOnly
from dugout.api.players import CSVRenderer
from dugout.api.serializers import (
    ChallengeIn,
    InvitationOut,
    LeagueIn,
    LeagueOut,
    LeagueUpdateIn,
    MembershipIn,
    MembershipOut,
    ReportOut,
    ReportQuery,
    RosterOut,
    RulesetOut,
    StadiumSerializer,
    StandingsQuery,
)
from dugout.api.standings import season_standings_answer, standings_answer, standings_csv, standings_shortcut
from dugout.export import league_export_stream
from dugout.reports.services import report_queue_now, report_url
from league import services
from league.models import Invitation, League
from league.policy import may_run_league
from league.selectors import invitations_pending, league_queryset, report_list
from matches.challenges import challenge_roll
from matches.selectors import league_memorial
from teams.models import Position, Roster


class RulesetListView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=RulesetOut(many=True))
    def get(self, request):
        return Response([{"key": r.key, "name": r.name} for r in REGISTRY.values()])


def _ruleset_or_404(key: str):
    if key not in REGISTRY:
        raise Http404(f"No ruleset {key!r}.")
    return REGISTRY[key]


class RosterListView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=RosterOut(many=True))
    def get(self, request, key: str):
        _ruleset_or_404(key)
        rosters = Roster.objects.filter(ruleset=key).prefetch_related(
            Prefetch("positions", queryset=Position.objects.order_by("order", "id"))
        )
        return Response(RosterOut(rosters, many=True).data)


class HouseRulesView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: OpenApiResponse(description="The ruleset's default house rules (an object).")})
    def get(self, request, key: str):
        return Response(_ruleset_or_404(key).default_house_rules())


class LeagueViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = league_queryset()
    serializer_class = LeagueOut
    permission_classes = [IsAuthenticatedOrReadOnly, IsCommissionerOrReadOnly]
    filterset_fields = ["ruleset"]

    @extend_schema(request=LeagueIn, responses={201: LeagueOut})
    def create(self, request):
        data = validated(LeagueIn, request.data)
        league = services.league_create(
            user=request.user, name=data["name"], ruleset=data["ruleset"], overrides=data["house_rules"]
        )
        if not data["open_registration"]:
            league = services.league_update(user=request.user, league_id=league.pk, open_registration=False)
        return Response(LeagueOut(self.get_queryset().get(pk=league.pk)).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=LeagueUpdateIn, responses=LeagueOut)
    def partial_update(self, request, pk=None):
        league = self.get_object()
        data = validated(LeagueUpdateIn, request.data, partial=True)
        services.league_update(
            user=request.user,
            league_id=league.pk,
            name=data.get("name"),
            overrides=data.get("house_rules"),
            open_registration=data.get("open_registration"),
            report_settings={k: data[k] for k in services.REPORT_SETTINGS if k in data},
            reason=data.get("reason", ""),
        )
        return Response(LeagueOut(self.get_queryset().get(pk=league.pk)).data)

    @extend_schema(methods=["GET"], responses=MembershipOut(many=True))
    @extend_schema(
        methods=["POST"],
        request=MembershipIn,
        responses={
            201: OpenApiResponse(InvitationOut, description="The invitation: a member once the user accepts."),
            409: OpenApiResponse(description="Already a member in that role, or invited to another role."),
        },
    )
    @action(detail=True, methods=["get", "post"])
    def members(self, request, pk=None):
        league = self.get_object()
        if request.method == "GET":
            return Response(MembershipOut(league.memberships.all(), many=True).data)
        data = validated(MembershipIn, request.data)
        invitation = services.invitation_create(
            user=request.user, league=league, username=data["username"], role=data["role"], reason=data["reason"]
        )
        return Response(InvitationOut(invitation).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={201: MembershipOut})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def join(self, request, pk=None):
        league = object_or_404(League, pk=pk)
        membership = services.league_join(league=league, user=request.user)
        return Response(MembershipOut(membership).data, status=status.HTTP_201_CREATED)

    def get_renderers(self):
        """The standings also answer `?format=csv`: the viewset's renderers and the CSV one (added here,
        not on the action, so the standings' shortcut still follows the viewset's own renderers)."""
        renderers = super().get_renderers()
        return [*renderers, CSVRenderer()] if self.action == "standings" else renderers

    def dispatch(self, request, *args, **kwargs):
        """The public read of the standings skips DRF's request, authentication, permissions and content
        negotiation when none of them can change the answer (dugout/api/standings.py `standings_shortcut`); all
        else is DRF's."""
        if self.action_map.get(request.method.lower()) == "standings":
            response = standings_shortcut(self, request, kwargs)
            if response is not None:
                return response
        return super().dispatch(request, *args, **kwargs)

    @extend_schema(
        parameters=[StandingsQuery],
        responses={
            200: OpenApiResponse(
                description="{league, rows: [...]} in standings order (a past season: also `season`; a division: "
                "also `division` and its `name`)"
            ),
            400: OpenApiResponse(description="`season` or `division` is not a number, or both name a closed season."),
            404: OpenApiResponse(description="No such league, or no such division of it."),
        },
    )
    @action(detail=True, methods=["get"])
    def standings(self, request, pk=None, **suffix):
        """The table as cached JSON bytes per table version (matches/standings.py), with that version as its
        ETag: a client that holds it gets 304, and any other request reads one league row and one cache key."""
        # `suffix`: the router's `standings.json` form passes `format` (without it that form was a 500).
        league_id = path_id(pk)
        asked = request.query_params
        if "season" in asked or "division" in asked:
            query = validated(StandingsQuery, asked)
            if "season" in query:
                response = season_standings_answer(request, league_id, query)
            else:
                response = standings_answer(request, league_id, query["division"])
        else:
            response = standings_answer(request, league_id)
        if response is None:
            raise Http404("No League matches the given query.")
        if request.accepted_renderer.format == "csv":
            return standings_csv(response, league_id)
        return response

    @extend_schema(responses={200: OpenApiResponse(description="[{player, name, team, spp, matches, ...}]")})
    @action(detail=True, methods=["get"])
    def memorial(self, request, pk=None):
        league = object_or_404(League, pk=pk)
        return Response(league_memorial(league=league))

    @extend_schema(methods=["GET"], responses=StadiumSerializer(many=True))
    @extend_schema(methods=["POST"], request=StadiumSerializer, responses={201: StadiumSerializer})
    @action(detail=True, methods=["get", "post"])
    def stadiums(self, request, pk=None):
        league = self.get_object()
        if request.method == "GET":
            return Response(StadiumSerializer(league.stadiums.all(), many=True).data)
        data = validated(StadiumSerializer, request.data)
        stadium = services.stadium_create(
            user=request.user, league=league, name=data["name"], special_attribute=data.get("special_attribute", "")
        )
        return Response(StadiumSerializer(stadium).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=ChallengeIn,
        responses={
            201: OpenApiResponse(
                description="{id, dice_count, threshold, dice, successes, flops, sixes, flopped, entered}"
            )
        },
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def challenge(self, request, pk=None):
        """ElfBall's Challenge roller: exploding sixes, flops, thresholds of 7+; entered dice are scored."""
        league = object_or_404(League, pk=pk)
        data = validated(ChallengeIn, request.data)
        roll, result = challenge_roll(
            user=request.user,
            league=league,
            dice_count=data["dice"],
            threshold=data["threshold"],
            values=data.get("rolls"),
            match_id=data.get("match"),
        )
        return Response(
            {
                "id": roll.pk,
                "dice_count": data["dice"],
                "threshold": data["threshold"],
                "dice": roll.values,
                "successes": result.successes,
                "flops": result.flops,
                "sixes": result.sixes,
                "flopped": result.flopped,
                "entered": roll.entered,
                "match": roll.match_id,
            },
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(responses={200: OpenApiResponse(description="The whole league as one JSON document.")})
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        """League, house rules, teams and players (with history), generated schedules with their rounds, matches
        with results and sequences, ledgers, rolls, reports, seasons and the audit (dugout.export.SECTIONS).
        Streamed: the document is written as it is read."""
        league = object_or_404(League, pk=pk)
        return StreamingHttpResponse(league_export_stream(league=league), content_type="application/json")

    @extend_schema(methods=["GET"], parameters=[ReportQuery], responses=ReportOut(many=True))
    @extend_schema(
        methods=["POST"],
        request=None,
        responses={
            202: OpenApiResponse(description='{"status": "queued", "week"}'),
            503: OpenApiResponse(description="The report queue is unavailable."),
        },
    )
    @action(detail=True, methods=["get", "post"])
    def reports(self, request, pk=None):
        """GET: the weekly reports, newest first (`?season=N`: only that season's). POST (commissioner): write
        this week's report now (it replaces this week's), answered 202 once queued, 503 when the queue cannot be
        reached."""
        league = object_or_404(League, pk=pk)
        if request.method == "GET":
            season = validated(ReportQuery, request.query_params).get("season")
            return Response(
                [
                    {"id": r.pk, "week": r.week, "season": r.season, "created_at": r.created_at, "url": report_url(r)}
                    for r in report_list(league=league, season=season)
                ]
            )
        if not may_run_league(request.user, league):
            raise NotPermitted("Only the commissioner can have the report written now.")
        week = report_queue_now(league=league)
        if week is None:
            unavailable = Response(
                {"detail": "The report queue is unavailable right now: nothing was queued. Try again later."},
                status=status.HTTP_503_SERVICE_UNAVAILABLE,
            )
            # `report_queue_now` has logged the one warning this expected 503 deserves: Django's request logger
            # honours its own "already logged" mark and adds no ERROR line of its own.
            unavailable._has_been_logged = True
            return unavailable
        return Response({"status": "queued", "week": week}, status=status.HTTP_202_ACCEPTED)


class InvitationViewSet(viewsets.GenericViewSet):
    """`/api/v1/invitations/`: the caller's pending invitations, which only he accepts or declines."""

    serializer_class = InvitationOut
    permission_classes = [IsAuthenticated]
    pagination_class = None
    # Digits only, and few enough for any database integer: anything else is 404 from the router, never a 500.
    lookup_value_regex = "[0-9]{1,18}"

    def get_queryset(self):
        return invitations_pending(user=self.request.user)

    @extend_schema(responses=InvitationOut(many=True))
    def list(self, request):
        return Response(InvitationOut(self.get_queryset(), many=True).data)

    def _answer(self, pk, answer):
        # Another user's invitation is not there for the caller (404), whatever its state.
        invitation = object_or_404(Invitation.objects.filter(user=self.request.user), pk=pk)
        return answer(user=self.request.user, invitation_id=invitation.pk)

    @extend_schema(
        request=None,
        responses={
            201: OpenApiResponse(MembershipOut, description="The membership the invitation made."),
            404: OpenApiResponse(description="Not an invitation of the caller's."),
            409: OpenApiResponse(description="Already accepted or declined."),
        },
    )
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        membership = self._answer(pk, services.invitation_accept)
        return Response(MembershipOut(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={
            200: InvitationOut,
            404: OpenApiResponse(description="Not an invitation of the caller's."),
            409: OpenApiResponse(description="Already accepted or declined."),
        },
    )
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        invitation = self._answer(pk, services.invitation_decline)
        return Response(InvitationOut(invitation).data)
