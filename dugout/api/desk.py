"""The commissioner's desk in the API (contract: docs api-v1 "Result disputes and the commissioner's
queue"; extensions in docs/api-v1-extensions.md "The commissioner's desk"): the queue, gil adjustments, invite
links, requests to join, removing a member and reassigning his teams. Thin views over dugout/queue.py,
league/joining.py, teams/members.py and teams/adjustments.py."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.errors import NotPermitted
from core.api.errors import validated
from core.api.fields import TextField
from core.api.lookup import object_or_404, path_id
from core.api.pagination import Pagination
from dugout.api.serializers import MembershipOut
from dugout.queue import KINDS, league_queue
from league import joining
from league.audit import REASON_MAX
from league.models import InviteLink, JoinRequest, League
from league.policy import may_run_league
from teams import adjustments, members
from teams.models import LedgerEntry, Team


class QueueItemOut(serializers.Serializer):
    # A string, not a choice field: an enum named "kind" would collide in the schema with the match's kinds.
    kind = serializers.CharField(help_text=f"One of {', '.join(KINDS)}.")
    match = serializers.IntegerField(allow_null=True)
    team = serializers.IntegerField(allow_null=True)
    since = serializers.DateTimeField()
    detail = serializers.CharField()
    transfer = serializers.IntegerField(allow_null=True, help_text="The transfer to approve (kind transfer).")
    join_request = serializers.IntegerField(allow_null=True, help_text="The request to decide (kind join_request).")
    delivery = serializers.IntegerField(
        allow_null=True, help_text="The lost report mail, resent from the queue's page (kind undelivered_report)."
    )
    extension = serializers.IntegerField(
        allow_null=True,
        help_text="The request for more time (kind extension): approve or refuse it at "
        "/matches/{match}/extension/approve/ or refuse/.",
    )
    until = serializers.DateTimeField(allow_null=True, help_text="The deadline the request asks for (kind extension).")


class AdjustmentIn(serializers.Serializer):
    amount = serializers.IntegerField(help_text="Signed gil: positive adds to the treasury, negative takes away.")
    reason = serializers.CharField(max_length=adjustments.REASON_MAX)


class AdjustmentOut(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.username", default=None, read_only=True)

    class Meta:
        model = LedgerEntry
        fields = ["id", "team", "account", "amount", "balance_after", "kind", "reason", "created_by", "created_at"]


class InviteLinkOut(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    token = serializers.CharField(read_only=True)
    created_by = serializers.CharField(source="created_by.username", default=None, read_only=True)
    state = serializers.ChoiceField(choices=InviteLink.State.choices, read_only=True)

    class Meta:
        model = InviteLink
        fields = [
            "id",
            "url",
            "token",
            "league",
            "created_by",
            "created_at",
            "expires_at",
            "revoked_at",
            "uses",
            "state",
        ]

    def get_url(self, link: InviteLink) -> str:
        return link_url(self.context["request"], link.token)


class InviteLinkIn(serializers.Serializer):
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON_MAX)


class TokenIn(serializers.Serializer):
    token = serializers.CharField(max_length=500)


class JoinRequestIn(serializers.Serializer):
    message = serializers.CharField(required=False, allow_blank=True, default="", max_length=joining.MESSAGE_MAX)


class ReasonIn(serializers.Serializer):
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON_MAX)


class JoinRequestOut(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = JoinRequest
        fields = ["id", "league", "user", "username", "message", "state", "created_at", "decided_at"]


class ReassignIn(serializers.Serializer):
    coach = serializers.IntegerField(help_text="The user id of a coach member of the team's league.")
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON_MAX)


def _commissioner_league(request, pk) -> League:
    league = object_or_404(League, pk=pk)
    if not may_run_league(request.user, league):
        raise NotPermitted("Only a commissioner of this league may do that.")
    return league


def link_url(request, token: str) -> str:
    return request.build_absolute_uri(reverse("join-by-link", args=[token]))


#: A commissioner-only read's refusal, as the schema documents it.
NOT_COMMISSIONER = "Not a commissioner of this league."


class QueueView(APIView):
    """What waits for the commissioner, oldest first (contract: `[{kind, match?, team?, since, detail}]`)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: QueueItemOut(many=True), 403: OpenApiResponse(description=NOT_COMMISSIONER)})
    def get(self, request, pk: int):
        league = _commissioner_league(request, pk)
        return Response(QueueItemOut(league_queue(league=league), many=True).data)


class AdjustmentView(APIView):
    """The commissioner adds or takes gil from a team's treasury, with a reason (a ledger entry `adjustment`)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=AdjustmentIn,
        responses={201: AdjustmentOut, 400: OpenApiResponse(description="Bad amount or reason, or below 0 gil.")},
    )
    def post(self, request, pk: int):
        team = object_or_404(Team, pk=pk)
        data = validated(AdjustmentIn, request.data)
        entry = adjustments.team_adjust(
            user=request.user, team_id=team.pk, amount=data["amount"], reason=data["reason"]
        )
        return Response(AdjustmentOut(entry).data, status=status.HTTP_201_CREATED)


class InviteLinkView(generics.ListAPIView):
    """GET: the league's invite links, newest first, in pages, with their state and uses (commissioner). POST:
    the commissioner makes one (`{reason?}`): whoever opens it while it is valid joins as a coach."""

    serializer_class = InviteLinkOut
    pagination_class = Pagination
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema's generator asks for the model only
            return InviteLink.objects.none()
        league = _commissioner_league(self.request, self.kwargs["pk"])
        return league.invite_links.select_related("created_by").order_by("-created_at", "-id")

    @extend_schema(
        responses={200: InviteLinkOut(many=True), 403: OpenApiResponse(description=NOT_COMMISSIONER)},
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=InviteLinkIn,
        responses={
            201: InviteLinkOut,
            400: OpenApiResponse(description="A bad reason."),
            403: OpenApiResponse(description=NOT_COMMISSIONER),
            404: OpenApiResponse(description="No such league."),
        },
    )
    def post(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        data = validated(InviteLinkIn, request.data)
        link = joining.invite_link_create(user=request.user, league=league, reason=data["reason"])
        link = InviteLink.objects.select_related("created_by").get(pk=link.pk)
        return Response(InviteLinkOut(link, context={"request": request}).data, status=status.HTTP_201_CREATED)


class InviteLinkRevokeView(APIView):
    """The commissioner revokes an invite link of the league (`{reason?}`): it joins nobody from now on.
    Revoking a revoked link answers it as it is."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=InviteLinkIn,
        responses={
            200: InviteLinkOut,
            400: OpenApiResponse(description="A bad reason."),
            403: OpenApiResponse(description=NOT_COMMISSIONER),
            404: OpenApiResponse(description="No such invite link in this league."),
        },
    )
    def post(self, request, pk: int, link_id: int):
        object_or_404(InviteLink, pk=link_id, league_id=pk)
        data = validated(InviteLinkIn, request.data)
        joining.invite_link_revoke(user=request.user, link_id=path_id(link_id), reason=data["reason"])
        link = InviteLink.objects.select_related("created_by").get(pk=link_id)
        return Response(InviteLinkOut(link, context={"request": request}).data)


class InviteLinkJoinView(APIView):
    """The signed-in user joins the league an invite link opens (`{token}`)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=TokenIn, responses={201: MembershipOut})
    def post(self, request):
        data = validated(TokenIn, request.data)
        membership = joining.invite_link_join(user=request.user, token=data["token"])
        return Response(MembershipOut(membership).data, status=status.HTTP_201_CREATED)


class JoinRequestListView(APIView):
    """GET (commissioner): the league's pending requests to join, oldest first. POST (anyone signed in): ask to
    coach in this invite-only league."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: JoinRequestOut(many=True), 403: OpenApiResponse(description=NOT_COMMISSIONER)})
    def get(self, request, pk: int):
        league = _commissioner_league(request, pk)
        pending = league.join_requests.filter(state=JoinRequest.State.PENDING).select_related("user")
        return Response(JoinRequestOut(pending.order_by("created_at", "id"), many=True).data)

    @extend_schema(request=JoinRequestIn, responses={201: JoinRequestOut})
    def post(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        data = validated(JoinRequestIn, request.data)
        join = joining.join_request_create(user=request.user, league=league, message=data["message"])
        return Response(JoinRequestOut(join).data, status=status.HTTP_201_CREATED)


class JoinRequestDecisionView(APIView):
    """The commissioner approves (→ the membership) or refuses (`{reason?}`) a request to join."""

    permission_classes = [IsAuthenticated]
    decision = "approve"

    @extend_schema(request=ReasonIn, responses={200: OpenApiResponse(description="The membership or the request.")})
    def post(self, request, pk: int, request_id: int):
        object_or_404(JoinRequest, pk=request_id, league_id=pk)
        if self.decision == "approve":
            membership = joining.join_request_approve(user=request.user, request_id=path_id(request_id))
            return Response(MembershipOut(membership).data)
        data = validated(ReasonIn, request.data)
        join = joining.join_request_refuse(user=request.user, request_id=path_id(request_id), reason=data["reason"])
        return Response(JoinRequestOut(join).data)


class MemberRemoveView(APIView):
    """The commissioner removes a member (`{reason?}`): his teams stay, without coach until reassigned."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReasonIn, responses={200: OpenApiResponse(description="{teams_without_coach: [ids]}")})
    def post(self, request, pk: int, user_id: int):
        league = object_or_404(League, pk=pk)
        data = validated(ReasonIn, request.data)
        team_ids = members.member_remove(
            user=request.user, league_id=league.pk, member_id=path_id(user_id), reason=data["reason"]
        )
        return Response({"teams_without_coach": team_ids})


class TeamReassignView(APIView):
    """The commissioner hands a team to a coach member of its league (`{coach, reason?}`)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReassignIn, responses={200: OpenApiResponse(description="{team, coach, coach_username}")})
    def post(self, request, pk: int):
        team = object_or_404(Team, pk=pk)
        data = validated(ReassignIn, request.data)
        team = members.team_reassign(user=request.user, team_id=team.pk, coach_id=data["coach"], reason=data["reason"])
        return Response({"team": team.pk, "coach": team.coach_id, "coach_username": team.coach.username})
