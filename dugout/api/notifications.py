"""A signed-in user's notifications, his channel choices and his browsers' push subscriptions (contract v1.2
"Notifications" and "Web push"): thin views over notifications/services.py and selectors.py. Everything here is
the caller's own: another user's notification or subscription is a 404, as if it did not exist."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.errors import validated
from core.api.fields import TextField
from core.api.lookup import object_or_404
from dugout.api.webhooks import StrictBoolean
from notifications import selectors, services
from notifications.kinds import DIGESTS, KINDS
from notifications.models import Notification, PushSubscription

MISSING = OpenApiResponse(description="No such notification (or subscription) of yours.")


class NotificationOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=list(KINDS))
    league = serializers.IntegerField(source="league_id", allow_null=True)
    match = serializers.IntegerField(source="match_id", allow_null=True)
    team = serializers.IntegerField(source="team_id", allow_null=True)
    text = serializers.CharField()
    url = serializers.CharField(help_text="Where to act on it: a path on this site.")
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)


class NotificationChannelsIn(serializers.Serializer):
    """One kind's channels. A channel left out of a PUT is at its default."""

    email = StrictBoolean(required=False)
    push = StrictBoolean(required=False)


class NotificationChannelsOut(serializers.Serializer):
    email = serializers.BooleanField()
    push = serializers.BooleanField()


#: `kinds`: one property per kind, so the schema lists them; anything else is refused (400) by the service.
KindsIn = type(
    "NotificationKindsIn", (serializers.Serializer,), {kind: NotificationChannelsIn(required=False) for kind in KINDS}
)
KindsOut = type(
    "NotificationKindsOut",
    (serializers.Serializer,),
    {kind: NotificationChannelsOut() for kind in KINDS},
)


class NotificationSettingsIn(serializers.Serializer):
    kinds = KindsIn(help_text="Per kind, e-mail and push on or off; a kind left out is at its default.")
    digest = serializers.ChoiceField(choices=list(DIGESTS))


class NotificationSettingsOut(serializers.Serializer):
    kinds = KindsOut(help_text="Every kind, both channels (in-app notifications are always on).")
    digest = serializers.ChoiceField(choices=list(DIGESTS))


class PushKeysIn(serializers.Serializer):
    p256dh = TextField(max_length=200)
    auth = TextField(max_length=100)


class PushSubscriptionIn(serializers.Serializer):
    """A browser's `PushSubscription.toJSON()` (its `expirationTime`, if sent, is not kept)."""

    endpoint = TextField(max_length=services.ENDPOINT_MAX)
    keys = PushKeysIn()


class PushSubscriptionOut(serializers.Serializer):
    id = serializers.IntegerField()
    endpoint = serializers.CharField()
    created_at = serializers.DateTimeField()


def _unread(request) -> bool:
    """`?unread=`: true or false (absent: false); anything else is the caller's mistake."""
    raw = request.query_params.get("unread")
    if raw is None or raw == "false":
        return False
    if raw == "true":
        return True
    raise ValidationError({"unread": ["true or false."]})


class NotificationListView(generics.ListAPIView):
    """GET: the caller's notifications, newest first, paged; `?unread=true` leaves out the read ones."""

    permission_classes = [IsAuthenticated]
    serializer_class = NotificationOut
    filter_backends: list = []

    def get_queryset(self):
        return selectors.notifications_of(self.request.user, unread=_unread(self.request))

    @extend_schema(
        parameters=[OpenApiParameter("unread", OpenApiTypes.BOOL, description="true: only the unread ones.")]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class NotificationReadView(APIView):
    """POST: mark one of the caller's notifications read → the notification (its first reading time is kept)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: NotificationOut, 404: MISSING})
    def post(self, request, pk: int):
        note = object_or_404(Notification.objects.filter(user=request.user), pk=pk)
        note = services.notification_mark_read(user=request.user, notification_id=note.pk)
        return Response(NotificationOut(note).data)


class NotificationReadAllView(APIView):
    """POST: mark every unread notification of the caller read → `{marked: N}`."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: inline_serializer("MarkedOut", {"marked": serializers.IntegerField()})}
    )
    def post(self, request):
        return Response({"marked": services.notifications_mark_all_read(user=request.user)})


class NotificationSettingsView(APIView):
    """GET: the caller's choices, every kind. PUT the same shape: replace them (an unknown kind or channel is a
    400 naming `kinds`; nothing changed)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: NotificationSettingsOut})
    def get(self, request):
        return Response(selectors.notification_settings_of(request.user))

    @extend_schema(request=NotificationSettingsIn, responses={200: NotificationSettingsOut})
    def put(self, request):
        validated(
            NotificationSettingsIn, request.data
        )  # the shape and the types; the service judges kinds and channels
        body = request.data
        saved = services.notification_settings_save(user=request.user, kinds=body["kinds"], digest=body["digest"])
        return Response(saved)


class PushKeyView(APIView):
    """GET (public): the VAPID application server key a browser subscribes with (empty: pushes are not set up
    on this server)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: inline_serializer("PushKeyOut", {"public_key": serializers.CharField()})})
    def get(self, request):
        return Response({"public_key": getattr(settings, "VAPID_PUBLIC_KEY", "") or ""})


class PushSubscriptionListView(APIView):
    """POST a browser's subscription: 201 a new one; 200 the same one when this endpoint is already the caller's.
    An endpoint another user subscribed moves to the caller (201). Not https → 400."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=PushSubscriptionIn, responses={201: PushSubscriptionOut, 200: PushSubscriptionOut})
    def post(self, request):
        data = validated(PushSubscriptionIn, request.data)
        row, made = services.push_subscribe(
            user=request.user, endpoint=data["endpoint"], p256dh=data["keys"]["p256dh"], auth=data["keys"]["auth"]
        )
        return Response(PushSubscriptionOut(row).data, status=status.HTTP_201_CREATED if made else status.HTTP_200_OK)


class PushSubscriptionDetailView(APIView):
    """DELETE: end one of the caller's push subscriptions (204); anyone else's is a 404."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None, 404: MISSING})
    def delete(self, request, pk: int):
        row = object_or_404(PushSubscription.objects.filter(user=request.user), pk=pk)
        services.push_unsubscribe(user=request.user, subscription_id=row.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
