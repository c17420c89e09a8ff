"""Read-path benchmark: league page, team sheet and team list API for a league of N teams.

Speed targets live here, not in timed tests. Run: `make bench` (or `.venv/bin/python benchmarks/bench_reads.py
--teams 40 --players 14`). It builds a throwaway league in a temporary SQLite database (or DATABASE_URL's
server, inside a transaction it rolls back) and prints median milliseconds and query counts per page.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

TARGET_MS = {"league page": 150, "team sheet": 80, "team list API": 250}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--teams", type=int, default=40)
    parser.add_argument("--players", type=int, default=14)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from rest_framework.test import APIClient

    from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["*"]
    settings.SECURE_SSL_REDIRECT = False
    from django.test.utils import get_runner

    runner = get_runner(settings)(verbosity=0)
    old_config = runner.setup_databases()
    failed = 0
    try:
        with transaction.atomic():
            league = LeagueFactory(created_by=UserFactory())
            teams = [TeamFactory(league=league) for _ in range(args.teams)]
            for team in teams:
                for n in range(args.players):
                    hire(team, "lineman", name=f"Player {n}", number=n + 1)
            client = APIClient()
            pages = {
                "league page": f"/leagues/{league.pk}/",
                "team sheet": f"/teams/{teams[0].pk}/",
                "team list API": f"/api/v1/teams/?league={league.pk}",
            }
            print(f"{args.teams} teams × {args.players} players, {args.repeat} runs each")
            for name, url in pages.items():
                timings = []
                for _ in range(args.repeat):
                    with CaptureQueriesContext(connection) as ctx:
                        started = time.perf_counter()
                        assert client.get(url).status_code == 200
                        timings.append((time.perf_counter() - started) * 1000)
                median = statistics.median(timings)
                verdict = "ok" if median <= TARGET_MS[name] else "SLOW"
                failed += verdict != "ok"
                print(
                    f"  {name:14} {median:7.1f} ms median  {len(ctx.captured_queries):3d} queries  "
                    f"(target {TARGET_MS[name]} ms: {verdict})"
                )
            transaction.set_rollback(True)
    finally:
        runner.teardown_databases(old_config)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
