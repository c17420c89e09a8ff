"""The iCalendar feeds (issue 13, "Feeds"; api-v1 v1.1): `/leagues/<id>/calendar.ics` and
`/teams/<id>/calendar.ics`, public `text/calendar`, parsed back with `icalendar` in every test: one VEVENT per
match with a date, a UID stable across requests and hosts, DTSTART the agreed time, the deadline in the
description; bounded (the open season's matches not final, the last FINAL_KEPT final ones) and read in four
queries at 4 and at 400 teams."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import icalendar
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dugout.calendar import FINAL_KEPT, MATCH_LENGTH, UID_DOMAIN
from matches.models import Match, MatchTeam
from tests.bulk_league import bulk_league
from tests.factories import LeagueFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db

KICKOFF = datetime(2026, 12, 5, 19, 30, tzinfo=UTC)
DEADLINE = datetime(2026, 12, 10, 23, 0, tzinfo=UTC)
#: The league or team, the open matches, the final ones, the sides with their teams.
FEED_QUERIES = 4


def fixture(league, teams, **fields) -> Match:
    """A match set up directly (the schedule generator sets dates: not under test here)."""
    fields = {"season": league.season, **fields}
    match = Match.objects.create(league=league, created_by=league.created_by, **fields)
    MatchTeam.objects.bulk_create([MatchTeam(match=match, team=t, order=i) for i, t in enumerate(teams)])
    return match


@pytest.fixture
def sides(league, coach, other_coach):
    return [
        TeamFactory(league=league, coach=coach, name="Alice's Humes"),
        TeamFactory(league=league, coach=other_coach, name="Bob's Goblins", roster="goblin"),
    ]


def parsed(response) -> icalendar.Calendar:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def events(calendar: icalendar.Calendar) -> list:
    return list(calendar.walk("VEVENT"))


def test_the_league_feed_has_one_event_per_match_with_a_date_and_what_a_calendar_needs(client, league, sides):
    dated = fixture(league, sides, scheduled_for=KICKOFF, deadline=DEADLINE, round=2)
    fixture(league, sides, deadline=DEADLINE)  # no date agreed: not in a calendar

    calendar = parsed(client.get(f"/leagues/{league.pk}/calendar.ics"))

    assert calendar["VERSION"] == "2.0" and calendar["PRODID"].startswith("-//Dugout//")
    assert str(calendar["X-WR-CALNAME"]) == league.name
    [event] = events(calendar)
    assert str(event["UID"]) == f"match-{dated.pk}@{UID_DOMAIN}"
    assert event.decoded("DTSTART") == KICKOFF
    assert event.decoded("DURATION") == MATCH_LENGTH
    assert event.decoded("DTSTAMP") == dated.created_at.replace(microsecond=0)
    assert str(event["SUMMARY"]) == "Alice's Humes v Bob's Goblins"
    description = str(event["DESCRIPTION"])
    assert "round 2" in description and "Result due by" in description and "2026-12-10T23:00Z" in description
    assert str(event["URL"]).endswith(reverse("match-detail", args=[dated.pk]))


def test_the_uid_is_the_same_on_every_request_and_every_host(client, league, sides, settings):
    settings.ALLOWED_HOSTS = ["testserver", "dugout.example.org"]
    fixture(league, sides, scheduled_for=KICKOFF)
    uids = [
        [str(e["UID"]) for e in events(parsed(client.get(f"/leagues/{league.pk}/calendar.ics", HTTP_HOST=host)))]
        for host in ("testserver", "dugout.example.org", "testserver")
    ]
    assert uids[0] == uids[1] == uids[2] and len(uids[0]) == 1


def test_the_team_feed_holds_only_the_teams_matches(client, league, sides, commissioner):
    third = TeamFactory(league=league, coach=UserFactory(username="carol"), name="Carol's Elves")
    theirs = fixture(league, sides, scheduled_for=KICKOFF)
    fixture(league, [sides[1], third], scheduled_for=KICKOFF + timedelta(days=1))

    calendar = parsed(client.get(f"/teams/{sides[0].pk}/calendar.ics"))

    assert [str(e["UID"]) for e in events(calendar)] == [f"match-{theirs.pk}@{UID_DOMAIN}"]
    assert str(calendar["X-WR-CALNAME"]) == f"Alice's Humes ({league.name})"
    assert len(events(parsed(client.get(f"/teams/{sides[1].pk}/calendar.ics")))) == 2


def test_a_final_match_shows_its_score_and_a_play_off_says_so(client, league, sides):
    final = fixture(league, sides, scheduled_for=KICKOFF, status=Match.Status.FINAL, kind=Match.Kind.FINAL)
    MatchTeam.objects.filter(match=final, order=0).update(score=2)
    MatchTeam.objects.filter(match=final, order=1).update(score=1)
    [event] = events(parsed(client.get(f"/leagues/{league.pk}/calendar.ics")))
    assert str(event["SUMMARY"]) == "Final: Alice's Humes v Bob's Goblins"
    assert "Result: 2 – 1" in str(event["DESCRIPTION"]) and "No deadline." in str(event["DESCRIPTION"])


def test_the_feed_is_bounded_the_open_seasons_open_matches_and_the_last_final_ones(client, league, sides):
    old_final = [
        fixture(league, sides, scheduled_for=KICKOFF - timedelta(days=100 - i), status=Match.Status.FINAL)
        for i in range(FINAL_KEPT + 3)
    ]
    unplayed_last_season = fixture(league, sides, scheduled_for=KICKOFF, season=league.season + 5)
    waiting = fixture(league, sides, scheduled_for=KICKOFF, status=Match.Status.SUBMITTED)

    uids = {str(e["UID"]) for e in events(parsed(client.get(f"/leagues/{league.pk}/calendar.ics")))}

    kept = {f"match-{m.pk}@{UID_DOMAIN}" for m in old_final[3:]} | {f"match-{waiting.pk}@{UID_DOMAIN}"}
    assert uids == kept
    assert f"match-{unplayed_last_season.pk}@{UID_DOMAIN}" not in uids


def test_an_unknown_league_or_team_is_a_404_and_an_empty_league_a_valid_empty_calendar(client):
    assert client.get("/leagues/999999/calendar.ics").status_code == 404
    assert client.get("/teams/999999/calendar.ics").status_code == 404
    assert events(parsed(client.get(f"/leagues/{LeagueFactory(name='Empty').pk}/calendar.ics"))) == []


def test_the_league_and_team_pages_link_their_feeds(client, league, sides):
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert f'href="/leagues/{league.pk}/calendar.ics"' in page and "Add to calendar" in page
    page = client.get(f"/teams/{sides[0].pk}/").content.decode()
    assert f'href="/teams/{sides[0].pk}/calendar.ics"' in page and "Add to calendar" in page


@pytest.fixture(params=[4, 400], ids=["4-teams", "400-teams"])
def big(request):
    league = bulk_league(teams=request.param)
    # Every match gets a date and a deadline, in one update.
    Match.objects.filter(league=league).update(scheduled_for=KICKOFF, deadline=DEADLINE)
    return league


@pytest.mark.parametrize("feed", ["league", "team"])
def test_a_feed_reads_in_four_queries_at_4_and_at_400_teams(client, big, feed):
    team = big.teams.order_by("id").first()
    url = f"/leagues/{big.pk}/calendar.ics" if feed == "league" else f"/teams/{team.pk}/calendar.ics"
    assert connection.features.supports_json_field  # SQLite's JSON probe, before counting
    with CaptureQueriesContext(connection) as queries:
        calendar = parsed(client.get(url))
    assert len(queries) == FEED_QUERIES, [q["sql"] for q in queries.captured_queries]
    assert 0 < len(events(calendar)) <= FINAL_KEPT + big.matches.exclude(status=Match.Status.FINAL).count()
