"""In-process figures (run by benchmarks/run.py in its own process, against the seeded database): query counts
and response sizes per page through Django's test client, a match through the services (p50/p95 over ≥ 30
matches in the big league), single post-match step POSTs, and the weekly reports on one worker.
Prints one JSON object of figures on stdout."""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.settings")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def _queries(urls: dict[str, str]) -> dict[str, float]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    out = {}
    for name, url in urls.items():
        client.get(url)  # warm the caches a first request fills, as a server in use has them
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
            size = len(b"".join(response)) if response.streaming else len(response.content)
        out[f"queries.{name}"] = len(ctx.captured_queries)
        out[f"bytes.{name}"] = size
        out[f"status.{name}"] = response.status_code
    return out


def _matches(league, count: int) -> dict[str, float]:
    from campaigns.errors import RuleViolation
    from dugout.benchmark.play import match_play
    from league.models import Membership
    from teams.models import Team

    commissioner = Membership.objects.filter(league=league, role=Membership.Role.COMMISSIONER).first().user
    teams = list(Team.objects.filter(league=league).select_related("coach").order_by("pk"))
    rng = random.Random(time.time_ns())  # noqa: S311 (dice of a benchmark, not a secret)
    rng.shuffle(teams)
    runs = []
    pairs = iter(zip(teams[0::2], teams[1::2], strict=False))
    while len(runs) < count:
        home, away = next(pairs)
        try:
            runs.append(match_play(league=league, home=home, away=away, commissioner=commissioner, rng=rng))
        except RuleViolation:  # R: these two met twice in a row already (earlier runs); draw another pair
            continue
    out: dict[str, float] = {}
    for phase in ("total", "confirm", "sequences"):
        ms = [r[phase] * 1000 for r in runs]
        out[f"match.{phase}.p50_ms"], out[f"match.{phase}.p95_ms"] = statistics.median(ms), pct(ms, 95)
    both = [(r["confirm"] + r["sequences"]) * 1000 for r in runs]
    out["match.confirm_sequences.p50_ms"], out["match.confirm_sequences.p95_ms"] = (
        statistics.median(both),
        pct(both, 95),
    )
    steps = [r["sequences"] * 1000 / r["step_posts"] for r in runs]
    out["match.step.p50_ms"], out["match.step.p95_ms"] = statistics.median(steps), pct(steps, 95)
    out["match.count"] = count
    out["match.per_hour"] = 3600_000 / statistics.median([r["total"] * 1000 for r in runs])
    return out


def _step_posts(league, count: int) -> dict[str, float]:
    """Single post-match step POSTs through the API (the view, the serializer and the service)."""
    from rest_framework.test import APIClient

    from campaigns.errors import RuleViolation
    from dugout.benchmark import play
    from league.models import Membership
    from matches.models import Aftermath
    from matches.services import match_confirm, match_schedule, match_submit_result
    from teams.models import Team

    commissioner = Membership.objects.filter(league=league, role=Membership.Role.COMMISSIONER).first().user
    teams = list(Team.objects.filter(league=league).select_related("coach").order_by("pk"))
    rng = random.Random(time.time_ns())  # noqa: S311 (dice of a benchmark, not a secret)
    rng.shuffle(teams)
    pairs = iter(zip(teams[0::2], teams[1::2], strict=False))
    timings = []
    played = 0
    while played < count:
        home, away = next(pairs)
        try:
            match = match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
        except RuleViolation:  # R: these two met twice in a row already (earlier runs); draw another pair
            continue
        played += 1
        body = play.result_body(rng, play._roster(home.pk), play._roster(away.pk), home.pk, away.pk)
        match_submit_result(user=home.coach, match_id=match.pk, body=body)
        match_confirm(user=away.coach, match_id=match.pk)
        for team in (home, away):
            client = APIClient(HTTP_HOST="127.0.0.1")
            client.force_authenticate(team.coach)
            url = f"/api/v1/matches/{match.pk}/aftermath/{team.pk}/"
            choices = dict(play.STANDING_CHOICES)
            aftermath = Aftermath.objects.get(match=match, team=team)
            steps = [s.key for s in league.rules.postmatch_steps]
            for _ in range(40):
                if aftermath.complete:
                    break
                started = time.perf_counter()
                response = client.post(url, {"step": steps[aftermath.step_index], "choices": choices}, format="json")
                timings.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, response.content[:300]
                aftermath.refresh_from_db()
                if (aftermath.pending or {}).get("decision") == "improvements":
                    choices = {**choices, "improvements": play._improvements(aftermath.pending["options"])}
    return {"step_post.p50_ms": statistics.median(timings), "step_post.p95_ms": pct(timings, 95)}


def _reports(big, small_ids: list[int]) -> dict[str, float]:
    from dugout.celery import startup_freeze
    from dugout.reports.services import report_generate

    startup_freeze()  # as the worker does when it starts (dugout/celery.py)
    started = time.perf_counter()
    report_generate(league_id=big.pk, regenerate=True)
    big_s = time.perf_counter() - started
    started = time.perf_counter()
    for pk in small_ids:
        report_generate(league_id=pk, regenerate=True)
    return {
        "reports.big_s": big_s,
        "reports.small_1000_s": time.perf_counter() - started,
        "reports.small_n": len(small_ids),
    }


def main() -> int:
    import django

    django.setup()
    from benchmarks.run import public_urls
    from dugout.benchmark.seed import BIG_LEAGUE, SMALL_PREFIX
    from league.models import League
    from matches.models import Match
    from teams.models import Player, Team

    matches = int(os.environ.get("BENCH_MATCHES", "30"))
    big = League.objects.get(name=BIG_LEAGUE)
    small = League.objects.filter(name__startswith=SMALL_PREFIX).order_by("pk").first()
    team = Team.objects.filter(league=big).order_by("pk").first()
    match = Match.objects.filter(league=big, status="final").order_by("-pk").first()
    urls = {
        "bare": "/bench/bare/",
        "home": "/",
        "league_page.big": f"/leagues/{big.pk}/",
        "league_page.small": f"/leagues/{small.pk}/",
        "standings.big": f"/api/v1/leagues/{big.pk}/standings/",
        "standings.small": f"/api/v1/leagues/{small.pk}/standings/",
        "team_api": f"/api/v1/teams/{team.pk}/",
        "team_list_api": f"/api/v1/teams/?league={big.pk}",
        "team_sheet": f"/teams/{team.pk}/",
        "match_report": f"/matches/{match.pk}/",
        **public_urls(
            big.pk, Player.objects.filter(team=team, match_rows__isnull=False).order_by("pk")[0].pk, match.pk
        ),
    }
    figures: dict[str, float] = {}
    figures.update(_queries(urls))
    figures.update(_matches(big, matches))
    figures.update(_step_posts(big, max(2, matches // 10)))
    small_ids = list(League.objects.filter(name__startswith=SMALL_PREFIX).order_by("pk").values_list("pk", flat=True))
    figures.update(_reports(big, small_ids))
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
