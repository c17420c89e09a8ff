"""Profile the post-match path: schedule, submit, confirm and both teams' whole Blitz Bowl sequence, in a big league.

Run on PostgreSQL (the figures that matter):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dugout_postmatch .venv/bin/python benchmarks/profile_postmatch.py
Options: --teams 400 --players 14 --history 10000 --matches 20 [--sql] [--cprofile] [--keepdb].
It builds a throwaway Blitz Bowl league in the test database — four teams through the services, the rest
copied from them with bulk_create, and `--history` final matches (sides, player rows, ledger entries, completed
sequences; no roll log: the post-match path only appends to it, and `record_rolls` is its one writer) —
inside a transaction it rolls back, then plays `--matches` matches through the services and prints p50/p95
milliseconds and query counts per phase. `--sql` prints each phase's slowest queries of the last match,
`--cprofile` the hottest functions.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dugout.settings")

STEPS = {
    "improvements": (None, None),
    "team_stats": (None, None),
    "fortune": ({"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [3], "fan_factor": [1, 1, 1]}),
    "hire_fire": (None, None),
    "prepare": (None, {"expensive_mistakes": [6], "expensive_mistakes_amount": [1]}),
}


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def build_league(*, teams: int, players: int, history: int):
    """A league of `teams` teams of `players` linemen with `history` final matches, mostly by bulk_create."""
    from django.contrib.auth import get_user_model

    from league.models import Membership
    from matches.models import Aftermath, Match, MatchTeam, PlayerMatch
    from teams.models import LedgerEntry, Player, Team
    from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire

    User = get_user_model()
    commissioner = UserFactory(username="bench-commissioner")
    league = LeagueFactory(created_by=commissioner, name="Benchmark league")
    # Two teams through the services: the shape every copy follows.
    seeds = [TeamFactory(league=league, name=f"Seed {i}") for i in range(4)]
    for team in seeds:
        for n in range(players):
            hire(team, "lineman", name=f"{team.name} {n + 1}", number=n + 1)
    template = seeds[0]
    template_players = list(template.players.all())
    template_ledger = list(template.ledger.order_by("sequence"))
    users = User.objects.bulk_create(
        [User(username=f"bench-coach-{i}", email=f"bench{i}@example.com") for i in range(teams - 4)]
    )
    Membership.objects.bulk_create([Membership(league=league, user=u, role=Membership.Role.COACH) for u in users])
    copies = Team.objects.bulk_create(
        [
            Team(
                league=league, coach=u, name=f"Team {i}", roster=template.roster, creation_closed_at=template.created_at
            )
            for i, u in enumerate(users)
        ]
    )
    Player.objects.bulk_create(
        [
            Player(
                team=t,
                position=p.position,
                name=f"{t.name} {p.number}",
                number=p.number,
                attributes=p.attributes,
                skills=p.skills,
                value=p.value,
            )
            for t in copies
            for p in template_players
        ],
        batch_size=2000,
    )
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                team=t,
                account=e.account,
                sequence=e.sequence,
                amount=e.amount,
                balance_after=e.balance_after,
                kind=e.kind,
                reason=e.reason,
            )
            for t in copies
            for e in template_ledger
        ],
        batch_size=2000,
    )
    all_teams = [*seeds, *copies]
    roster_of = {}
    for team_id, player_id in Player.objects.filter(team__league=league).values_list("team_id", "pk"):
        roster_of.setdefault(team_id, []).append(player_id)
    # Final matches between any two teams, the seeds too (their sequences complete), so every team has a history.
    rng = random.Random(12)  # noqa: S311 - a reproducible shape, not a secret
    matches = Match.objects.bulk_create(
        [
            Match(league=league, status=Match.Status.FINAL, created_by=commissioner, result={"teams": []})
            for _ in range(history)
        ],
        batch_size=2000,
    )
    sides, rows, aftermaths, ledger = [], [], [], []
    sequence = {t.pk: len(template_ledger) for t in all_teams}
    balance = {t.pk: template_ledger[-1].balance_after for t in all_teams}
    for match in matches:
        pair = rng.sample(all_teams, 2)
        for order, team in enumerate(pair):
            sides.append(
                MatchTeam(match=match, team=team, order=order, score=order, outcome="win" if order else "loss")
            )
            scorer = rng.choice(roster_of[team.pk])
            rows.append(PlayerMatch(match=match, team=team, player_id=scorer, touchdowns=1, spp=3))
            hurt = rng.choice(roster_of[team.pk])
            if hurt != scorer:
                rows.append(PlayerMatch(match=match, team=team, player_id=hurt, injury="badly_hurt"))
            aftermaths.append(Aftermath(match=match, team=team, step_index=5, complete=True))
            sequence[team.pk] += 1
            balance[team.pk] += 3000
            ledger.append(
                LedgerEntry(
                    team=team,
                    sequence=sequence[team.pk],
                    amount=3000,
                    balance_after=balance[team.pk],
                    kind="winnings",
                    reason="Winnings",
                    match=match,
                )
            )
    for model, objs in (
        (MatchTeam, sides),
        (PlayerMatch, rows),
        (Aftermath, aftermaths),
        (LedgerEntry, ledger),
    ):
        model.objects.bulk_create(objs, batch_size=2000)
    return league, seeds, commissioner, all_teams


def _post(aftermath, team, match_id, step, choices, rolls):
    return aftermath.aftermath_post(
        user=team.coach, match_id=match_id, team_id=team.pk, step=step, choices=choices, rolls=rolls
    )


sql_log: dict[str, list[dict]] = {}


def play_one(league, home, away, commissioner, timings, queries, connection):
    from django.test.utils import CaptureQueriesContext

    from matches import aftermath, services
    from teams.models import Player

    def timed(phase, fn):
        with CaptureQueriesContext(connection) as ctx:
            started = time.perf_counter()
            out = fn()
            timings.setdefault(phase, []).append((time.perf_counter() - started) * 1000)
        queries.setdefault(phase, []).append(len(ctx.captured_queries))
        sql_log[phase] = ctx.captured_queries
        return out

    started = time.perf_counter()
    match = timed(
        "schedule", lambda: services.match_schedule(user=home.coach, league=league, team_ids=[home.pk, away.pk])
    )
    scorer = Player.objects.filter(team=home, left_at__isnull=True).order_by("-number").values_list("pk", flat=True)[0]
    body = {
        "teams": [
            {"team": home.pk, "score": 1, "casualties_inflicted": 0},
            {"team": away.pk, "score": 0, "casualties_inflicted": 0},
        ],
        "players": [{"player": scorer, "touchdowns": 1}],
    }
    timed("submit", lambda: services.match_submit_result(user=home.coach, match_id=match.pk, body=body))
    post_started = time.perf_counter()
    timed("confirm", lambda: services.match_confirm(user=away.coach, match_id=match.pk))
    for team in (home, away):
        for step, (choices, rolls) in STEPS.items():
            state = timed(f"step {step}", partial(_post, aftermath, team, match.pk, step, choices, rolls))
            if state.pending:  # a level-up: take a skill the player lacks for each improvement (a second POST)
                chosen = {
                    pid: [next(s for s in o["normal_skills"] if s not in taken.get(int(pid), ())) for o in options]
                    for pid, options in state.pending["options"].items()
                    for taken in [dict(Player.objects.filter(team=team).values_list("pk", "skills"))]
                }
                state = timed(
                    f"step {step}", partial(_post, aftermath, team, match.pk, step, {"improvements": chosen}, None)
                )
            assert not state.pending, state.pending
        assert state.complete
    now = time.perf_counter()
    timings.setdefault("confirm + both sequences", []).append((now - post_started) * 1000)
    timings.setdefault("whole match", []).append((now - started) * 1000)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--teams", type=int, default=400)
    parser.add_argument("--players", type=int, default=14)
    parser.add_argument("--history", type=int, default=10000)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--cprofile", action="store_true")
    parser.add_argument("--keepdb", action="store_true")
    parser.add_argument(
        "--sql", action="store_true", help="print each phase's queries of the last match, slowest first"
    )
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection, transaction
    from django.test.utils import get_runner, setup_test_environment

    setup_test_environment()
    runner = get_runner(settings)(verbosity=0, keepdb=args.keepdb)
    old_config = runner.setup_databases()
    try:
        with transaction.atomic():
            started = time.perf_counter()
            league, seeds, commissioner, _ = build_league(teams=args.teams, players=args.players, history=args.history)
            print(
                f"{connection.vendor}: {args.teams} teams × {args.players} players, {args.history} final matches "
                f"built in {time.perf_counter() - started:.1f} s; {args.matches} matches through the services"
            )
            # Rotate the four seed teams' pairings: no pair meets twice in a row (R: consecutive meetings).
            pairings = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)]
            timings: dict[str, list[float]] = {}
            queries: dict[str, list[int]] = {}
            home, away = seeds[0], seeds[1]
            play_one(league, home, away, commissioner, {}, {}, connection)  # warm-up
            profiler = cProfile.Profile() if args.cprofile else None
            for n in range(args.matches):
                i, j = pairings[(n + 1) % len(pairings)]
                home, away = seeds[i], seeds[j]
                if profiler:
                    profiler.enable()
                play_one(league, home, away, commissioner, timings, queries, connection)
                if profiler:
                    profiler.disable()
            for phase, values in timings.items():
                counts = queries.get(phase)
                q = f"{max(counts):4d} queries" if counts else ""
                print(f"  {phase:26} p50 {statistics.median(values):7.1f} ms  p95 {_pct(values, 0.95):7.1f} ms  {q}")
            if args.sql:
                for phase, captured in sql_log.items():
                    print(f"--- {phase}")
                    for q in sorted(captured, key=lambda q: -float(q["time"]))[:8]:
                        print(f"  {float(q['time']) * 1000:6.1f} ms  {q['sql'][:300]}")
            if profiler:
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
            transaction.set_rollback(True)
    finally:
        runner.teardown_databases(old_config)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
