"""Export profile: time to the first byte, the whole document's time and size, and how much the process grows,
for a league of N final matches (issue 12: constant memory, < 50 MB growth for 10,000 matches, first byte
< 1 s, whole document < 10 s).

Run: `.venv/bin/python benchmarks/profile_export.py --matches 10000 --teams 400` (SQLite in a throwaway test
database; DATABASE_URL=postgres://… for a throwaway `test_…` database on that server). `--old` also measures
the in-memory export it replaced (the whole document built, then rendered), for the before/after.

The league is seeded with bulk_create, shaped as the post-match sequence leaves it: per match two sides, two
finished post-match sequences, 7 player rows, 7 rolls and 3 ledger entries. The export then runs in a fresh
child process (the seeding's memory is not there to be reused), through Django's test client, reading the
stream chunk by chunk and sampling VmRSS after each chunk.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dugout.settings")

TARGETS = {"first byte s": 1.0, "whole s": 10.0, "growth MB": 50.0}


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def seed(*, teams: int, matches: int, players: int) -> tuple[int, int]:
    """A Blitz Bowl league of `teams` teams (made by the services) and `matches` final matches (bulk), and a
    small one of 2 teams and 2 matches (the measuring process warms up on it)."""
    big = seed_league(teams=teams, matches=matches, players=players)
    return big, seed_league(teams=2, matches=2, players=players)


def seed_league(*, teams: int, matches: int, players: int, days: int = 0) -> int:
    """One league; its matches confirmed evenly over the last `days` days (all now when 0), each ledger entry
    dated when its match was confirmed."""
    from django.db.models import OuterRef, Subquery
    from django.utils import timezone

    from league.models import LeagueReport
    from matches.models import Aftermath, Match, MatchTeam, PlayerMatch, Roll
    from matches.tally import tally_rebuild
    from teams.models import LedgerEntry, Player
    from tests.factories import LeagueFactory, TeamFactory, UserFactory

    commissioner = UserFactory()
    league = LeagueFactory(created_by=commissioner, house_rules_overrides={"coach_may_run_several_teams": True})
    coach = UserFactory()
    made = [TeamFactory(league=league, coach=coach, name=f"Team {i:04}") for i in range(teams)]
    squads: dict[int, list[int]] = {}
    for team in made:
        position = team.roster.positions.order_by("order", "id").first()
        Player.objects.bulk_create(
            Player(team=team, position=position, name=f"{team.name} #{n}", number=n, value=5000, attributes={"ma": 6})
            for n in range(1, players + 1)
        )
        squads[team.pk] = list(team.players.values_list("pk", flat=True))
    steps = len(league.rules.postmatch_steps)
    sequence = {t.pk: 1 for t in made}
    balance = {t.pk: 100000 for t in made}
    now = timezone.now()
    for start in range(0, matches, 1000):
        batch = range(start, min(start + 1000, matches))
        pairs = [(made[(2 * i) % teams].pk, made[(2 * i + 1) % teams].pk) for i in batch]
        rows = Match.objects.bulk_create(
            Match(
                league=league,
                status="final",
                created_by=commissioner,
                submitted_by=coach,
                submitted_at=now,
                confirmed_by=commissioner,
                confirmed_at=now - timedelta(days=days * (matches - i) / max(matches, 1)),
                result={"teams": [{"team": h, "score": 2}, {"team": a, "score": 1}], "players": []},
                result_body={"teams": [{"team": h, "score": 2}, {"team": a, "score": 1}]},
            )
            for i, (h, a) in zip(batch, pairs, strict=True)
        )
        sides, aftermaths, player_rows, rolls, entries = [], [], [], [], []
        for match, (home, away) in zip(rows, pairs, strict=True):
            for order, team in enumerate((home, away)):
                sides.append(
                    MatchTeam(match=match, team_id=team, order=order, score=2 - order, outcome=("win", "loss")[order])
                )
                aftermaths.append(Aftermath(match=match, team_id=team, step_index=steps, complete=True))
                for p in squads[team][: 4 - order]:
                    player_rows.append(PlayerMatch(match=match, team_id=team, player_id=p, touchdowns=1, spp=3))
            for k in range(7):
                rolls.append(
                    Roll(
                        league=league,
                        match=match,
                        team_id=home,
                        key=f"winnings{k}",
                        expression="1d6",
                        values=[k % 6 + 1],
                        entered=False,
                    )
                )
            for team, amount in ((home, 20000), (away, 10000), (home, -5000)):
                sequence[team] += 1
                balance[team] += amount
                entries.append(
                    LedgerEntry(
                        team_id=team,
                        sequence=sequence[team],
                        amount=amount,
                        balance_after=balance[team],
                        kind="winnings" if amount > 0 else "purchase",
                        reason="Winnings" if amount > 0 else "A purchase",
                        match=match,
                    )
                )
        MatchTeam.objects.bulk_create(sides)
        Aftermath.objects.bulk_create(aftermaths)
        PlayerMatch.objects.bulk_create(player_rows)
        Roll.objects.bulk_create(rolls)
        LedgerEntry.objects.bulk_create(entries)
    tally_rebuild(league_id=league.pk)  # the rows were written in bulk: the players' season totals from them
    dated = Match.objects.filter(pk=OuterRef("match_id")).values("confirmed_at")[:1]
    LedgerEntry.objects.filter(team__league=league, match__isnull=False).update(created_at=Subquery(dated))
    for week in range(1, 11):
        LeagueReport.objects.create(
            league=league, week=f"2026-W{week:02}", week_start=now, week_end=now, data={"week": week}, html=""
        )
    return league.pk


def measure(league_id: int, warm_id: int, old: bool, profile: bool = False) -> dict:
    """In this (fresh) process: stream the export once, or build the old in-memory one."""
    from django.conf import settings
    from django.test import Client

    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["*"]
    settings.SECURE_SSL_REDIRECT = False
    client = Client()
    # Warm up as a worker that has served before: URLconf, apps, serializers, the connection.
    b"".join(client.get(f"/api/v1/leagues/{warm_id}/export/").streaming_content)
    gc.collect()
    base = peak = rss_mb()
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    started, cpu = time.perf_counter(), time.process_time()
    if old:
        from rest_framework.renderers import JSONRenderer

        from league.models import League
        from tests.dugout.export.test_export_stream import in_memory_export

        body = JSONRenderer().render(in_memory_export(League.objects.get(pk=league_id)))
        first = time.perf_counter() - started
        size = len(body)
        peak = max(peak, rss_mb())
        doc = json.loads(body)
        del body
    else:
        response = client.get(f"/api/v1/leagues/{league_id}/export/")
        first = None
        size = 0
        for chunk in response.streaming_content:
            if first is None:
                first = time.perf_counter() - started
            size += len(chunk)
            peak = max(peak, rss_mb())
        response.close()
        doc = None
    whole, cpu = time.perf_counter() - started, time.process_time() - cpu
    if profile:
        import pstats

        profiler.disable()
        stats = pstats.Stats(profiler, stream=sys.stderr).sort_stats(os.environ.get("SORT", "tottime"))
        stats.print_stats(os.environ.get("ONLY", ""), 35)
    gc.collect()
    return {
        "first byte s": round(first or whole, 3),
        "whole s": round(whole, 2),
        "cpu s": round(cpu, 2),
        "size MB": round(size / 1e6, 1),
        "growth MB": round(peak - base, 1),
        "kept MB": round(rss_mb() - base, 1),
        "matches": len(doc["matches"]) if doc else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=10000)
    parser.add_argument("--teams", type=int, default=400)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--old", action="store_true", help="also measure the in-memory export it replaced")
    parser.add_argument("--profile", action="store_true", help="print the export's cProfile top functions")
    parser.add_argument("--measure", type=int, nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()

    import django

    if args.measure:
        django.setup()
        print(json.dumps(measure(*args.measure, old=args.old, profile=args.profile)))
        return 0

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import get_runner, setup_test_environment

    setup_test_environment()
    runner = get_runner(settings)(verbosity=0)
    old_config = runner.setup_databases()
    failed = 0
    try:
        started = time.perf_counter()
        league_id, warm_id = seed(teams=args.teams, matches=args.matches, players=args.players)
        print(f"seeded {args.teams} teams, {args.matches} matches in {time.perf_counter() - started:.0f} s")
        db = connection.settings_dict
        url = (
            f"sqlite:///{db['NAME']}"
            if db["ENGINE"].endswith("sqlite3")
            else f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        )
        connection.close()
        env = {**os.environ, "DATABASE_URL": url}
        for old in (True, False) if args.old else (False,):
            command = [sys.executable, __file__, "--measure", str(league_id), str(warm_id)]
            command += (["--old"] if old else []) + (["--profile"] if args.profile else [])
            # Our own interpreter running this very script: no outside input.
            out = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=ROOT)  # noqa: S603
            figures = json.loads(out.stdout.strip().splitlines()[-1])
            sys.stderr.write(out.stderr)
            name = "in-memory (before)" if old else "streamed"
            print(f"  {name:19} " + "  ".join(f"{k} {v}" for k, v in figures.items() if v is not None))
            if not old:
                for key, target in TARGETS.items():
                    verdict = "ok" if figures[key] <= target else "MISSED"
                    failed += verdict != "ok"
                    print(f"    {key:13} {figures[key]:>8} (target ≤ {target}: {verdict})")
    finally:
        runner.teardown_databases(old_config)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
