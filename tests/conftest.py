"""Personas and clients shared by the whole suite: a commissioner, two coaches and a stranger."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from league.models import Membership
from tests.factories import LeagueFactory, TeamFactory, UserFactory, token_for


def pytest_configure(config):
    from django.conf import settings

    # Tests speak plain HTTP to the test client and the live server.
    settings.SECURE_SSL_REDIRECT = False
    # Every persona has a password: the production hasher's cost (~0.3 s a hash) buys nothing here.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Web Push signs with the development pair kept in var/, as under `make run` (the environment's, if set).
    if not settings.VAPID_PRIVATE_KEY:
        from notifications.vapid import development_keys

        settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = development_keys(settings.VAR_DIR / "vapid.json")


#: The shipped rosters' rows as the data migration (or `sync_rosters`) wrote them, read once per test process;
#: and whether a transactional test has run in this process (its flush emptied the tables).
_ROSTER_ROWS: dict[str, list[dict]] = {}
_FLUSHED: dict[str, bool] = {"flushed": False}


def _put_rosters_back() -> None:
    from teams.models import Position, Roster
    from teams.rosters import sync_rosters

    if Roster.objects.exists() or not _ROSTER_ROWS:
        sync_rosters(Roster, Position)  # a no-op on the migrated rows; fills the tables the first time
        _ROSTER_ROWS["rosters"] = list(Roster.objects.order_by("pk").values())
        _ROSTER_ROWS["positions"] = list(Position.objects.order_by("pk").values())
    else:
        Roster.objects.bulk_create(Roster(**row) for row in _ROSTER_ROWS["rosters"])
        Position.objects.bulk_create(Position(**row) for row in _ROSTER_ROWS["positions"])


@pytest.fixture(autouse=True)
def _shipped_rosters(request):
    """Transactional tests flush the database, data migration included: put the shipped rosters back.

    A transactional test starts on the migrated rosters untouched (the tests before it rolled back) or on empty
    tables (the previous transactional test's flush). The rows are read once and written back in two bulk
    inserts, identical to the upsert's (~130 queries, 0.3-0.6 s a test). pytest-django runs the transactional
    tests last, so an ordinary test normally never sees a flushed database; when one does (an xdist worker that
    stole tests, a re-run of failures), it gets the rows back too, inside its own rolled-back transaction."""
    marker = request.node.get_closest_marker("django_db")
    transactional = (marker is not None and marker.kwargs.get("transaction")) or any(
        name in request.fixturenames for name in ("transactional_db", "live_server")
    )
    if transactional:
        request.getfixturevalue("transactional_db")
        _put_rosters_back()
    elif _FLUSHED["flushed"] and (marker is not None or "db" in request.fixturenames):
        request.getfixturevalue("db")
        _put_rosters_back()
    yield
    if transactional:
        _FLUSHED["flushed"] = True


@pytest.fixture(autouse=True)
def _media_root(settings, tmp_path_factory):
    """Uploads (team logos) go to a throw-away MEDIA_ROOT, never the checkout's var/media."""
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")


@pytest.fixture(autouse=True)
def _clear_cache():
    from django.core.cache import cache

    from matches.standings import forget_local_documents

    cache.clear()
    forget_local_documents()
    yield


@pytest.fixture
def commissioner(db):
    return UserFactory(username="commish")


@pytest.fixture
def league(commissioner):
    """A Blitz Bowl league run by `commissioner`."""
    return LeagueFactory(created_by=commissioner, name="Gil Cup", ruleset="blitzbowl")


@pytest.fixture
def coach(db):
    return UserFactory(username="alice")


@pytest.fixture
def other_coach(db):
    return UserFactory(username="bob")


@pytest.fixture
def stranger(db):
    return UserFactory(username="stranger")


@pytest.fixture
def team(league, coach):
    """Alice's Hume team in the Blitz Bowl league (100,000 gil, in creation)."""
    return TeamFactory(league=league, coach=coach, name="Alice's Humes", roster="hume")


@pytest.fixture
def other_team(league, other_coach):
    return TeamFactory(league=league, coach=other_coach, name="Bob's Goblins", roster="goblin")


@pytest.fixture
def api():
    """An anonymous API client."""
    return APIClient()


@pytest.fixture
def api_as():
    """`api_as(user)`: an API client authenticated with the user's token."""

    def make(user) -> APIClient:
        client = APIClient()
        if user is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
        return client

    return make


@pytest.fixture
def make_coach(league):
    """`make_coach(user)`: a coach membership in `league`."""

    def make(user):
        Membership.objects.get_or_create(league=league, user=user, role=Membership.Role.COACH)
        return user

    return make
