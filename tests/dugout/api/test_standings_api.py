"""The standings' public read (`GET /api/v1/leagues/{id}/standings/`) takes a shortcut past DRF's per-request
machinery (dugout/api/standings.py `standings_shortcut`) and reads the table's tag with a statement compiled once
(matches/standings.py `current_tag`). These tests pin that the shortcut answers exactly as DRF's way does, that
every request it cannot answer alike still goes through DRF (401, 404, 405, 406, OPTIONS), that the answer is
exact the moment another process changes the table, and that a connection the server closed is replaced."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection

from dugout.api.views import LeagueViewSet
from league.models import League, league_table_changed
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db

#: The headers an answer carries whichever way it was made.
HEADERS = (
    "Content-Type",
    "ETag",
    "Cache-Control",
    "Vary",
    "Allow",
    "Content-Security-Policy",
    "Permissions-Policy",
    "X-Frame-Options",
    "X-Content-Type-Options",
)


@pytest.fixture
def url(league, commissioner):
    TeamFactory(league=league, coach=commissioner, name="Alpha")
    return f"/api/v1/leagues/{league.pk}/standings/"


@pytest.fixture
def through_drf(monkeypatch):
    """How many requests went through DRF's `initial` (authentication, permissions, negotiation)."""
    calls = []
    initial = LeagueViewSet.initial

    def counted(self, request, *args, **kwargs):
        calls.append(request.method)
        return initial(self, request, *args, **kwargs)

    monkeypatch.setattr(LeagueViewSet, "initial", counted)
    return calls


def answer(response) -> tuple:
    return response.status_code, response.content, {name: response.get(name) for name in HEADERS}


def test_the_public_read_skips_drf_and_answers_as_drf_does(api, url, through_drf):
    shortcut = api.get(url)
    assert through_drf == []
    drf = api.get(url + "?format=json")  # a format asked for: DRF's negotiation decides
    assert through_drf == ["GET"]
    assert shortcut.status_code == 200 and shortcut.json()["rows"][0]["name"] == "Alpha"
    assert answer(shortcut) == answer(drf)
    assert shortcut["Vary"] == "Accept, Cookie" and shortcut["Allow"] == "GET, HEAD, OPTIONS"
    assert shortcut["Cache-Control"] == "public, no-cache" and shortcut["Content-Type"] == "application/json"
    held = {"HTTP_IF_NONE_MATCH": shortcut["ETag"]}
    assert answer(api.get(url, **held)) == answer(api.get(url + "?format=json", **held))
    assert api.get(url, **held).status_code == 304
    assert answer(api.head(url)) == answer(api.head(url + "?format=json"))
    assert api.get(url, HTTP_ACCEPT="application/json; q=0.9, */*").content == shortcut.content
    assert through_drf == ["GET", "GET", "HEAD"]


def test_what_the_shortcut_cannot_answer_alike_goes_through_drf(api, api_as, url, commissioner, through_drf):
    assert api.get(url, HTTP_AUTHORIZATION="Token not-a-token").status_code == 401
    assert api_as(commissioner).get(url).status_code == 200  # a valid token is checked, then answered
    assert api.get(url, HTTP_ACCEPT="application/xml").status_code == 406
    assert api_as(commissioner).post(url).status_code == 405
    assert api.options(url).status_code == 200
    assert api.get(url + "?format=yaml").status_code == 404  # DRF: no renderer of that format
    assert through_drf == ["GET", "GET", "GET", "POST", "OPTIONS", "GET"]


def test_the_shortcut_follows_the_viewsets_drf_settings(api, url, monkeypatch, through_drf):
    """It decides nothing DRF would decide differently: the viewset's renderers say which Accept is answered, and
    a throttle or a permission that may refuse a read sends every request through DRF."""
    from rest_framework.permissions import IsAuthenticated
    from rest_framework.renderers import JSONRenderer
    from rest_framework.throttling import AnonRateThrottle

    assert api.get(url, HTTP_ACCEPT="text/html").status_code == 200 and through_drf == []
    monkeypatch.setattr(LeagueViewSet, "renderer_classes", [JSONRenderer])
    assert api.get(url, HTTP_ACCEPT="text/html").status_code == 406 and through_drf == ["GET"]
    monkeypatch.setattr(LeagueViewSet, "throttle_classes", [AnonRateThrottle])
    monkeypatch.setattr(AnonRateThrottle, "rate", "1000/min", raising=False)
    assert api.get(url).status_code == 200 and through_drf == ["GET", "GET"]
    monkeypatch.setattr(LeagueViewSet, "throttle_classes", [])
    monkeypatch.setattr(LeagueViewSet, "permission_classes", [IsAuthenticated])
    assert api.get(url).status_code == 401 and through_drf == ["GET", "GET", "GET"]


@pytest.mark.parametrize("pk", ["999999", "0", "99999999999999999999"])
def test_no_league_is_drfs_404_either_way(api, pk, through_drf):
    response = api.get(f"/api/v1/leagues/{pk}/standings/")
    assert response.status_code == 404 and response.json() == {"detail": response.json()["detail"]}
    assert through_drf == ["GET"]  # the shortcut found nothing and left the answer to DRF


def test_a_change_committed_elsewhere_shows_at_the_next_read(api, url, league, coach):
    """The tag is read from the league row on every request: no process keeps a version."""
    first = api.get(url)
    # What another process's write leaves behind: only the row's version changed (and a new team).
    TeamFactory(league=league, coach=coach, name="Bravo")
    league_table_changed(league.pk)
    again = api.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert sorted(row["name"] for row in again.json()["rows"]) == ["Alpha", "Bravo"]
    assert again["ETag"].strip('"').split("-")[2] == str(League.objects.get(pk=league.pk).table_version)


def test_the_tag_is_one_query(api, url, django_assert_num_queries):
    api.get(url)
    with django_assert_num_queries(1):
        assert api.get(url).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_connection_the_server_closed_is_replaced_not_an_error(api, url):
    """The tag's read stands in for the connection's health check (CONN_HEALTH_CHECKS), so it must do its work:
    a kept connection the server ended is replaced, and the request answers."""
    if connection.vendor != "postgresql" or not connection.settings_dict.get("CONN_HEALTH_CHECKS"):
        pytest.skip("a kept, health-checked connection is PostgreSQL's (dugout/settings.py)")
    assert api.get(url).status_code == 200
    ended = connection.connection.info.backend_pid
    with pytest.raises(OperationalError), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
    connection.errors_occurred = False  # as a new request finds it: a connection that looks usable
    connection.health_check_done = False
    response = api.get(url)
    assert response.status_code == 200 and response.json()["rows"][0]["name"] == "Alpha"
    assert connection.connection.info.backend_pid != ended


def test_the_standings_route_tried_first_is_the_routers_own(api, url, league):
    """dugout/api/urls.py tries the standings' pattern before every other: the router's, so the name, the
    viewset and the suffixed form resolve as before."""
    from django.urls import resolve, reverse

    from dugout.api.urls import router

    assert reverse("league-standings", kwargs={"pk": league.pk}) == url
    match = resolve(url)
    assert match.func.cls is LeagueViewSet and match.func.actions["get"] == "standings"
    assert match.func in {pattern.callback for pattern in router.urls if pattern.name == "league-standings"}
    suffixed = api.get(url.rstrip("/") + ".json")
    assert suffixed.status_code == 200 and suffixed.content == api.get(url).content
