"""Redis as a side service: the cache fails open, and the broker gives up at once, when Redis is unreachable.

Nothing Dugout keeps in the cache is the only copy of anything, so a cache that cannot be reached is a cache
that misses: reads answer their default, writes are dropped, and a warning is logged (at most once a minute,
so a dead Redis does not flood the log with one line a request). Connections are bounded by short timeouts,
so a request never waits seconds on a dead or unreachable host.

`redis_cache(url)` and `redis_broker_options(...)` are what settings.py uses for REDIS_URL; the Redis-down tests build
the same configuration for a closed port, so they test what production runs.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)

#: Seconds to connect to Redis, and to wait for an answer, before the cache counts as down.
CACHE_SOCKET_TIMEOUT = 0.5
#: Seconds to reach the broker before "generate now" answers that the queue is unavailable.
BROKER_CONNECT_TIMEOUT = 0.5
#: Seconds to wait for the broker's answer once connected (a publish is one small command; a worker's blocking
#: pop is read only when its socket is readable, so this does not cut it short).
BROKER_SOCKET_TIMEOUT = 0.5
#: Seconds the cache is left alone after a failure (every call a miss) before Redis is tried again.
RETRY_AFTER = 5.0
#: At most one "Redis is down" warning per this many seconds.
WARN_EVERY = 60.0


def _redis_errors() -> tuple[type[BaseException], ...]:
    import redis

    # Any Redis failure, not only ConnectionError and TimeoutError (refused, reset, DNS, timeouts): something
    # else answering on the port gives InvalidResponse; OSError for the socket errors that escape them all.
    return (redis.exceptions.RedisError, OSError)


class FailOpenRedisCache(RedisCache):
    """Django's Redis cache that behaves as a miss when Redis is unreachable, instead of raising.

    After a failure the cache counts as down for RETRY_AFTER seconds (in this process): calls miss at once
    instead of each waiting out a timeout again, so a request touching the cache several times pays for at most
    one timeout."""

    _down_until = 0.0
    _last_warning = 0.0

    def _fail_open(self, operation: str, default: Any, call, *args, **kwargs):
        now = time.monotonic()
        if now < FailOpenRedisCache._down_until:
            return default
        try:
            return call(*args, **kwargs)
        except _redis_errors() as error:
            now = time.monotonic()
            FailOpenRedisCache._down_until = now + RETRY_AFTER
            if now - FailOpenRedisCache._last_warning >= WARN_EVERY or not FailOpenRedisCache._last_warning:
                FailOpenRedisCache._last_warning = now
                log.warning("cache unavailable (%s failed open): %s", operation, error)
            return default

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._fail_open("add", False, super().add, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._fail_open("get", default, super().get, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._fail_open("set", None, super().set, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._fail_open("touch", False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        return self._fail_open("delete", False, super().delete, key, version)

    def get_many(self, keys, version=None):
        return self._fail_open("get_many", {}, super().get_many, keys, version)

    def has_key(self, key, version=None):
        return self._fail_open("has_key", False, super().has_key, key, version)

    def incr(self, key, delta=1, version=None):
        # Django's contract: incr of a missing key raises ValueError; with Redis down every key is missing.
        missing = object()
        value = self._fail_open("incr", missing, super().incr, key, delta, version)
        if value is missing:
            raise ValueError(f"Key '{key}' not found (the cache is unavailable).")
        return value

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        # The keys that could not be stored: all of them.
        return self._fail_open("set_many", list(data), super().set_many, data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._fail_open("delete_many", None, super().delete_many, keys, version)

    def clear(self):
        return self._fail_open("clear", False, super().clear)


def redis_cache(url: str) -> dict:
    """The default cache on Redis at `url`: failing open, with bounded connect and read timeouts, no retries."""
    return {
        "BACKEND": "league.cache.FailOpenRedisCache",
        "LOCATION": url,
        # Passed to redis-py's ConnectionPool: a dead host costs at most one connect timeout per request.
        "OPTIONS": {
            "socket_connect_timeout": CACHE_SOCKET_TIMEOUT,
            "socket_timeout": CACHE_SOCKET_TIMEOUT,
            "retry_on_timeout": False,
        },
    }


def redis_broker_options(*, visibility_timeout: int) -> dict:
    """The Redis broker's transport options: a publish that cannot reach Redis fails at once (one sub-second
    connection attempt, no retries), so "generate now" can answer 503 straight away; an unacknowledged task (its
    worker killed) is handed out again after `visibility_timeout` seconds."""
    return {
        "visibility_timeout": visibility_timeout,
        "socket_connect_timeout": BROKER_CONNECT_TIMEOUT,
        "socket_timeout": BROKER_SOCKET_TIMEOUT,
        "retry_on_timeout": False,
        # Workers sweep for such expired tasks every 10 s (kombu's default scans only every 10th sweep, which
        # would add up to 100 s to the redelivery).
        "unacked_restore_interval": 10,
        "unacked_restore_throttle": 1,
        # Opening the publisher's channel would otherwise keep reconnecting until the connection timeout:
        # one attempt, then the error.
        "max_retries": 0,
    }
