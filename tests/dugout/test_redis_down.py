"""Redis unreachable: the cache and the broker are configured exactly as production configures them for
REDIS_URL (`league.cache.redis_cache`, `redis_broker_options`), but for a closed port. Log-in (API and web),
the pages and an API write keep working; only "generate now", which needs the queue, says it is unavailable —
at once: the broker's connection attempts are bounded and never retried."""

from __future__ import annotations

import logging
from unittest import mock

import pytest
from django.core.cache import cache, caches
from django.urls import reverse

from dugout.celery import app
from league.cache import RETRY_AFTER, FailOpenRedisCache, redis_broker_options, redis_cache
from league.models import LeagueReport
from matches import services as match_services
from teams.models import Player
from tests.factories import PASSWORD, hire

DEAD_REDIS = "redis://127.0.0.1:9/0"  # the discard port: nothing listens there


@pytest.fixture
def redis_down(settings):
    """Cache and broker on Redis at a closed port, built by the same functions settings.py uses; the Celery
    app's connection pools are set aside meanwhile, so the broker URL is really read again."""
    saved = app._pool, app.amqp._producer_pool
    settings.CACHES = {"default": redis_cache(DEAD_REDIS)}
    settings.CELERY_BROKER_URL = DEAD_REDIS
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = redis_broker_options(visibility_timeout=150)
    app._pool, app.amqp._producer_pool = None, None
    FailOpenRedisCache._last_warning = FailOpenRedisCache._down_until = 0.0
    assert isinstance(caches["default"], FailOpenRedisCache)
    assert app.conf.broker_url == DEAD_REDIS
    try:
        yield
    finally:
        if app._pool is not None:
            app._pool.force_close_all()
        app._pool, app.amqp._producer_pool = saved


@pytest.fixture
def humes(team):
    for number in range(1, 8):
        hire(team, "lineman", name=f"Hume {number}", number=number)
    return team


@pytest.fixture
def goblins(other_team):
    for number in range(1, 8):
        hire(other_team, "goblin", name=f"Gob {number}", number=number)
    return other_team


def test_the_cache_misses_with_a_logged_warning_instead_of_raising(redis_down, caplog):
    with caplog.at_level(logging.WARNING, logger="league.cache"):
        cache.set("k", "v", 60)
        assert cache.get("k", "default") == "default"
        assert cache.get_many(["k"]) == {}
        assert cache.add("k", "v") is False
        assert cache.delete("k") is False
        cache.clear()
        with pytest.raises(ValueError):
            cache.incr("k")
    assert any("cache unavailable" in record.getMessage() for record in caplog.records)


def test_after_a_failure_the_cache_misses_without_trying_redis_again_for_a_few_seconds(redis_down):
    backend = caches["default"]
    with mock.patch.object(backend._cache, "get_client", wraps=backend._cache.get_client) as get_client:
        with mock.patch("league.cache.time.monotonic", return_value=1000.0):
            assert backend.get("k", "miss") == "miss"
            assert backend.get("k", "miss") == "miss"
            assert get_client.call_count == 1  # the second call did not wait on Redis again
        with mock.patch("league.cache.time.monotonic", return_value=1000.0 + RETRY_AFTER + 1):
            assert backend.get("k", "miss") == "miss"
            assert get_client.call_count == 2  # tried again once the pause was over


def test_the_cache_and_the_broker_bound_their_waits_and_never_retry(redis_down):
    options = caches["default"]._options
    assert 0 < options["socket_connect_timeout"] <= 1 and 0 < options["socket_timeout"] <= 1
    assert options["retry_on_timeout"] is False
    transport = app.conf.broker_transport_options
    assert 0 < transport["socket_connect_timeout"] <= 1 and 0 < transport["socket_timeout"] <= 1
    assert transport["max_retries"] == 0  # one connection attempt, not a reconnect loop
    assert 0 < app.conf.broker_connection_timeout <= 1
    assert app.conf.task_publish_retry is False


def test_the_api_token_log_in_works(redis_down, api, coach):
    response = api.post("/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["token"]


def test_a_wrong_password_is_still_refused_not_a_500(redis_down, api, coach):
    response = api.post("/api/v1/auth/token/", {"username": "alice", "password": "not-it"}, format="json")
    assert response.status_code in (400, 401)


def test_the_web_log_in_works(redis_down, client, coach):
    response = client.post("/login/", {"username": "alice", "password": PASSWORD}, follow=True)
    assert response.redirect_chain == [(reverse("home"), 302)]
    assert response.context["user"] == coach


def test_the_pages_render(redis_down, client, coach, league, humes, goblins):
    match = match_services.match_schedule(user=coach, league=league, team_ids=[humes.pk, goblins.pk])
    client.force_login(coach)
    for url in (
        reverse("home"),
        f"/leagues/{league.pk}/",
        f"/teams/{humes.pk}/",
        f"/matches/{match.pk}/",
        f"/leagues/{league.pk}/reports/",
    ):
        assert client.get(url).status_code == 200, url


def test_a_coach_hires_a_player_through_the_api(redis_down, api_as, coach, team):
    response = api_as(coach).post(
        f"/api/v1/teams/{team.pk}/players/", {"position": "lineman", "name": "Newcomer"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert Player.objects.filter(team=team, name="Newcomer").exists()


def test_generate_now_answers_503_and_queues_nothing(redis_down, api_as, league):
    response = api_as(league.created_by).post(f"/api/v1/leagues/{league.pk}/reports/")
    assert response.status_code == 503, response.content
    assert "unavailable" in response.json()["detail"]
    assert not LeagueReport.objects.exists()


def test_the_dashboards_generate_now_says_the_queue_is_unavailable(redis_down, client, league):
    client.force_login(league.created_by)
    response = client.post(f"/leagues/{league.pk}/reports/", follow=True)
    assert response.status_code == 200
    assert "queue is unavailable" in response.content.decode()


@pytest.mark.parametrize("via", ["api", "page"])
def test_generate_now_with_redis_down_logs_one_warning_line_without_a_traceback(
    redis_down, api_as, client, league, caplog, via
):
    """A refused "generate now" is expected while Redis is down (it is answered 503 in words): each one logs a
    single warning saying so, never a traceback (they flooded the log, one per tap)."""
    with caplog.at_level(logging.DEBUG):
        if via == "api":
            response = api_as(league.created_by).post(f"/api/v1/leagues/{league.pk}/reports/")
            assert response.status_code == 503
            assert "unavailable" in response.json()["detail"]
        else:
            client.force_login(league.created_by)
            assert client.post(f"/leagues/{league.pk}/reports/", follow=True).status_code == 200
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(logged) == 1, [(r.name, r.getMessage()) for r in logged]
    (record,) = logged
    assert record.name == "dugout.reports.services"
    assert record.levelno == logging.WARNING
    assert "report queue unavailable" in record.getMessage()
    assert record.exc_info is None and record.exc_text is None and record.stack_info is None
    assert "\n" not in record.getMessage()
    assert not [r for r in caplog.records if r.exc_info]
