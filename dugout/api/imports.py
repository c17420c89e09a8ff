"""api-v1.1 `POST /leagues/import/`: an export document rebuilt as a new league of the caller (dugout/importer.py).

The body is never read whole: the importer reads it as a stream of JSON events, so the API's general body limit
(and its depth scan of the whole text, core/input_guard.py) does not apply to this one path; its own limit,
`IMPORT_MAX_BYTES`, is answered 413."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from dugout.importer import TooLarge, league_import

#: The one path whose body is streamed (input_guard leaves its size to the importer).
IMPORT_PATH = "/api/v1/leagues/import/"


class LeagueImportView(APIView):
    """Any signed-in user: the export document in the body → 201 `{id}` of the new league (the caller its
    commissioner and every team's coach); 400 naming the first bad path (`{"teams[3].players[0].position":
    ["…"]}`), nothing created; 413 past IMPORT_MAX_BYTES."""

    permission_classes = [IsAuthenticated]
    # The body is read by the importer as a stream, not parsed by DRF.
    parser_classes: list = []

    @extend_schema(
        request={"application/json": {"type": "object", "description": "An export document (GET .../export/)."}},
        responses={
            201: inline_serializer("LeagueImported", {"id": serializers.IntegerField()}),
            400: OpenApiResponse(description="The first bad path of the document, with what is wrong there."),
            413: OpenApiResponse(description="The document is longer than IMPORT_MAX_BYTES."),
        },
    )
    def post(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0) or None
        except ValueError:
            length = None
        try:
            league = league_import(user=request.user, stream=request._request, length=length)
        except TooLarge as error:
            return Response({"detail": error.message}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        return Response({"id": league.pk}, status=status.HTTP_201_CREATED)
