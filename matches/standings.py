"""The league table, cached and exact.

Computing a table reads every final side of the league (20,000 rows at 10,000 matches), so it is computed once
per *table version* and kept in Django's cache (Redis when REDIS_URL is set, local memory otherwise). The version
is a column of the league row (`League.table_version`) that every write able to change the table replaces in its
own transaction (`league.models.league_table_changed`: a result confirmed or corrected, a team founded, a house
rule set); the reader takes it from the league row its request already loaded (the standings API reads only
that: `current_tag`). So a reader never sees a table older than the league row it holds, in any process, and a
cache that is down (league.cache fails open) only means the table is computed again.

The key also carries the tie-breakers in force, so a change to them (a house rule, or a ruleset's default in a
new release) never meets a table ordered by the old ones, and `KEY_FORMAT`, to be raised when a row's shape
changes so a deploy never reads rows written by the previous code.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import cache as memoise

from django.core.cache import cache
from django.db import InterfaceError, OperationalError, connection

from campaigns.rulesets import get_ruleset
from league.models import League

#: Raise when the rows' shape changes: the tables cached by the previous release are then never read.
KEY_FORMAT = 1
#: Seconds a table stays cached: a table whose version changes is simply never read again, so this only bounds
#: how long an idle league's table occupies the cache.
TIMEOUT = 24 * 60 * 60


def table_key(*, league: League, tie_breakers: Sequence[str], variant: str = "") -> str:
    breakers = hashlib.blake2s(",".join(tie_breakers).encode(), digest_size=6).hexdigest()
    key = f"standings:{KEY_FORMAT}:{league.pk}:{league.table_version}:{breakers}"
    return f"{key}:{variant}" if variant else key


def cached_table(
    *, league: League, tie_breakers: Sequence[str], compute: Callable[[], list[dict]], variant: str = ""
) -> list[dict]:
    """The league's table at the version `league` was loaded with: from the cache, or `compute()`d and kept.
    `variant` names another table of the same version (the divisions' tables: "divisions").

    Every caller gets its own copy (the cache stores a serialised value), so a page may decorate the rows."""
    key = table_key(league=league, tie_breakers=tie_breakers, variant=variant)
    rows = cache.get(key)
    if rows is None:
        rows = compute()
        cache.set(key, rows, TIMEOUT)
    return rows


@memoise
def _default_breakers(ruleset_key: str) -> str:
    """A digest of the ruleset's own tie-breakers (code: constant for the life of a process)."""
    defaults = get_ruleset(ruleset_key).default_house_rules().get("tie_breakers", ())
    return hashlib.blake2s(",".join(defaults).encode(), digest_size=6).hexdigest()


def table_tag(*, league_id: int, ruleset: str, table_version: int) -> str:
    """A league's table's identity at a table version, without merging its house rules: a change
    to the league's own tie-breakers is a house-rule change, which gives the table a new version; a change to
    the ruleset's defaults (a release) changes the digest. Used as the API's ETag and as the rendered body's key."""
    return f"{KEY_FORMAT}-{league_id}-{table_version}-{_default_breakers(ruleset)}"


@memoise
def _tag_statement(vendor: str) -> str:
    """The ORM's own SQL for the league row's (ruleset, table_version) by id, compiled once per database vendor: a
    request then runs it with its id and builds no query (the ORM's filter, values and compile steps cost more
    CPU than the round trip itself)."""
    query = League.objects.filter(pk=0).values_list("ruleset", "table_version").query
    sql, params = query.sql_with_params()
    if params != (0,):  # the id must be the statement's only parameter
        raise RuntimeError(f"unexpected parameters {params!r} in {sql}")
    return sql


def current_tag(league_id: int) -> str | None:
    """The `table_tag` of the league's table as the database has it now (one read of the league row, never a cached
    value: a result confirmed in another process shows at once), or None when there is no such league.

    The read is also the request's health check of a kept connection (CONN_HEALTH_CHECKS): rather than Django's
    `SELECT 1` round trip before it, a read that finds the connection broken (the server closed it) is run once
    more on a new connection, as the health check would have replaced it. Outside a transaction only, where a
    new connection loses nothing."""
    replaceable = (
        connection.health_check_enabled
        and not connection.health_check_done
        and connection.connection is not None
        and not connection.in_atomic_block
    )
    if replaceable:
        connection.health_check_done = True
    try:
        row = _tag_row(league_id)
    except (OperationalError, InterfaceError):
        if not replaceable:
            raise
        connection.close()
        row = _tag_row(league_id)
    if row is None:
        return None
    ruleset, table_version = row
    return table_tag(league_id=league_id, ruleset=ruleset, table_version=table_version)


def _tag_row(league_id: int) -> tuple[str, int] | None:
    with connection.cursor() as cursor:
        cursor.execute(_tag_statement(connection.vendor), (league_id,))
        return cursor.fetchone()


#: Bytes of rendered tables each process keeps in its own memory, in front of the shared cache.
LOCAL_BYTES = 8 * 1024 * 1024


class LocalDocuments:
    """Rendered tables by key, least recently used first out, bounded in bytes. A key names a table version, and
    what it names never changes, so a process's copy is exact for as long as it is kept: a process serving the
    same table again reads neither Redis nor the database for it (only the league's row, for its version)."""

    def __init__(self, limit: int) -> None:
        self.limit, self.size = limit, 0
        self.items: OrderedDict[str, bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self.lock:
            body = self.items.get(key)
            if body is not None:
                self.items.move_to_end(key)
            return body

    def put(self, key: str, body: bytes) -> None:
        if len(body) > self.limit:
            return
        with self.lock:
            if key in self.items:
                return
            self.items[key] = body
            self.size += len(body)
            while self.size > self.limit:
                _, dropped = self.items.popitem(last=False)
                self.size -= len(dropped)


_local = LocalDocuments(LOCAL_BYTES)


def forget_local_documents() -> None:
    """Empty this process's copies (the tests' clean slate, with cache.clear())."""
    global _local
    _local = LocalDocuments(LOCAL_BYTES)


def cached_document(*, tag: str, name: str, render: Callable[[], bytes]) -> bytes:
    """A rendered form of a league's table (`name`: which one, e.g. the API's JSON) at the `tag` (`table_tag`) its
    caller read: from this process's memory, else the shared cache, else `render()`ed and kept in both. A request
    that finds it reads no table, merges no house rules and renders nothing."""
    key = f"standings-doc:{name}:{tag}"
    body = _local.get(key)
    if body is None:
        body = cache.get(key)
        if body is None:
            body = render()
            cache.set(key, body, TIMEOUT)
        _local.put(key, body)
    return body
