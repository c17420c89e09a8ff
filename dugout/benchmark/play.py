"""One Blitz Bowl match through the project's services, as coaches make it: schedule, submit, confirm, then both
teams' whole post-match sequence, answering each decision the way a hurried coach would (no re-roll, no sponsor,
no residency, the first improvement offered). The seeder plays a sample this way; the benchmark times it."""

from __future__ import annotations

import random
import time
from typing import Any

from matches.aftermath import aftermath_post
from matches.models import Aftermath
from matches.services import match_confirm, match_schedule, match_submit_result
from teams.models import Player, Team

#: Answers given up front to the decisions the Blitz Bowl post-match steps may ask for.
STANDING_CHOICES: dict[str, Any] = {
    "reroll_winnings": False,
    "seek_sponsor": False,
    "end_sponsorships": [],
    "residency": "reject",
    "hire_journeymen": [],
    "keep_residency_spend": 0,
}


def result_body(rng: random.Random, home: list[int], away: list[int], home_id: int, away_id: int) -> dict:
    """A plausible Blitz Bowl result: 0-3 touchdowns a side, a few casualties, an MVP each, the scorers' rows."""
    scores = (rng.choice((0, 1, 1, 2, 2, 3)), rng.choice((0, 1, 1, 2, 2, 3)))
    casualties = (rng.choice((0, 0, 1, 1, 2)), rng.choice((0, 0, 1, 1, 2)))
    players: dict[int, dict] = {}
    for roster, score, cas in ((home, scores[0], casualties[0]), (away, scores[1], casualties[1])):
        for _ in range(score):
            row = players.setdefault(rng.choice(roster), {})
            row["touchdowns"] = row.get("touchdowns", 0) + 1
        for _ in range(cas):
            row = players.setdefault(rng.choice(roster), {})
            row["casualties"] = row.get("casualties", 0) + 1
        if rng.random() < 0.8:
            row = players.setdefault(rng.choice(roster), {})
            row["completions"] = row.get("completions", 0) + 1
        if rng.random() < 0.15:
            row = players.setdefault(rng.choice(roster), {})
            row["interceptions"] = row.get("interceptions", 0) + 1
    return {
        "teams": [
            {"team": home_id, "score": scores[0], "casualties_inflicted": casualties[0], "mvp": rng.choice(home)},
            {"team": away_id, "score": scores[1], "casualties_inflicted": casualties[1], "mvp": rng.choice(away)},
        ],
        "players": [{"player": pid, **row} for pid, row in players.items()],
    }


def _improvements(options: dict) -> dict:
    """The first skill offered at each new level, else the first attribute the roll allows."""
    return {pid: [(level["skills"] or level["attributes"])[0] for level in levels] for pid, levels in options.items()}


def sequence_walk(*, user, match_id: int, team_id: int) -> int:
    """Walk one team's whole post-match sequence; returns how many step POSTs it took."""
    posts = 0
    choices = dict(STANDING_CHOICES)
    aftermath = Aftermath.objects.select_related("match__league").get(match_id=match_id, team_id=team_id)
    steps = [s.key for s in aftermath.match.league.rules.postmatch_steps]
    while not aftermath.complete and posts < 40:
        step = steps[aftermath.step_index]
        aftermath = aftermath_post(user=user, match_id=match_id, team_id=team_id, step=step, choices=choices)
        posts += 1
        pending = aftermath.pending or {}
        if pending.get("decision") == "improvements":
            choices = {**choices, "improvements": _improvements(pending["options"])}
        elif pending.get("decision"):
            raise RuntimeError(f"unanswered decision {pending['decision']!r} at {step}")
    return posts


def _roster(team_id: int) -> list[int]:
    return list(
        Player.objects.filter(team_id=team_id, left_at__isnull=True, status=Player.Status.ACTIVE).values_list(
            "pk", flat=True
        )
    )


def match_play(*, league, home: Team, away: Team, commissioner, rng: random.Random) -> dict[str, float]:
    """Play one match through the services; returns the seconds each phase took."""
    timings: dict[str, float] = {}
    started = time.perf_counter()
    match = match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    timings["schedule"] = time.perf_counter() - started
    body = result_body(rng, _roster(home.pk), _roster(away.pk), home.pk, away.pk)
    mark = time.perf_counter()
    match_submit_result(user=home.coach, match_id=match.pk, body=body)
    timings["submit"] = time.perf_counter() - mark
    mark = time.perf_counter()
    match_confirm(user=away.coach, match_id=match.pk)
    timings["confirm"] = time.perf_counter() - mark
    mark = time.perf_counter()
    posts = sequence_walk(user=home.coach, match_id=match.pk, team_id=home.pk)
    posts += sequence_walk(user=away.coach, match_id=match.pk, team_id=away.pk)
    timings["sequences"] = time.perf_counter() - mark
    timings["step_posts"] = posts
    timings["total"] = time.perf_counter() - started
    timings["match_id"] = match.pk
    return timings
