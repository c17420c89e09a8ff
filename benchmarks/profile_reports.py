"""Weekly report profile (issue 12: 1,000 small leagues' reports under 2 minutes on one worker, a 400-team
league's report under 1 s), with the query counts and the plan of the report's ledger query.

Run: `.venv/bin/python benchmarks/profile_reports.py --leagues 1000` (SQLite in a throwaway test database;
DATABASE_URL=postgres://… for a throwaway `test_…` database on that server, where the EXPLAIN is PostgreSQL's).
Each league is seeded as profile_export.py seeds it (teams by the services, matches and their rows in bulk),
its matches and ledger entries spread over the last 100 days; every report is written by `report_generate`,
as the worker writes it (content, HTML, text and outbox), one after the other in this one process.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dugout.settings")

TARGETS = {"small leagues s": 120.0, "big league s": 1.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--leagues", type=int, default=1000, help="small leagues (4 teams, 12 matches each)")
    parser.add_argument("--teams", type=int, default=400, help="teams of the big league")
    parser.add_argument("--matches", type=int, default=2000, help="matches of the big league")
    parser.add_argument("--profile", action="store_true", help="print the big league report's cProfile top")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext, get_runner, setup_test_environment
    from django.utils import timezone
    from profile_export import seed_league

    from dugout.reports.services import REPORT_SPAN, report_generate
    from teams.models import LedgerEntry

    setup_test_environment()
    settings.DEBUG = False
    runner = get_runner(settings)(verbosity=0)
    old_config = runner.setup_databases()
    failed = 0
    try:
        started = time.perf_counter()
        small = [seed_league(teams=4, matches=12, players=11, days=100) for _ in range(args.leagues)]
        big = seed_league(teams=args.teams, matches=args.matches, players=11, days=100)
        took = time.perf_counter() - started
        print(f"seeded {args.leagues} small leagues and a {args.teams}-team one in {took:.0f} s")
        moment = timezone.now()

        options = {"analyze": True} if connection.vendor == "postgresql" else {}
        for label, league_id in (("a small league", small[0] if small else big), ("the big league", big)):
            ledger = LedgerEntry.objects.filter(
                team__league_id=league_id, created_at__gte=moment - REPORT_SPAN, created_at__lt=moment
            ).order_by("created_at", "team_id", "account", "sequence")
            print(f"the report's ledger query for {label}, with the (team, created_at) index:")
            print("  " + ledger.explain(**options).replace("\n", "\n  "))
            with transaction.atomic():  # the plan it replaced (PostgreSQL rolls DDL back)
                with connection.cursor() as cursor:
                    cursor.execute("DROP INDEX ledger_team_created_at")
                print("without it:\n  " + ledger.explain(**options).replace("\n", "\n  "))
                transaction.set_rollback(True)

        figures = {}
        for name, ids in (("small leagues s", small), ("big league s", [big])):
            timings, queries = [], set()
            began = time.perf_counter()
            for league_id in ids:
                with CaptureQueriesContext(connection) as ctx:
                    t = time.perf_counter()
                    report_generate(league_id=league_id, moment=moment, regenerate=True)
                    timings.append(time.perf_counter() - t)
                queries.add(len(ctx.captured_queries))
            figures[name] = time.perf_counter() - began
            median = statistics.median(timings) * 1000
            print(f"  {name:16} {figures[name]:7.2f} s, {len(ids)}: median {median:.0f} ms, queries {sorted(queries)}")
        if args.profile:
            import cProfile
            import pstats

            with cProfile.Profile() as profiler:
                report_generate(league_id=big, moment=moment, regenerate=True)
            pstats.Stats(profiler).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(40)
        for name, target in TARGETS.items():
            verdict = "ok" if figures[name] <= target else "MISSED"
            failed += verdict != "ok"
            print(f"    {name:16} {figures[name]:7.2f} (target ≤ {target}: {verdict})")
    finally:
        runner.teardown_databases(old_config)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
