"""A league's outgoing webhooks (docs/api-v1-extensions.md): thin views
over league/webhooks/services.py. Everything here is the commissioner's (403 otherwise); writes are audited."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.errors import NotPermitted
from core.api.errors import validated
from core.api.fields import TextField
from core.api.lookup import object_or_404
from league.models import League, Webhook
from league.models.webhooks import EVENTS, URL_LENGTH
from league.policy import may_run_league
from league.webhooks import services

FORBIDDEN = OpenApiResponse(description="Not a commissioner of this league.")
MISSING = OpenApiResponse(description="No such league (or no such webhook of it).")
REFUSED = OpenApiResponse(description="A field is missing or wrong, or the URL is not a public http(s) one.")
#: The delivery log answers the newest deliveries, at most this many.
LOG_LENGTH = 100


class WebhookIn(serializers.Serializer):
    url = TextField(max_length=URL_LENGTH)
    kind = serializers.ChoiceField(choices=Webhook.Kind.choices)
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENTS), allow_empty=False, max_length=3)
    reason = TextField(required=False, max_length=services.REASON_MAX)


class WebhookOut(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    kind = serializers.CharField()
    events = serializers.ListField(child=serializers.CharField())
    enabled = serializers.BooleanField()
    last_status = serializers.CharField(allow_null=True)


class WebhookMadeOut(WebhookOut):
    secret = serializers.CharField(help_text="The HMAC key of the X-Dugout-Signature header: shown only here.")


class StrictBoolean(serializers.BooleanField):
    """true or false, and only those (DRF's also takes "no", 0, "on"…, which the schema's boolean refuses)."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class WebhookChangeIn(serializers.Serializer):
    """A partial update: every field may be left out (it stays as it is)."""

    url = TextField(required=False, max_length=URL_LENGTH)
    kind = serializers.ChoiceField(required=False, choices=Webhook.Kind.choices)
    events = serializers.ListField(
        required=False, child=serializers.ChoiceField(choices=EVENTS), allow_empty=False, max_length=3
    )
    enabled = StrictBoolean(required=False)
    reason = TextField(required=False, max_length=services.REASON_MAX)


class WebhookReasonIn(serializers.Serializer):
    reason = TextField(required=False, max_length=services.REASON_MAX)


class DeliveryOut(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.CharField()
    status = serializers.ChoiceField(choices=["pending", "delivered", "failed"])
    attempts = serializers.IntegerField()
    response_code = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


def _status(value: str | None) -> str | None:
    return "pending" if value == "sending" else value


def _out(hook: Webhook, *, last: str | None = None) -> dict:
    return {
        "id": hook.pk,
        "url": hook.url,
        "kind": hook.kind,
        "events": hook.events,
        "enabled": hook.enabled,
        "last_status": _status(getattr(hook, "last_status", last)),
    }


def _commissioned(request, pk: int) -> League:
    league = object_or_404(League, pk=pk)
    if not may_run_league(request.user, league):
        raise NotPermitted("Only the league's commissioner manages its webhooks.")
    return league


class WebhookListView(APIView):
    """GET: the league's webhooks with their last delivery's status. POST `{url, kind, events, reason?}`: a new
    hook (201, with its `secret`, shown only then)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: WebhookOut(many=True), 403: FORBIDDEN, 404: MISSING})
    def get(self, request, pk: int):
        league = _commissioned(request, pk)
        return Response([_out(hook) for hook in services.league_webhooks(league=league)])

    @extend_schema(request=WebhookIn, responses={201: WebhookMadeOut, 400: REFUSED, 403: FORBIDDEN, 404: MISSING})
    def post(self, request, pk: int):
        league = object_or_404(League, pk=pk)
        data = validated(WebhookIn, request.data)
        hook = services.webhook_create(user=request.user, league_id=league.pk, **data)
        return Response({**_out(hook), "secret": hook.secret}, status=status.HTTP_201_CREATED)


class WebhookDetailView(APIView):
    """PATCH `{url?, kind?, events?, enabled?, reason?}`: change what is given, the rest as it is (a new URL is
    checked as a new hook's, and clears the hook's 404/410 count). DELETE (`{reason?}`): delete it (204)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=WebhookChangeIn, responses={200: WebhookOut, 400: REFUSED, 403: FORBIDDEN, 404: MISSING})
    def patch(self, request, pk: int, hook_id: int):
        league = _commissioned(request, pk)
        hook = object_or_404(Webhook.objects.filter(league=league), pk=hook_id)
        data = validated(WebhookChangeIn, request.data)
        hook = services.webhook_update(user=request.user, league_id=league.pk, hook_id=hook.pk, **data)
        last = services.hook_deliveries(hook=hook).values_list("status", flat=True).first()
        return Response(_out(hook, last=last))

    @extend_schema(request=WebhookReasonIn, responses={204: None, 400: REFUSED, 403: FORBIDDEN, 404: MISSING})
    def delete(self, request, pk: int, hook_id: int):
        league = _commissioned(request, pk)
        hook = object_or_404(Webhook.objects.filter(league=league), pk=hook_id)
        data = validated(WebhookReasonIn, request.data)
        services.webhook_delete(user=request.user, league_id=league.pk, hook_id=hook.pk, **data)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveryListView(APIView):
    """GET: the hook's newest deliveries (at most LOG_LENGTH), newest first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: DeliveryOut(many=True), 403: FORBIDDEN, 404: MISSING})
    def get(self, request, pk: int, hook_id: int):
        league = _commissioned(request, pk)
        hook = object_or_404(Webhook.objects.filter(league=league), pk=hook_id)
        rows = services.hook_deliveries(hook=hook).values(
            "id", "event", "status", "attempts", "response_code", "created_at"
        )[:LOG_LENGTH]
        return Response(DeliveryOut([{**r, "status": _status(r["status"])} for r in rows], many=True).data)
