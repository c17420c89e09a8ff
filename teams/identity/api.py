"""The team identity endpoints (docs/api-v1-extensions.md "Team identity"): `PATCH /api/v1/teams/{id}/`
sets the colours, `POST`/`DELETE /api/v1/teams/{id}/logo/` replaces or removes the logo. Mixed into the team
viewset (teams/api.py); the services check who may (the coach or the commissioner), not the viewset's
coach-only object permission, so these look the team up themselves."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from core.api.errors import validated
from core.api.fields import TextField
from core.api.lookup import object_or_404
from core.api.parsers import GuardedMultiPartParser
from teams.models import Team

from . import services

IDENTITY_FIELDS = ["primary_colour", "secondary_colour", "logo"]

TEAM = OpenApiResponse(description="The team, as `GET /api/v1/teams/{id}/` answers it.")
REFUSALS = {
    401: OpenApiResponse(description="Not signed in."),
    403: OpenApiResponse(description="Only this team's coach or the league's commissioner may."),
    404: OpenApiResponse(description="No such team."),
}


def logo_urls(team: Team, request=None) -> dict | None:
    """The logo's URLs by size (`{"256": url, "64": url}`), absolute when a request is at hand; None: no logo."""
    if not team.logo_key:
        return None
    urls = {}
    for size in (256, 64):
        path = reverse("team-logo", kwargs={"pk": team.pk, "key": team.logo_key, "size": size})
        urls[str(size)] = request.build_absolute_uri(path) if request is not None else path
    return urls


class TeamIdentityOutMixin(serializers.Serializer):
    """The identity fields of a team as the API shows it."""

    primary_colour = serializers.CharField(read_only=True)
    secondary_colour = serializers.CharField(read_only=True)
    logo = serializers.SerializerMethodField()

    def get_logo(self, team: Team) -> dict[str, str] | None:
        return logo_urls(team, self.context.get("request"))


class ColoursIn(serializers.Serializer):
    primary_colour = TextField(required=False, max_length=7)
    secondary_colour = TextField(required=False, max_length=7)
    reason = TextField(required=False, max_length=500)


class LogoIn(serializers.Serializer):
    logo = serializers.FileField()
    reason = TextField(required=False, max_length=500)


class TeamIdentityActions:
    """The viewset's identity actions (needs `_team_out`)."""

    @extend_schema(
        request=ColoursIn,
        responses={200: TEAM, 400: OpenApiResponse(description="A colour is not #rrggbb."), **REFUSALS},
        description="Set the team's colours (#rrggbb); the coach or the commissioner (audited, with `reason`).",
    )
    def partial_update(self, request, pk=None):
        team = object_or_404(Team, pk=pk)
        data = validated(ColoursIn, request.data)
        services.team_set_colours(
            team_id=team.pk,
            user=request.user,
            primary=data.get("primary_colour"),
            secondary=data.get("secondary_colour"),
            reason=data.get("reason", ""),
        )
        return self._team_out(team.pk)

    @extend_schema(
        methods=["POST"],
        request={"multipart/form-data": LogoIn},
        responses={
            200: TEAM,
            400: OpenApiResponse(
                description="Not a PNG, JPEG or WebP image, too large, or with metadata too large to unpack; unchanged."
            ),
            **REFUSALS,
        },
    )
    @extend_schema(
        methods=["DELETE"],
        responses={204: None, **REFUSALS},
        parameters=[OpenApiParameter("reason", str, description="The commissioner's reason, for the audit.")],
    )
    @action(
        detail=True,
        methods=["post", "delete"],
        parser_classes=[GuardedMultiPartParser],
        url_path="logo",
    )
    def logo(self, request, pk=None):
        """Upload (multipart, field `logo`) or remove the team's logo; stored re-encoded as 256 and 64 px PNGs."""
        team = object_or_404(Team, pk=pk)
        if request.method == "DELETE":
            services.team_remove_logo(team_id=team.pk, user=request.user, reason=request.query_params.get("reason", ""))
            return Response(status=status.HTTP_204_NO_CONTENT)
        data = validated(LogoIn, request.data)
        upload = data["logo"]
        data_bytes = upload.read(settings.TEAM_LOGO_MAX_BYTES + 1)
        services.team_set_logo(team_id=team.pk, user=request.user, data=data_bytes, reason=data.get("reason", ""))
        return self._team_out(team.pk)
