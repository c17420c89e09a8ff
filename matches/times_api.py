"""Match times through the API (docs/api-v1-extensions.md "Match times and the league clock"): thin
views over matches/times.py.

    GET  /api/v1/matches/{id}/times/                      the match's proposals, oldest first (public)
    POST /api/v1/matches/{id}/times/ {at}                 a coach of the match proposes a time → 201
    POST /api/v1/matches/{id}/times/{proposal}/accept/    the opponent accepts it → 200, the match
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.errors import validated
from core.api.lookup import object_or_404, path_id

from . import times
from .models import Match, TimeProposal
from .selectors import match_queryset
from .serializers import MatchOut


class TimeProposalOut(serializers.ModelSerializer):
    class Meta:
        model = TimeProposal
        fields = ["id", "match", "team", "proposed_by", "at", "state", "created_at", "answered_by", "answered_at"]


class TimeProposalIn(serializers.Serializer):
    at = serializers.DateTimeField(help_text="The proposed kick-off, ISO 8601 with its offset or Z.")


class MatchTimesView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=TimeProposalOut(many=True))
    def get(self, request, pk: int):
        match = object_or_404(Match, pk=pk)
        return Response(TimeProposalOut(times.match_time_proposals(match=match), many=True).data)

    @extend_schema(request=TimeProposalIn, responses={201: TimeProposalOut})
    def post(self, request, pk: int):
        match = object_or_404(Match, pk=pk)
        data = validated(TimeProposalIn, request.data)
        proposal = times.match_time_propose(user=request.user, match_id=match.pk, at=data["at"])
        return Response(TimeProposalOut(proposal).data, status=status.HTTP_201_CREATED)


class MatchTimeAcceptView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(request=None, responses=MatchOut)
    def post(self, request, pk: int, proposal_id: int):
        match = object_or_404(Match, pk=pk)
        times.match_time_accept(user=request.user, match_id=match.pk, proposal_id=path_id(proposal_id))
        return Response(MatchOut(match_queryset().get(pk=match.pk)).data)
