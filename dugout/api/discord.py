"""The league's Discord (api-v1 v1.2 "Discord, both ways"): the commissioner connects the league to a Discord
application; Discord posts interactions to the league's endpoint; a signed-in user makes a one-time code to link
his Discord user. Thin views over league/discord.py and dugout/discord/."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.errors import validated
from core.api.fields import TextField
from core.api.lookup import object_or_404, path_id
from dugout.discord.interactions import interaction_answer
from dugout.reports.services import site_url
from league.discord import discord_code_create, discord_configure
from league.models import League


class LeagueDiscordIn(serializers.Serializer):
    application_id = TextField(max_length=40, help_text="The Discord application's id (a snowflake, as text).")
    public_key = TextField(max_length=200, help_text="The application's Ed25519 public key: 64 hex digits.")


class LeagueDiscordOut(serializers.Serializer):
    application_id = serializers.CharField()
    public_key = serializers.CharField()
    interactions_url = serializers.URLField(help_text="The address to paste as the application's Interactions URL.")


class LinkCodeOut(serializers.Serializer):
    code = serializers.CharField(help_text="Send `/link code:<code>` in the league's Discord; shown only now.")
    expires_at = serializers.DateTimeField()


def interactions_url(request, league_id: int) -> str:
    """The league's interactions endpoint, absolute (what the commissioner pastes in Discord's portal)."""
    return site_url(request) + reverse("api-discord-interactions", args=[league_id])


class LeagueDiscordView(APIView):
    """PUT `{application_id, public_key}`: connect the league to its Discord application (commissioner; audited).
    A public key that is not 32 bytes of hex → 400."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=LeagueDiscordIn,
        responses={
            200: LeagueDiscordOut,
            400: OpenApiResponse(description="A field is missing, or not a Discord id / a 32-byte hex key."),
            403: OpenApiResponse(description="Not a commissioner of this league."),
            404: OpenApiResponse(description="No such league."),
        },
    )
    def put(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        data = validated(LeagueDiscordIn, request.data)
        row = discord_configure(user=request.user, league_id=league.pk, **data)
        return Response(
            {
                "application_id": row.application_id,
                "public_key": row.public_key,
                "interactions_url": interactions_url(request, league.pk),
            }
        )


class DiscordInteractionsView(APIView):
    """Discord's interactions for one league, signed with the league's application key (`X-Signature-Ed25519`
    over `X-Signature-Timestamp` + body; wrong, missing or older than five minutes → 401). PING → `{type: 1}`;
    the commands `table`, `next`, `link` (option `code`), `confirm` (option `match`) → `{type: 4, data:
    {content, …}}`. No session, token or CSRF: the signature is the authentication. 404: no such league, or not
    connected to Discord."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer]

    @extend_schema(
        request=inline_serializer("DiscordInteraction", {"type": serializers.IntegerField()}),
        responses={
            200: inline_serializer(
                "DiscordInteractionResponse", {"type": serializers.IntegerField(), "data": serializers.DictField()}
            ),
            400: OpenApiResponse(description="Signed, but not an interaction Dugout answers."),
            401: OpenApiResponse(description="The signature is missing, wrong or stale."),
            404: OpenApiResponse(description="No such league, or it is not connected to Discord."),
        },
    )
    def post(self, request, league_id: int):
        code, answer = interaction_answer(
            league_id=path_id(league_id),
            signature=request.headers.get("X-Signature-Ed25519"),
            timestamp=request.headers.get("X-Signature-Timestamp"),
            body=request.body,
            base=site_url(request),
        )
        return Response(answer, status=code)


class DiscordCodeView(APIView):
    """POST: a one-time code (valid 10 minutes, once) that ties a Discord user to the caller's account when sent as
    `/link code:<code>` in a league's Discord. A new code replaces the caller's unspent one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: LinkCodeOut})
    def post(self, request):
        code, expires_at = discord_code_create(user=request.user)
        return Response({"code": code, "expires_at": expires_at}, status=status.HTTP_201_CREATED)
