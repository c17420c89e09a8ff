"""The Atom feed of a league's weekly reports (`/leagues/<id>/reports/feed/`)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from .models import League, LeagueReport
from .reports import report_url


class LeagueReportsFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, pk: int) -> League:
        return get_object_or_404(League, pk=pk)

    def title(self, league: League) -> str:
        return f"{league.name} — weekly reports"

    def subtitle(self, league: League) -> str:
        return f"The commissioner's newsletter of {league.name} ({league.get_ruleset_display()}), written every week."

    def link(self, league: League) -> str:
        return reverse("league-detail", args=[league.pk])

    def author_name(self, league: League) -> str:
        return league.created_by.username

    def items(self, league: League):
        return LeagueReport.objects.filter(league=league).order_by("-week_start", "-id")[:20]

    def item_title(self, report: LeagueReport) -> str:
        headline = report.data.get("headline") or ""
        return f"Week {report.week}" + (f": {headline}" if headline else "")

    def item_description(self, report: LeagueReport) -> str:
        return report.html

    def item_link(self, report: LeagueReport) -> str:
        return report_url(report)

    def item_guid(self, report: LeagueReport) -> str:
        return f"{settings.SITE_URL}{report_url(report)}"

    item_guid_is_permalink = False

    def item_pubdate(self, report: LeagueReport):
        return report.created_at

    def item_updateddate(self, report: LeagueReport):
        return report.updated_at
