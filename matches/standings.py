"""The league table, cached and exact (issue 12, "Tables are cached and exact").

Computing a table reads every final side of the league (20,000 rows at 10,000 matches), so it is computed once
per *table version* and kept in Django's cache (Redis when REDIS_URL is set, local memory otherwise). The version
is a column of the league row (`League.table_version`) that every write able to change the table replaces in its
own transaction (`league.models.league_table_changed`: a result confirmed or corrected, a team founded, a house
rule set); the reader takes it from the league row its request already loaded. So a reader never sees a table
older than the league row it holds, in any process, and a cache that is down (league.cache fails open) only
means the table is computed again.

The key also carries the tie-breakers in force, so a change to them (a house rule, or a ruleset's default in a
new release) never meets a table ordered by the old ones, and `KEY_FORMAT`, to be raised when a row's shape
changes so a deploy never reads rows written by the previous code.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from django.core.cache import cache

from league.models import League

#: Raise when the rows' shape changes: the tables cached by the previous release are then never read.
KEY_FORMAT = 1
#: Seconds a table stays cached: a table whose version changes is simply never read again, so this only bounds
#: how long an idle league's table occupies the cache.
TIMEOUT = 24 * 60 * 60


def table_key(*, league: League, tie_breakers: Sequence[str]) -> str:
    breakers = hashlib.blake2s(",".join(tie_breakers).encode(), digest_size=6).hexdigest()
    return f"standings:{KEY_FORMAT}:{league.pk}:{league.table_version}:{breakers}"


def cached_table(*, league: League, tie_breakers: Sequence[str], compute: Callable[[], list[dict]]) -> list[dict]:
    """The league's table at the version `league` was loaded with: from the cache, or `compute()`d and kept.

    Every caller gets its own copy (the cache stores a serialised value), so a page may decorate the rows."""
    key = table_key(league=league, tie_breakers=tie_breakers)
    rows = cache.get(key)
    if rows is None:
        rows = compute()
        cache.set(key, rows, TIMEOUT)
    return rows
