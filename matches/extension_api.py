"""Requests for more time through the API (contract v1.2 "Deadlines that act"): thin views over
matches/extensions.py.

    POST /api/v1/matches/{id}/extension/ {until, reason}     a coach of the match asks → 201 the request
    POST /api/v1/matches/{id}/extension/approve/ {reason?}   the commissioner approves → 200, the deadline moved
    POST /api/v1/matches/{id}/extension/refuse/ {reason?}    the commissioner refuses → 200
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.errors import validated
from core.api.fields import TextField
from core.api.lookup import object_or_404

from . import extensions
from .models import Extension, Match


class ExtensionOut(serializers.ModelSerializer):
    class Meta:
        model = Extension
        fields = [
            "id",
            "match",
            "until",
            "reason",
            "state",
            "requested_by",
            "created_at",
            "decided_by",
            "decided_at",
            "decision_reason",
        ]


class ExtensionIn(serializers.Serializer):
    until = serializers.DateTimeField(
        help_text="The deadline asked for, ISO 8601 with its offset or Z: later than now's."
    )
    reason = TextField(max_length=extensions.REASON_MAX, help_text="Why more time is needed, in words.")


class DecisionIn(serializers.Serializer):
    reason = TextField(required=False, allow_blank=True, default="", max_length=extensions.REASON_MAX)


class MatchExtensionView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ExtensionIn,
        responses={
            201: ExtensionOut,
            400: OpenApiResponse(description="`until` not after the match's deadline (or none), or the match final."),
            403: OpenApiResponse(description="Not a coach of the match."),
            409: OpenApiResponse(description="Another request for this match waits for the commissioner."),
        },
    )
    def post(self, request, pk: int):
        """A coach of the match asks the commissioner for a later deadline."""
        match = object_or_404(Match, pk=pk)
        data = validated(ExtensionIn, request.data)
        extension = extensions.extension_request(
            user=request.user, match_id=match.pk, until=data["until"], reason=data["reason"]
        )
        return Response(ExtensionOut(extension).data, status=status.HTTP_201_CREATED)


class _DecisionView(APIView):
    permission_classes = [IsAuthenticated]
    decide = None

    def post(self, request, pk: int):
        match = object_or_404(Match, pk=pk)
        data = validated(DecisionIn, request.data)
        extension = type(self).decide(user=request.user, match_id=match.pk, reason=data["reason"])
        return Response(ExtensionOut(extension).data)


DECIDED = {
    200: ExtensionOut,
    403: OpenApiResponse(description="Not a commissioner of the match's league."),
    409: OpenApiResponse(description="No request waits: it was decided already."),
}


class MatchExtensionApproveView(_DecisionView):
    decide = staticmethod(extensions.extension_approve)

    @extend_schema(request=DecisionIn, responses=DECIDED)
    def post(self, request, pk: int):
        """The commissioner approves the waiting request: the match's deadline moves to `until` (audited)."""
        return super().post(request, pk)


class MatchExtensionRefuseView(_DecisionView):
    decide = staticmethod(extensions.extension_refuse)

    @extend_schema(request=DecisionIn, responses=DECIDED)
    def post(self, request, pk: int):
        """The commissioner refuses the waiting request (audited)."""
        return super().post(request, pk)
