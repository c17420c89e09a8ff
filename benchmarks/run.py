# ruff: noqa: S603, S607 (the benchmark runs its own fixed tools: gunicorn, hey, psql, manage.py)
"""`make bench`: issue 12's benchmark. Seeds (or reuses) the benchmark's leagues, serves them with gunicorn
(4 sync workers, DEBUG off, production-like settings as .ci/fuzz runs them), drives each page with `hey` in a
closed loop and at a fixed offered rate (bounded in time), measures the export as a stream and the workers'
memory, then the in-process figures (benchmarks/inprocess.py). Prints every figure (p50/p95/p99, req/s, ratio
to the bare view), writes benchmarks/RESULTS.md (RESULTS-sqlite.md with --sqlite) and exits 1 when a target of
benchmarks/targets.py is missed. Run from benchmarks/run.sh, which makes sure PostgreSQL, Redis and hey are up.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import socket
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.load import hey, probe, workers_rss_mb  # noqa: E402
from benchmarks.targets import TARGETS, verdicts  # noqa: E402

PY = str(ROOT / ".venv/bin/python")
SLOW_PROBE_S = 2.0  # a page slower than this once is not put under load (the run stays bounded)


def environment(args) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=args.database_url,
        REDIS_URL=args.redis_url,
        DJANGO_SETTINGS_MODULE="benchmarks.settings",
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        ALLOWED_HOSTS="127.0.0.1",
        LOG_LEVEL="WARNING",
        SECRET_KEY=secrets.token_hex(40),
    )
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def targets_urls(env) -> dict[str, str]:
    code = (
        "import json, django; django.setup()\n"
        "from dugout.benchmark.seed import BIG_LEAGUE, SMALL_PREFIX\n"
        "from league.models import League; from teams.models import Player, Team; from matches.models import Match\n"
        "big = League.objects.get(name=BIG_LEAGUE)\n"
        "small = League.objects.filter(name__startswith=SMALL_PREFIX).order_by('pk').first()\n"
        "team = Team.objects.filter(league=big).order_by('pk').first()\n"
        "match = Match.objects.filter(league=big, status='final').order_by('-pk').first()\n"
        "player = Player.objects.filter(team=team, match_rows__isnull=False).order_by('pk').first()\n"
        "ids = {'big': big.pk, 'small': small.pk, 'team': team.pk, 'match': match.pk, 'player': player.pk}\n"
        "print(json.dumps(ids))\n"
    )
    ids = json.loads(
        subprocess.run([PY, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
        .stdout.strip()
        .splitlines()[-1]
    )
    return {
        "bare": "/bench/bare/",
        "standings.big": f"/api/v1/leagues/{ids['big']}/standings/",
        "standings.small": f"/api/v1/leagues/{ids['small']}/standings/",
        "league_page.big": f"/leagues/{ids['big']}/",
        "team_api": f"/api/v1/teams/{ids['team']}/",
        "team_list_api": f"/api/v1/teams/?league={ids['big']}",
        "team_sheet": f"/teams/{ids['team']}/",
        "match_report": f"/matches/{ids['match']}/",
        "home": "/",
        **public_urls(ids["big"], ids["player"], ids["match"]),
        "export": f"/api/v1/leagues/{ids['big']}/export/",
    }


def public_urls(big: int, player: int, match: int) -> dict[str, str]:
    """Issue 14's public pages of the big league: its leaders (page, and the API all time), a player's page, the
    records, the Elo ratings and a match's share card."""
    return {
        "leaders.big": f"/leagues/{big}/leaders/",
        "leaders_api.all_time": f"/api/v1/leagues/{big}/leaders/?stat=touchdowns&season=all",
        "player_page": f"/players/{player}/",
        "records.big": f"/leagues/{big}/records/",
        "ratings.big": f"/leagues/{big}/ratings/",
        "match_card": f"/matches/{match}/card.png",
    }


#: (scenario, offered rate for the fixed-rate run)
RATES = {"bare": 200, "standings.big": 200, "standings.small": 200}
DEFAULT_RATE = 50


def serve_and_load(env, urls, args, figures, lines) -> None:
    port = free_port()
    log = open(ROOT / "var/bench-gunicorn.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "dugout.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "4",
            "--worker-class",
            "sync",
            "--timeout",
            "60",
            "--error-logfile",
            "-",
        ],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=log,
    )
    try:
        for _ in range(120):
            try:
                if probe("127.0.0.1", port, "/bench/bare/", timeout=5)["status"] == 200:
                    break
            except OSError:
                time.sleep(0.5)
        base = f"http://127.0.0.1:{port}"
        for name, path in urls.items():
            if name == "export":
                continue
            once = probe("127.0.0.1", port, path)
            figures[f"{name}.bytes"], figures[f"{name}.status"] = once["bytes"], once["status"]
            figures[f"{name}.single_ms"] = once["total_s"] * 1000
            if once["total_s"] > SLOW_PROBE_S:
                lines.append(f"- {name}: one request took {once['total_s']:.1f} s — not put under load")
                continue
            closed = hey(base + path, seconds=args.seconds, connections=8)
            rate = RATES.get(name, DEFAULT_RATE)
            fixed = hey(base + path, seconds=args.seconds, connections=8, rate=rate)
            for key, value in closed.items():
                figures[f"{name}.{key}"] = value
            for key, value in fixed.items():
                figures[f"{name}.rate_{key}"] = value
            figures[f"{name}.offered"] = rate
        bare = figures.get("bare.rps")
        for name in urls:
            if bare and f"{name}.rps" in figures:
                figures[f"{name}.ratio"] = figures[f"{name}.rps"] / bare
        before = workers_rss_mb(server.pid)
        once = probe("127.0.0.1", port, urls["export"], timeout=120)
        after = workers_rss_mb(server.pid)
        figures.update({f"export.{k}": v for k, v in once.items()})
        figures["export.rss_before_mb"] = max(before.values())
        figures["export.rss_after_mb"] = max(after.values())
        figures["export.rss_growth_mb"] = max(after.get(pid, 0) - rss for pid, rss in before.items())
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def machine(env) -> list[str]:
    cores = os.cpu_count()
    pg = ""
    if env["DATABASE_URL"].startswith("postgres"):
        pg = subprocess.run(
            ["psql", env["DATABASE_URL"], "-tAc", "SHOW server_version"], capture_output=True, text=True
        ).stdout.strip()
    return [
        f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        f"- machine: `{' '.join(platform.uname())}`",
        f"- cores: {cores}",
        f"- database: {'PostgreSQL ' + pg if pg else 'SQLite'}"
        f" · cache: {'Redis' if env['REDIS_URL'] else 'local memory'}",
        "- server: gunicorn, 4 sync workers, DEBUG off; load: hey, 8 connections",
        "- load average when the report was written (1/5/15 min; other work shares the machine): "
        + " / ".join(f"{x:.1f}" for x in os.getloadavg()),
    ]


def fmt(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:,.1f}" if abs(value) >= 1 or value == 0 else f"{value:.3f}"
    return f"{value:,}"


def table(figures, urls) -> list[str]:
    out = [
        "| what | one request ms | closed loop p50 / p95 / p99 ms | req/s | vs bare"
        " | fixed rate p50 / p95 / p99 ms (offered, achieved req/s) | bytes | queries |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name in urls:
        if name == "export":
            continue
        f = lambda k, name=name: figures.get(f"{name}.{k}")  # noqa: E731
        closed = (
            " / ".join(fmt(f(k)) for k in ("p50_ms", "p95_ms", "p99_ms"))
            if f("p50_ms") is not None
            else "not loaded (too slow)"
        )
        fixed = (
            (
                " / ".join(fmt(f(k)) for k in ("rate_p50_ms", "rate_p95_ms", "rate_p99_ms"))
                + f" ({fmt(f('offered'))}/s, got {fmt(f('rate_rps'))})"
            )
            if f("rate_p50_ms") is not None
            else "—"
        )
        ratio = f"{f('ratio') * 100:.1f} %" if f("ratio") is not None else "—"
        out.append(
            f"| {name} | {fmt(f('single_ms'))} | {closed} | {fmt(f('rps'))} | {ratio} | {fixed} | {fmt(f('bytes'))} |"
            f" {fmt(figures.get('queries.' + name))} |"
        )
    return out


def measure(env, urls, args, notes) -> dict[str, float]:
    """One run: the pages under load and the export (gunicorn), then the in-process figures."""
    figures: dict[str, float] = {}
    serve_and_load(env, urls, args, figures, notes)
    inproc = subprocess.run([PY, "benchmarks/inprocess.py"], env=env, cwd=ROOT, capture_output=True, text=True)
    if inproc.returncode:
        notes.append("- in-process figures failed: " + inproc.stderr.strip().splitlines()[-1])
    else:
        inner = json.loads(inproc.stdout.strip().splitlines()[-1])
        figures.update({k: v for k, v in inner.items() if not k.startswith(("bytes.", "status."))})
    return figures


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over the runs that measured it (the ratios too: each run's own ratio to its own
    bare view, then their median)."""
    keys = {key for run in runs for key in run}
    return {key: statistics.median(run[key] for run in runs if key in run) for key in keys}


def runs_table(runs: list[dict[str, float]]) -> list[str]:
    """Every target's figure in each run, beside the median the verdict is given on."""
    head = " | ".join(f"run {n}" for n in range(1, len(runs) + 1))
    out = [f"| target | {head} | median |", "| --- |" + " --- |" * (len(runs) + 1)]
    for key, _op, _bound, label in TARGETS:
        cells = " | ".join(fmt(run.get(key)) for run in runs)
        values = [run[key] for run in runs if key in run]
        out.append(f"| {label} | {cells} | {fmt(statistics.median(values)) if values else '—'} |")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dugout_bench"),
    )
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9"))
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("BENCH_SECONDS", "8")))
    parser.add_argument("--results", default=str(ROOT / "benchmarks/RESULTS.md"))
    parser.add_argument("--seed-args", default=os.environ.get("BENCH_SEED_ARGS", ""))
    parser.add_argument(
        "--runs",
        type=int,
        default=int(os.environ.get("BENCH_RUNS", "3")),
        help="measure this many times over the one seed; every figure reported is the median of the runs",
    )
    args = parser.parse_args()
    (ROOT / "var").mkdir(exist_ok=True)
    env = environment(args)
    manage = [PY, "manage.py"]
    run_started = time.perf_counter()
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, cwd=ROOT, check=True)
    started = time.perf_counter()
    subprocess.run([*manage, "seed_benchmark", *args.seed_args.split()], env=env, cwd=ROOT, check=True)
    seed_s = time.perf_counter() - started
    urls = targets_urls(env)
    runs: list[dict[str, float]] = []
    notes: list[str] = []
    for number in range(1, args.runs + 1):
        print(f"bench: run {number} of {args.runs}", flush=True)
        runs.append(measure(env, urls, args, notes))
    figures = medians(runs)
    report = [
        "# Benchmark results (issue 12)",
        "",
        *machine(env),
        f"- seed (or reuse): {seed_s:.0f} s; whole run: {time.perf_counter() - run_started:.0f} s;"
        f" {len(runs)} run(s) over the one seed: every figure below is the median of the runs",
        "",
        "## Pages under load",
        "",
        f"Each row: one request first; then {args.seconds} s closed loop (8 connections, as fast as answers come)"
        f" and {args.seconds} s at a fixed offered rate; latencies per request from hey's CSV; queries and bytes"
        " from Django's test client (a warm second request).",
        "",
        *table(figures, urls),
        "",
        *notes,
        "",
        "## Export (one request, streamed read)",
        "",
        f"- status {fmt(figures.get('export.status'))}, first byte {fmt(figures.get('export.ttfb_s'))} s,"
        f" whole {fmt(figures.get('export.total_s'))} s, {fmt(figures.get('export.bytes'))} bytes",
        f"- worker RSS before {fmt(figures.get('export.rss_before_mb'))} MB, after"
        f" {fmt(figures.get('export.rss_after_mb'))} MB, growth {fmt(figures.get('export.rss_growth_mb'))} MB",
        "",
        "## In process",
        "",
    ]
    for key in sorted(k for k in figures if k.startswith(("match.", "step_post.", "reports.", "queries."))):
        report.append(f"- {key}: {fmt(figures[key])}")
    report += ["", "## Targets", "", "| target | bound | measured | met |", "| --- | --- | --- | --- |"]
    missed = 0
    for label, bound, value, met in verdicts(figures):
        missed += not met
        report.append(f"| {label} | {bound} | {fmt(value)} | {'yes' if met else '**MISSED**'} |")
    report += ["", f"{missed} target(s) missed.", "", "## Each run", "", *runs_table(runs)]
    text = "\n".join(report) + "\n"
    Path(args.results).write_text(text)
    (ROOT / "var/bench-figures.json").write_text(json.dumps(figures, indent=1, sort_keys=True))
    print(text)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
