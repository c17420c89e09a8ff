"""A signed-in user's private calendar feed (api-v1 v1.2 "Accounts"): its URL, and a new one in its place.
The feed itself is a page (`/calendar/<token>.ics`, dugout/calendar.py), read without signing in."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from dugout.reports.services import site_url
from league.calendar_feeds import calendar_feed_rotate, calendar_feed_token


class CalendarOut(serializers.Serializer):
    url = serializers.URLField(help_text="A text/calendar feed of every match of your teams; the URL is the secret.")


def feed_url(request, token: str) -> str:
    return site_url(request) + reverse("private-calendar", args=[token])


class CalendarView(APIView):
    """GET: the address of the caller's private calendar (the same until he rotates it)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=CalendarOut)
    def get(self, request):
        return Response({"url": feed_url(request, calendar_feed_token(user=request.user))})


class CalendarRotateView(APIView):
    """POST: a new address for the caller's private calendar; the old one answers 404 from now on."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=CalendarOut)
    def post(self, request):
        return Response({"url": feed_url(request, calendar_feed_rotate(user=request.user))})
