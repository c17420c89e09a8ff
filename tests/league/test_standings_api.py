"""The standings' public read (`GET /api/v1/leagues/{id}/standings/`) reads the table's tag with a statement
compiled once (matches/standings.py `current_tag`). These tests pin that the answer is exact the moment another
process changes the table, that it costs one query, and that a connection the server closed is replaced."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection

from league.models import League, league_table_changed
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def url(league, commissioner):
    TeamFactory(league=league, coach=commissioner, name="Alpha")
    return f"/api/v1/leagues/{league.pk}/standings/"


@pytest.mark.parametrize("pk", ["999999", "0", "99999999999999999999"])
def test_no_league_is_a_404(api, pk):
    response = api.get(f"/api/v1/leagues/{pk}/standings/")
    assert response.status_code == 404 and response.json() == {"detail": response.json()["detail"]}


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
        pytest.skip("a kept, health-checked connection is PostgreSQL's (league/settings.py)")
    assert api.get(url).status_code == 200
    ended = connection.connection.info.backend_pid
    with pytest.raises(OperationalError), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
    connection.errors_occurred = False  # as a new request finds it: a connection that looks usable
    connection.health_check_done = False
    response = api.get(url)
    assert response.status_code == 200 and response.json()["rows"][0]["name"] == "Alpha"
    assert connection.connection.info.backend_pid != ended
