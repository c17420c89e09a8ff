"""Races on the post-match sequence (rules/blitzbowl.md "Post-match sequence": "idempotent: repeating a step
request never moves gil or stats twice"; api-v1: 409 if `step` is not the current step, Idempotency-Key) and on
the match writes that lead to it (confirming, scheduling).

Real threads and real transactions: on SQLite (WAL + IMMEDIATE transactions + busy timeout) and on PostgreSQL
(row locks) twenty simultaneous POSTs of the same step apply it exactly once.

Where a race needs a wide window to show, a "slow neighbour" thread holds alice's team row (FOR UPDATE on
PostgreSQL, the write lock on SQLite) while the racers start, and lets go once they wait for it: the racers
then run in the order the locks give them, every time.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections import Counter

import pytest
from django.db import connection, transaction
from django.db.models import F, Sum

from campaigns.errors import RuleViolation
from matches import aftermath, services
from matches.aftermath import StepConflict
from matches.models import Aftermath, Match, MatchTeam, PlayerMatch, Roll
from teams.models import LedgerEntry, Team
from teams.selectors import team_treasury
from tests.factories import UserFactory, token_for
from tests.matches.conftest import full_team

ON_POSTGRES = connection.vendor == "postgresql"


pytestmark = pytest.mark.django_db(transaction=True)

RACERS = 20
FORTUNE = {
    "step": "fortune",
    "rolls": {"winnings": [4], "fan_factor": [6, 6, 6]},
    "choices": {"reroll_winnings": False, "seek_sponsor": False},
}
#: H: winnings 4 × 1,000 + FAME 0 + 1,000 for the win.
WINNINGS = 5000


def ledger_sum(team: Team) -> int:
    return LedgerEntry.objects.filter(team=team, account="treasury").aggregate(s=Sum("amount"))["s"] or 0


def winnings_entries(team: Team, match_id: int) -> int:
    return LedgerEntry.objects.filter(team=team, match_id=match_id, kind="winnings").count()


@pytest.fixture
def at_fortune(commissioner, coach, other_coach, league, home, away):
    """A final 1–0 win for alice's team, its sequence walked up to `fortune` (no level gained)."""
    scorer = home.players.order_by("number").first()
    match = services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    body = {
        "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 0}],
        "players": [{"player": scorer.pk, "touchdowns": 1}],
    }
    services.match_submit_result(user=coach, match_id=match.pk, body=body)
    services.match_confirm(user=other_coach, match_id=match.pk)
    for step in ("improvements", "team_stats"):
        aftermath.aftermath_post(user=coach, match_id=match.pk, team_id=home.pk, step=step)
    assert Aftermath.objects.get(match=match, team=home).step_index == 2
    return match.pk


def test_twenty_simultaneous_posts_of_a_step_apply_it_exactly_once(coach, home, at_fortune):
    treasury = team_treasury(team=home)
    barrier = threading.Barrier(RACERS)
    outcomes: list[str] = []
    errors: list[BaseException] = []

    def attempt() -> None:
        try:
            barrier.wait(timeout=30)
            aftermath.aftermath_post(
                user=coach,
                match_id=at_fortune,
                team_id=home.pk,
                step="fortune",
                choices=FORTUNE["choices"],
                rolls=FORTUNE["rolls"],
            )
            outcomes.append("applied")
        except StepConflict:
            outcomes.append("conflict")
        except BaseException as exc:  # anything else is a failure, reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(RACERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert not errors, errors
    assert Counter(outcomes) == {"applied": 1, "conflict": RACERS - 1}
    assert winnings_entries(home, at_fortune) == 1
    assert team_treasury(team=home) == ledger_sum(home) == treasury + WINNINGS
    state = Aftermath.objects.get(match_id=at_fortune, team=home)
    assert (state.step_index, state.complete, state.pending) == (3, False, {})
    assert [entry["step"] for entry in state.log] == ["improvements", "team_stats", "fortune"]
    assert Roll.objects.filter(match_id=at_fortune, team=home, step="fortune", key="winnings").count() == 1
    assert Team.objects.get(pk=home.pk).fan_factor == 1  # won: 18 > FF 0, once


def test_twenty_simultaneous_http_posts_answer_200_or_409_and_apply_once(live_server, coach, home, at_fortune):
    """Ten share one Idempotency-Key (a client retrying), ten carry their own: every answer is 200 (the one
    application, or the replay of it) or 409 — never a 500 or "database is locked"."""
    treasury = team_treasury(team=home)
    token = token_for(coach)
    url = f"{live_server.url}/api/v1/matches/{at_fortune}/aftermath/{home.pk}/"
    barrier = threading.Barrier(RACERS)
    answers: list[tuple[int, bool, str]] = []
    lock = threading.Lock()

    def post(n: int) -> None:
        key = "retry-fortune" if n < RACERS // 2 else f"fortune-{n}"
        request = urllib.request.Request(
            url,
            data=json.dumps(FORTUNE).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Token {token}", "Idempotency-Key": key},
        )
        barrier.wait(timeout=30)
        try:
            with urllib.request.urlopen(request, timeout=90) as response:
                answer = (response.status, response.headers.get("Idempotent-Replayed") == "true", response.read())
        except urllib.error.HTTPError as exc:
            answer = (exc.code, False, exc.read())
        with lock:
            answers.append((answer[0], answer[1], answer[2].decode(errors="replace")))

    threads = [threading.Thread(target=post, args=(n,)) for n in range(RACERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(answers) == RACERS
    statuses = Counter(status for status, _, _ in answers)
    assert set(statuses) <= {200, 409}, answers
    assert not any("locked" in body.lower() for _, _, body in answers), answers
    applied = [body for status, replayed, body in answers if status == 200 and not replayed]
    assert len(applied) == 1, answers
    assert json.loads(applied[0])["step"] == "hire_fire"
    # A replay is the first answer, word for word.
    assert all(body == applied[0] for status, replayed, body in answers if replayed)
    for status, _, body in answers:
        if status == 409:
            assert json.loads(body)["detail"], body
    assert winnings_entries(home, at_fortune) == 1
    assert team_treasury(team=home) == ledger_sum(home) == treasury + WINNINGS
    assert Aftermath.objects.get(match_id=at_fortune, team=home).step_index == 3


def test_a_racing_pending_decision_is_answered_once(coach, home, at_fortune):
    """The winner pauses on `reroll_winnings`; ten racing answers (half re-roll, half keep) resolve it once."""
    first = aftermath.aftermath_post(
        user=coach,
        match_id=at_fortune,
        team_id=home.pk,
        step="fortune",
        rolls={"winnings": [1], "winnings_reroll": [6], "fan_factor": [1, 1, 1]},
        choices={"seek_sponsor": False},
    )
    assert first.pending["decision"] == "reroll_winnings"
    treasury = team_treasury(team=home)
    racers = 10
    barrier = threading.Barrier(racers)
    outcomes: list[str] = []
    errors: list[BaseException] = []

    def answer(n: int) -> None:
        try:
            barrier.wait(timeout=30)
            aftermath.aftermath_post(
                user=coach,
                match_id=at_fortune,
                team_id=home.pk,
                step="fortune",
                choices={"reroll_winnings": n % 2 == 0},
                rolls={"winnings_reroll": [6], "fan_factor": [1, 1, 1]},
            )
            outcomes.append("applied")
        except StepConflict:
            outcomes.append("conflict")
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=answer, args=(n,)) for n in range(racers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert not errors, errors
    assert Counter(outcomes) == {"applied": 1, "conflict": racers - 1}
    entries = LedgerEntry.objects.filter(team=home, match_id=at_fortune, kind="winnings")
    assert entries.count() == 1
    # Kept the 1 (2,000 with the win bonus) or re-rolled to the entered 6 (7,000): never both.
    assert entries.get().amount in (2000, 7000)
    assert team_treasury(team=home) == ledger_sum(home) == treasury + entries.get().amount


# --- confirming and scheduling under races ------------------------------------------------------------------------


def _waiting_for_locks() -> int | None:
    """PostgreSQL: how many sessions of this database wait for a lock (None on SQLite, which cannot tell)."""
    if not ON_POSTGRES:
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def race_behind_a_slow_neighbour(team: Team, actions: list) -> list[str]:
    """Run `actions` in threads at once while another transaction holds `team`'s row; let it go once they wait
    for it. Returns each action's outcome: "ok", "refused" (RuleViolation) or the unexpected exception."""
    holding, release = threading.Event(), threading.Event()

    def neighbour() -> None:
        try:
            with transaction.atomic():
                list(Team.objects.select_for_update().filter(pk=team.pk).values_list("pk", flat=True))
                Team.objects.filter(pk=team.pk).update(fan_factor=F("fan_factor"))  # SQLite: take the write lock
                holding.set()
                release.wait(60)
        finally:
            connection.close()

    holder = threading.Thread(target=neighbour)
    holder.start()
    assert holding.wait(30)
    outcomes: list[str] = []
    barrier = threading.Barrier(len(actions))

    def run(action) -> None:
        try:
            barrier.wait(timeout=30)
            action()
            outcomes.append("ok")
        except RuleViolation:
            outcomes.append("refused")
        except BaseException as exc:
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(action,)) for action in actions]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 20
    while ON_POSTGRES and _waiting_for_locks() < len(actions) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3 if ON_POSTGRES else 1.5)  # SQLite: time for the racers to reach BEGIN IMMEDIATE
    release.set()
    holder.join(60)
    for t in threads:
        t.join(90)
    return outcomes


def test_ten_simultaneous_confirmations_of_a_result_apply_it_once(commissioner, coach, other_coach, league, home, away):
    scorer = home.players.order_by("number").first()
    match = services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    body = {
        "teams": [{"team": home.pk, "score": 1, "mvp": scorer.pk}, {"team": away.pk, "score": 0}],
        "players": [{"player": scorer.pk, "touchdowns": 1}],
    }
    services.match_submit_result(user=commissioner, match_id=match.pk, body=body)
    confirmers = [other_coach, coach] * 5  # the commissioner entered it: either coach may confirm
    outcomes = race_behind_a_slow_neighbour(
        home, [lambda u=u: services.match_confirm(user=u, match_id=match.pk) for u in confirmers]
    )
    assert sorted(outcomes) == ["ok"] + ["refused"] * 9, outcomes
    assert Match.objects.get(pk=match.pk).status == "final"
    rows = PlayerMatch.objects.filter(match=match)  # once each: every player who played, one with his touchdown
    assert rows.count() == home.players.count() + away.players.count() and rows.filter(touchdowns=1).count() == 1
    assert home.players.get(pk=scorer.pk).spp == 8  # H: touchdown 3 + MVP 5, once
    assert Aftermath.objects.filter(match=match).count() == 2


def test_two_matches_of_one_team_confirmed_at_once_do_not_both_become_final(commissioner, coach, league, home, away):
    """Home's two results are entered; both are confirmed at the same moment. The first to become final opens
    Home's post-match sequence, so the other must be refused (a team's next result waits for its sequence).
    (Regression: on PostgreSQL both used to become final, the check running before the teams were locked.)"""
    third = full_team(league, UserFactory(username="carol"), "Third")
    matches = []
    for other in (away, third):
        match = services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, other.pk])
        body = {"teams": [{"team": home.pk, "score": 0}, {"team": other.pk, "score": 0}]}
        services.match_submit_result(user=commissioner, match_id=match.pk, body=body)
        matches.append(match.pk)
    outcomes = race_behind_a_slow_neighbour(
        home, [lambda m=m: services.match_confirm(user=coach, match_id=m) for m in matches]
    )
    assert sorted(outcomes) == ["ok", "refused"], outcomes
    assert sorted(Match.objects.filter(pk__in=matches).values_list("status", flat=True)) == ["final", "submitted"]
    assert Aftermath.objects.filter(team=home, complete=False).count() == 1


def test_two_simultaneous_schedulings_cannot_make_a_third_meeting_in_a_row(commissioner, league, home, away):
    """R: at most two matches in a row against the same opponent. One Home–Away exists; two more requested at
    the same moment: one is scheduled, the other refused. (Regression: both used to be scheduled, the check
    running outside the transaction.)"""
    services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    outcomes = race_behind_a_slow_neighbour(
        home,
        [lambda: services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])] * 2,
    )
    assert sorted(outcomes) == ["ok", "refused"], outcomes
    assert MatchTeam.objects.filter(team=home).count() == 2
