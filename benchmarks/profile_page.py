"""League page profile (issue 12: the league page's p95 under 50 ms at 10,000 matches): CPU milliseconds per
request of `GET /leagues/<big>/` served in process by Django's test Client (the whole middleware stack and
template), anonymous and signed in as one of the league's coaches, with its queries and bytes; `--profile
anonymous` (or `"signed in"`) prints the cProfile top of those requests.

Run against a seeded benchmark database (benchmarks/load.py), with the benchmark's settings:
`DJANGO_SETTINGS_MODULE=benchmarks.settings DATABASE_URL=postgres://… .venv/bin/python benchmarks/profile_page.py`.
CPU time (`time.process_time`), not wall time: the figures mean the same on a busy machine.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.settings")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=200, help="requests per viewer")
    parser.add_argument("--profile", choices=["anonymous", "signed in"], help="print these requests' cProfile top")
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test import Client

    from league.models import League
    from teams.models import Team

    league = League.objects.filter(name="Bench big league").first() or League.objects.order_by("-pk").first()
    coach = Team.objects.filter(league=league).select_related("coach").first().coach
    url = f"/leagues/{league.pk}/"
    anonymous, signed_in = Client(), Client()
    signed_in.force_login(coach)
    for client in (anonymous, signed_in):  # warm: the cached documents, the templates, the connection
        for _ in range(3):
            assert client.get(url).status_code == 200
    for label, client in (("anonymous", anonymous), ("signed in", signed_in)):
        queries: list[str] = []  # (a request resets `connection.queries`: counted by a wrapper instead)

        def count(execute, sql, *rest, queries=queries):
            queries.append(sql)
            return execute(sql, *rest)

        with connection.execute_wrapper(count):
            body = client.get(url).content
        times = []
        profiler = cProfile.Profile(time.process_time) if args.profile == label else None
        for _ in range(args.requests):
            began = time.process_time()
            if profiler:
                profiler.enable()
            response = client.get(url)
            if profiler:
                profiler.disable()
            times.append((time.process_time() - began) * 1000)
            assert response.status_code == 200
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        print(
            f"{label}: CPU ms per request mean {statistics.mean(times):.2f} p50 {statistics.median(times):.2f}"
            f" p95 {p95:.2f}; {len(queries)} queries, {len(body):,} bytes"
        )
        if profiler:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
    return 0


if __name__ == "__main__":
    sys.exit(main())
