"""The Atom feed of a league's weekly reports (`/leagues/<id>/reports/feed/`). Its links follow the address it
was asked at unless `SITE_URL` is set (`dugout.reports.services.site_url`)."""

from __future__ import annotations

from django.contrib.syndication.views import Feed
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from dugout.reports.services import report_body_html, report_url, site_url
from league.models import League, LeagueReport


class LeagueReportsFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, pk: int) -> League:
        # The feed object is shared by every request: this one rides on its league, to the items.
        league = get_object_or_404(League, pk=pk)
        league.request = request
        return league

    def title(self, league: League) -> str:
        return f"{league.name} — weekly reports"

    def subtitle(self, league: League) -> str:
        return f"The commissioner's newsletter of {league.name} ({league.get_ruleset_display()}), written every week."

    def link(self, league: League) -> str:
        return reverse("league-detail", args=[league.pk])

    def author_name(self, league: League) -> str:
        return league.created_by.username

    def items(self, league: League):
        reports = list(
            LeagueReport.objects.filter(league=league).defer("chart_png").order_by("-week_start", "-id")[:20]
        )
        for report in reports:
            report.league, report.request = league, league.request
        return reports

    def item_title(self, report: LeagueReport) -> str:
        headline = report.data.get("headline") or ""
        return f"Week {report.week}" + (f": {headline}" if headline else "")

    def item_description(self, report: LeagueReport) -> str:
        return report_body_html(report, request=report.request)

    def item_link(self, report: LeagueReport) -> str:
        return report_url(report)

    def item_guid(self, report: LeagueReport) -> str:
        return f"{site_url(report.request)}{report_url(report)}"

    item_guid_is_permalink = False

    def item_pubdate(self, report: LeagueReport):
        return report.created_at

    def item_updateddate(self, report: LeagueReport):
        return report.updated_at
