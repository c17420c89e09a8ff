"""`manage.py seed_benchmark`: the benchmark's leagues (dugout/benchmark/seed.py), reused when present."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand
from django.db import connection

from dugout.benchmark.seed import bench_present, bench_reset, seed


class Command(BaseCommand):
    help = "Seed the benchmark's big Blitz Bowl league and its small leagues, in bulk."

    def add_arguments(self, parser):
        parser.add_argument("--teams", type=int, default=400)
        parser.add_argument("--matches", type=int, default=10_000)
        parser.add_argument("--small-leagues", type=int, default=1_000)
        parser.add_argument("--small-matches", type=int, default=3, help="Matches in each small league.")
        parser.add_argument("--real-matches", type=int, default=10, help="Of --matches, played through the services.")
        parser.add_argument("--reset", action="store_true", help="Remove the benchmark's leagues and users first.")

    def handle(self, *args, **options):
        started = time.perf_counter()
        if options["reset"]:
            bench_reset()
        elif bench_present(matches=options["matches"]):
            self.stdout.write("seed_benchmark: the benchmark's leagues are present (use --reset to rebuild).")
            return
        seed(
            teams=options["teams"],
            matches=options["matches"],
            small_leagues=options["small_leagues"],
            small_matches=options["small_matches"],
            real_matches=min(options["real_matches"], options["matches"]),
            log=self.stdout.write,
        )
        # Statistics for the planner, as autovacuum would gather them within minutes of a bulk load: without them
        # PostgreSQL guessed 129 players for 48,980 and planned scans the real service never sees.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        self.stdout.write(self.style.SUCCESS(f"seed_benchmark: done in {time.perf_counter() - started:.0f} s"))
