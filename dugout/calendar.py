"""The iCalendar feeds (contract: api-v1 "Contract additions (v1.1)"): `/leagues/<id>/calendar.ics`
and `/teams/<id>/calendar.ics`, public, RFC 5545, built with the `icalendar` library; and each coach's private
feed `/calendar/<token>.ics` (v1.2): every match of his teams across leagues, read without signing in, the
token being the secret (league/calendar_feeds.py).

One VEVENT per match with a date (`scheduled_for`): every match of the open season not final yet, and the last
FINAL_KEPT final ones of any season (the calendar keeps recent history without growing with it). Its UID is
`match-<id>@<UID_DOMAIN>`, the same on every request and on every host the site answers at; DTSTART is the
agreed time, DURATION a match's usual length, the description carries the deadline (and the result once final).
Four queries whatever the size of the league: the league (or team), the open matches, the final ones, and the
sides with their teams.
"""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import icalendar
from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

from dugout.reports.services import site_url
from league.calendar_feeds import calendar_feed_user
from league.models import League
from matches import lifecycle
from matches.models import Match, MatchTeam
from teams.models import Team

#: The UIDs' domain: fixed, so a match keeps its UID whatever address the feed is read at.
UID_DOMAIN = "dugout.league"
#: How many final matches a feed keeps (the most recent by their date).
FINAL_KEPT = 50
#: The events' length: a game of Blitz Bowl, ElfBall or Bone Cruncher takes an evening's two hours or so.
MATCH_LENGTH = timedelta(hours=2)
PRODID = "-//Dugout//League calendar//EN"


def match_uid(match: Match) -> str:
    return f"match-{match.pk}@{UID_DOMAIN}"


def _matches(league: League, scope: Q) -> list[Match]:
    """The feed's matches in `scope`: the open season's not yet final, then the last FINAL_KEPT final ones."""
    dated: QuerySet[Match] = Match.objects.filter(scope, scheduled_for__isnull=False)
    still_open = list(dated.filter(season=league.season, status__in=lifecycle.OPEN).order_by("scheduled_for", "pk"))
    final = list(dated.filter(status=Match.Status.FINAL).order_by("-scheduled_for", "-pk")[:FINAL_KEPT])
    matches = sorted(final, key=lambda m: (m.scheduled_for, m.pk)) + still_open
    sides = Prefetch("sides", queryset=MatchTeam.objects.select_related("team").order_by("order"))
    prefetch_related_objects(matches, sides)
    return matches


def _description(match: Match, league: League) -> str:
    zone = ZoneInfo(league.timezone)
    lines = [f"{league.name}, season {match.season}" + (f", round {match.round}" if match.round else "")]
    if match.kind != Match.Kind.LEAGUE:
        lines.append(match.get_kind_display())
    if match.deadline:
        local = match.deadline.astimezone(zone)
        lines.append(f"Result due by {local:%a %d %b %Y %H:%M} ({league.timezone}; {match.deadline:%Y-%m-%dT%H:%MZ})")
    else:
        lines.append("No deadline.")
    if match.status == Match.Status.FINAL:
        score = " – ".join("?" if s.score is None else str(s.score) for s in match.sides.all())
        lines.append(f"Result: {score}" if "?" not in score else "Result: final")
    else:
        lines.append(f"Status: {match.get_status_display()}")
    return "\n".join(lines)


def calendar_document(*, name: str, league: League | None, matches: list[Match], base: str) -> bytes:
    """The VCALENDAR of `matches` (pure: no query). `league`: the feed's league, or None for a feed across
    leagues, whose matches come with their own (`select_related("league")`)."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("name", name)
    calendar.add("x-wr-calname", name)
    for match in matches:
        sides = list(match.sides.all())
        event = icalendar.Event()
        event.add("uid", match_uid(match))
        # Without a METHOD, DTSTAMP is when the event's information was last revised (RFC 5545 3.8.7.2).
        revised = max(t for t in (match.created_at, match.submitted_at, match.confirmed_at) if t is not None)
        event.add("dtstamp", revised)
        event.add("dtstart", match.scheduled_for)
        event.add("duration", MATCH_LENGTH)
        title = " v ".join(side.team.name for side in sides)
        prefix = f"{match.get_kind_display()}: " if match.kind in (Match.Kind.FINAL, Match.Kind.PLAYOFF) else ""
        event.add("summary", f"{prefix}{title}")
        event.add("description", _description(match, league or match.league))
        event.add("url", base + reverse("match-detail", args=[match.pk]))
        event.add("status", "CONFIRMED")
        calendar.add_component(event)
    return calendar.to_ical()


def _response(document: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(document, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def league_calendar(request: HttpRequest, pk: int) -> HttpResponse:
    """`/leagues/<id>/calendar.ics`: the league's matches with a date."""
    league = get_object_or_404(League, pk=pk)
    matches = _matches(league, Q(league=league))
    document = calendar_document(name=league.name, league=league, matches=matches, base=site_url(request))
    return _response(document, f"league-{league.pk}.ics")


def team_calendar(request: HttpRequest, pk: int) -> HttpResponse:
    """`/teams/<id>/calendar.ics`: the team's matches with a date."""
    team = get_object_or_404(Team.objects.select_related("league"), pk=pk)
    league = team.league
    matches = _matches(league, Q(league=league, sides__team=team))
    name = f"{team.name} ({league.name})"
    document = calendar_document(name=name, league=league, matches=matches, base=site_url(request))
    return _response(document, f"team-{team.pk}.ics")


def _coach_matches(user) -> list[Match]:
    """The feed's matches across every league: those of the teams `user` coaches, with a date — every one not
    final yet, then the last FINAL_KEPT final ones — each with its league and its sides (three queries)."""
    theirs = MatchTeam.objects.filter(team__coach=user).values("match_id")
    dated = Match.objects.filter(pk__in=theirs, scheduled_for__isnull=False).select_related("league")
    still_open = list(dated.filter(status__in=lifecycle.OPEN).order_by("scheduled_for", "pk"))
    final = list(dated.filter(status=Match.Status.FINAL).order_by("-scheduled_for", "-pk")[:FINAL_KEPT])
    matches = sorted(final, key=lambda m: (m.scheduled_for, m.pk)) + still_open
    sides = Prefetch("sides", queryset=MatchTeam.objects.select_related("team").order_by("order"))
    prefetch_related_objects(matches, sides)
    return matches


def private_calendar(request: HttpRequest, token: str) -> HttpResponse:
    """`/calendar/<token>.ics`: the matches of every team the token's user coaches, in every league; 404 for a
    token that opens nothing (never was, or rotated away). Four queries."""
    user = calendar_feed_user(token)
    if user is None:
        raise Http404("No such calendar.")
    name = _("%(username)s's matches") % {"username": user.get_username()}
    document = calendar_document(name=name, league=None, matches=_coach_matches(user), base=site_url(request))
    response = _response(document, "my-matches.ics")
    patch_cache_control(response, private=True)
    return response
