"""A user's private calendar feed: the URL that reads every match of his teams without signing in.

The URL's secret is not stored: it is an HMAC, under the project's SECRET_KEY, of the user's id and this row's
random `salt` (league/calendar_feeds.py), so a copy of the database alone opens no one's calendar, and the
account page can show the same URL again. Rotating draws a new salt: the old URL stops working at once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class CalendarFeed(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed")
    salt = models.CharField(max_length=32)
    rotated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "league"

    def __str__(self) -> str:
        return f"calendar feed of user {self.user_id}"
