"""The signed-in user's own reads: `GET /api/v1/me/actions/`, everything that waits for him (contract v1.2
"What waits for whom"), the same list as his home page and the header's badge (`dugout.actions`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from dugout.actions import KINDS, user_actions


class UserActionOut(serializers.Serializer):
    # A string, not a choice field: an enum named "kind" would collide in the schema with the match's kinds.
    kind = serializers.CharField(help_text=f"One of {', '.join(KINDS)}.")
    league = serializers.IntegerField()
    match = serializers.IntegerField(allow_null=True)
    team = serializers.IntegerField(allow_null=True, help_text="The caller's team the act is for, if any.")
    text = serializers.CharField(help_text="What to do, in words (the caller's language).")
    url = serializers.CharField(help_text="The page where it is done.")
    since = serializers.DateTimeField(allow_null=True, help_text="Since when it waits.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="The match's deadline, if any.")


class MeActionsView(APIView):
    """Everything that waits for the caller, oldest first: a plain list, empty when nothing waits."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: UserActionOut(many=True)})
    def get(self, request):
        return Response(UserActionOut(user_actions(user=request.user), many=True).data)
