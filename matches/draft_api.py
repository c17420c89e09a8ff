"""The live match sheet's endpoints (docs/api-v1-extensions.md "Live match sheet"): thin views over
`matches.drafts`. Included from dugout/api/urls.py under `matches/<id>/draft/`."""

from __future__ import annotations

from django.urls import path
from django.utils.html import strip_tags
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.errors import NotPermitted
from core.api.errors import validated
from core.api.lookup import object_or_404

from . import drafts, policy
from .models import Match
from .selectors import match_queryset
from .serializers import MatchOut
from .waiting import waiting_for
from .waiting_reads import waiting_queryset
from .web.waiting import waiting_banner


class DraftEventIn(serializers.Serializer):
    key = serializers.CharField(max_length=64, help_text="The client's idempotency key of this event.")
    kind = serializers.CharField(max_length=30, help_text="One of the ruleset's live event kinds.")
    team = serializers.IntegerField(required=False, allow_null=True)
    player = serializers.IntegerField(required=False, allow_null=True)
    players = serializers.ListField(child=serializers.IntegerField(), required=False, max_length=50)
    option = serializers.CharField(required=False, allow_blank=True, max_length=40)


class DraftUndoIn(serializers.Serializer):
    key = serializers.CharField(max_length=64, help_text="The key of the event to undo.")


class DraftEventOut(serializers.Serializer):
    key = serializers.CharField()
    seq = serializers.IntegerField()
    undone = serializers.BooleanField()
    kind = serializers.CharField()
    team = serializers.IntegerField()
    player = serializers.IntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.IntegerField())
    option = serializers.CharField(allow_blank=True)


class DraftWaitingOut(serializers.Serializer):
    blocked = serializers.BooleanField(help_text="The result cannot be submitted yet: it waits for another's step.")
    message = serializers.CharField(help_text="Who must act on the match and what, in words ('' when no one).")
    url = serializers.CharField(allow_null=True, help_text="The step that holds the result up.")


class DraftOut(serializers.Serializer):
    match = serializers.IntegerField()
    status = serializers.CharField()
    submitted_at = serializers.DateTimeField(allow_null=True)
    events = DraftEventOut(many=True)
    score = serializers.DictField(child=serializers.IntegerField(), help_text="Team id → running score.")
    body = serializers.JSONField(help_text="The result body the events fold into (POST …/result/ takes it).")
    waiting = DraftWaitingOut(help_text="Who the match waits for: the sheet warns when the result would be refused.")


def _match(request, pk) -> Match:
    # What the match waits for comes annotated with it (no query of its own): the sheet's warning.
    match = object_or_404(waiting_queryset(), pk=pk)
    if not policy.may_enter_result(request.user, match):
        raise NotPermitted("Only a coach of a team in this match or the commissioner can see its live sheet.")
    return match


def _state(request, match: Match, code: int = status.HTTP_200_OK) -> Response:
    banner = waiting_banner(request.user, waiting_for(match), may_enter_result=True)
    waiting = {
        "blocked": banner.blocked,
        "message": strip_tags(banner.line),
        "url": getattr(banner.theirs, "url", None),
    }
    return Response(DraftOut({**drafts.draft_state(match=match), "waiting": waiting}).data, status=code)


class DraftView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=DraftOut, summary="The match's live sheet")
    def get(self, request, pk):
        return _state(request, _match(request, pk))

    @extend_schema(
        request=DraftEventIn,
        responses={201: DraftOut, 200: OpenApiResponse(DraftOut, description="The key was already kept.")},
        summary="Add a tapped event (idempotent by key)",
    )
    def post(self, request, pk):
        match = _match(request, pk)
        data = validated(DraftEventIn, request.data)
        key = data.pop("key")
        _, new = drafts.draft_add_event(user=request.user, match=match, key=key, event=data)
        return _state(request, match, status.HTTP_201_CREATED if new else status.HTTP_200_OK)


class DraftUndoView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=DraftUndoIn, responses=DraftOut, summary="Undo a tapped event")
    def post(self, request, pk):
        match = _match(request, pk)
        data = validated(DraftUndoIn, request.data)
        drafts.draft_undo(user=request.user, match=match, key=data["key"])
        return _state(request, match)


class DraftSubmitView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: MatchOut}, summary="Submit the result the sheet folds into")
    def post(self, request, pk):
        match = _match(request, pk)
        drafts.draft_submit(user=request.user, match=match)
        return Response(MatchOut(match_queryset().get(pk=match.pk)).data, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("", DraftView.as_view(), name="api-match-draft"),
    path("undo/", DraftUndoView.as_view(), name="api-match-draft-undo"),
    path("submit/", DraftSubmitView.as_view(), name="api-match-draft-submit"),
]
