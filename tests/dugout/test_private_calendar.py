"""Each coach's private calendar (api-v1 v1.2 "Accounts"): `GET /api/v1/account/calendar/` → `{url}`, a
`text/calendar` feed of every match of his teams in every league, read without signing in; `POST
/api/v1/account/calendar/rotate/` → a new URL, the old one 404 from then on."""

from __future__ import annotations

from datetime import UTC, datetime

import icalendar
import pytest
from django.test import override_settings
from django.urls import reverse

from league.models import CalendarFeed
from matches.models import Match, MatchTeam
from tests.factories import LeagueFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db

KICKOFF = datetime(2031, 5, 2, 18, 0, tzinfo=UTC)


def fixture(league, teams, **fields) -> Match:
    match = Match.objects.create(league=league, created_by=league.created_by, season=league.season, **fields)
    MatchTeam.objects.bulk_create([MatchTeam(match=match, team=t, order=i) for i, t in enumerate(teams)])
    return match


@pytest.fixture
def two_leagues(league, commissioner, coach, other_coach):
    """Alice coaches a team in two leagues; each has a dated match of hers, and one she does not play in."""
    cup = LeagueFactory(created_by=commissioner, name="Second Cup", ruleset="blitzbowl")
    cup.timezone = "Europe/Paris"  # each match's deadline is told in its own league's time zone
    cup.save(update_fields=["timezone"])
    carol = UserFactory(username="carol")
    mine = [
        TeamFactory(league=league, coach=coach, name="Alice's Humes"),
        TeamFactory(league=cup, coach=coach, name="Alice's Cup Side"),
    ]
    theirs = [
        TeamFactory(league=league, coach=other_coach, name="Bob's Goblins"),
        TeamFactory(league=cup, coach=carol, name="Carol's Elves"),
    ]
    third = TeamFactory(league=league, coach=carol, name="Carol's Orcs")
    return {
        "first": fixture(league, [mine[0], theirs[0]], scheduled_for=KICKOFF, round=1),
        "second": fixture(cup, [theirs[1], mine[1]], scheduled_for=KICKOFF, deadline=KICKOFF),
        "final": fixture(league, [theirs[0], mine[0]], scheduled_for=KICKOFF.replace(day=1), status=Match.Status.FINAL),
        "not_hers": fixture(league, [theirs[0], third], scheduled_for=KICKOFF),
        "undated": fixture(cup, [mine[1], theirs[1]]),
    }


def feed(client, url: str) -> icalendar.Calendar:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert "private" in response["Cache-Control"]
    return icalendar.Calendar.from_ical(response.content)


def uids(calendar) -> set[str]:
    return {str(e["uid"]) for e in calendar.walk("VEVENT")}


def test_the_feed_lists_the_matches_of_the_callers_teams_in_both_leagues(api_as, client, coach, two_leagues):
    url = api_as(coach).get("/api/v1/account/calendar/").json()["url"]

    calendar = feed(client, url)  # no sign-in: the URL is the secret

    expected = {f"match-{two_leagues[k].pk}@dugout.league" for k in ("first", "second", "final")}
    assert uids(calendar) == expected
    summaries = {str(e["summary"]) for e in calendar.walk("VEVENT")}
    assert summaries == {
        "Alice's Humes v Bob's Goblins",
        "Carol's Elves v Alice's Cup Side",
        "Bob's Goblins v Alice's Humes",
    }
    second = next(
        e for e in calendar.walk("VEVENT") if str(e["uid"]) == f"match-{two_leagues['second'].pk}@dugout.league"
    )
    assert "Second Cup" in str(second["description"]) and "Europe/Paris" in str(second["description"])
    assert str(calendar["x-wr-calname"]) == "alice's matches"


def test_the_url_stays_the_same_until_rotated_and_the_old_one_is_then_404(api_as, client, coach, two_leagues):
    alice = api_as(coach)
    url = alice.get("/api/v1/account/calendar/").json()["url"]
    assert alice.get("/api/v1/account/calendar/").json()["url"] == url
    assert url.startswith("http://testserver/calendar/")

    rotated = alice.post("/api/v1/account/calendar/rotate/")

    assert rotated.status_code == 200
    new = rotated.json()["url"]
    assert new != url
    assert client.get(url).status_code == 404
    assert uids(feed(client, new))
    assert alice.get("/api/v1/account/calendar/").json()["url"] == new


def test_each_user_has_his_own_feed(api_as, client, coach, other_coach, two_leagues):
    bobs = api_as(other_coach).get("/api/v1/account/calendar/").json()["url"]

    assert f"match-{two_leagues['not_hers'].pk}@dugout.league" in uids(feed(client, bobs))
    assert f"match-{two_leagues['second'].pk}@dugout.league" not in uids(feed(client, bobs))


def test_the_secret_is_not_stored_and_a_new_secret_key_ends_every_url_unless_kept_as_fallback(
    api_as, client, coach, settings
):
    assert not CalendarFeed.objects.exists()  # reading the address writes nothing
    first = api_as(coach).get("/api/v1/account/calendar/").json()["url"]
    assert not CalendarFeed.objects.exists()
    url = api_as(coach).post("/api/v1/account/calendar/rotate/").json()["url"]
    assert url != first and api_as(coach).get("/api/v1/account/calendar/").json()["url"] == url
    token = url.rsplit("/", 1)[1].removesuffix(".ics")
    assert token.split("-")[1] not in str(CalendarFeed.objects.values().get())

    old = settings.SECRET_KEY
    with override_settings(SECRET_KEY="another key entirely, long enough to be a secret key 0123456789"):
        assert client.get(url).status_code == 404
        with override_settings(SECRET_KEY_FALLBACKS=[old]):
            assert client.get(url).status_code == 200


@pytest.mark.parametrize(
    "token",
    [
        "x",
        "1",
        "1-",
        "abc-0123456789abcdef0123456789abcdef",
        "99999-0123456789abcdef0123456789abcdef",
        "1-" + "0" * 500,
        "١-0123456789abcdef0123456789abcdef",
    ],
)
def test_a_token_that_opens_nothing_is_404(client, coach, token):
    assert client.get(f"/calendar/{token}.ics").status_code == 404


def test_the_api_is_for_someone_signed_in(api):
    assert api.get("/api/v1/account/calendar/").status_code == 401
    assert api.post("/api/v1/account/calendar/rotate/").status_code == 401


def test_the_feed_reads_in_at_most_five_queries(api_as, client, coach, two_leagues, django_assert_max_num_queries):
    url = api_as(coach).get("/api/v1/account/calendar/").json()["url"]

    with django_assert_max_num_queries(4):
        assert client.get(url).status_code == 200


def test_the_account_part_rotates_the_url(client, coach, two_leagues):
    from dugout.web.integrations import account_integrations

    client.force_login(coach)
    request = client.get("/me/").wsgi_request
    old = account_integrations(request)["calendar_url"]

    part = client.post(reverse("account-calendar-rotate"), HTTP_HX_REQUEST="true").content.decode()

    assert old not in part and "http://testserver/calendar/" in part
    assert client.get(old).status_code == 404
    back = client.post(reverse("account-calendar-rotate"), {"next": "/me/"})
    assert back.status_code == 302 and back["Location"] == "/me/"
