"""Deadlines that act (contract v1.2 "Deadlines that act"): the league clock confirms a result left unanswered
for the league's `auto_confirm_hours`, forfeits for both teams a match unplayed `deadline_grace_hours` after its
deadline when the league says "double_forfeit", and otherwise tells the commissioners once that a deadline
passed. Time is frozen: every tick is given its moment, as the reminders' tests do; the moments a result was
submitted and a deadline falls are set on the rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from league.models import AuditEntry
from matches import clock_acts, disputes, extensions, services
from matches.clock import clock_tick
from matches.models import Aftermath, Match, MatchTeam, PlayerMatch
from matches.selectors import league_standings
from notifications.models import Notification
from teams.models import LedgerEntry
from tests.factories import UserFactory
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db

#: When the result was entered, and the match's deadline.
T0 = datetime(2026, 12, 10, 20, 0, tzinfo=UTC)


def house_rules(league, **overrides):
    league.house_rules_overrides = {**league.house_rules_overrides, **overrides}
    league.save(update_fields=["house_rules_overrides"])


def schedule(commissioner, league, home, away, *, deadline=T0) -> int:
    match = services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    Match.objects.filter(pk=match.pk).update(deadline=deadline)
    return match.pk


def body(home, away) -> dict:
    scorer = home.players.order_by("number").first()
    return {
        "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 0}],
        "players": [{"player": scorer.pk, "touchdowns": 1}],
    }


def submit(match_id, user, home, away, *, at=T0) -> int:
    services.match_submit_result(user=user, match_id=match_id, body=body(home, away))
    Match.objects.filter(pk=match_id).update(submitted_at=at)
    return match_id


@pytest.fixture
def scheduled(commissioner, league, home, away) -> int:
    return schedule(commissioner, league, home, away)


@pytest.fixture
def submitted(scheduled, coach, home, away) -> int:
    return submit(scheduled, coach, home, away)


@pytest.fixture
def pair(league):
    """Two more teams, carol's and dave's, for a match of the same kind done by hand beside the clock's."""
    carol, dave = UserFactory(username="carol"), UserFactory(username="dave")
    return full_team(league, carol, "Third"), full_team(league, dave, "Fourth")


def told(kind: str) -> list[str]:
    return sorted(Notification.objects.filter(kind=kind).values_list("user__username", flat=True))


def clock_entries(action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action, actor__isnull=True, reason="league clock"))


def acted(now) -> dict:
    done = clock_tick(now)
    return {key: done[key] for key in ("confirmed", "forfeited", "announced")}


# --- auto-confirm ------------------------------------------------------------------------------------------


def test_a_result_left_unanswered_is_confirmed_after_the_leagues_hours_and_not_before(league, submitted):
    house_rules(league, auto_confirm_hours=48)

    assert acted(T0 + timedelta(hours=47, minutes=59))["confirmed"] == 0
    assert Match.objects.get(pk=submitted).status == "submitted"

    assert acted(T0 + timedelta(hours=48))["confirmed"] == 1
    match = Match.objects.get(pk=submitted)
    assert (match.status, match.confirmed_by) == ("final", None)
    [entry] = clock_entries("confirmation")
    assert entry.target == f"match {submitted}" and entry.after["auto_confirm_hours"] == 48
    assert told("result_confirmed") == ["alice", "bob", "commish"]  # both coaches and the commissioner


def test_a_clock_confirmation_is_a_confirmation_table_sequences_and_ledger_as_the_commissioners(
    league, commissioner, home, away, submitted, pair
):
    """The same result confirmed by the clock for one pair of teams and by the commissioner for another: the
    same lines, player rows, post-match sequences and ledger."""
    third, fourth = pair
    by_hand = submit(schedule(commissioner, league, third, fourth), third.coach, third, fourth)
    house_rules(league, auto_confirm_hours=24)
    Match.objects.filter(pk=by_hand).update(submitted_at=T0 + timedelta(hours=12))  # not due for the clock

    assert acted(T0 + timedelta(hours=24))["confirmed"] == 1
    services.match_confirm(user=commissioner, match_id=by_hand)

    def shape(match_id, first, second):
        order = {first.pk: 0, second.pk: 1}
        lines = sorted(
            MatchTeam.objects.filter(match_id=match_id).values("team_id", "outcome", "score", "league_points"),
            key=lambda line: order[line["team_id"]],
        )
        return {
            "lines": [{k: v for k, v in line.items() if k != "team_id"} for line in lines],
            "player_rows": PlayerMatch.objects.filter(match_id=match_id).count(),
            "sequences": Aftermath.objects.filter(match_id=match_id, complete=False).count(),
            "ledger": sorted(
                (order[e.team_id], e.kind, e.amount) for e in LedgerEntry.objects.filter(team__in=[first, second])
            ),
        }

    assert shape(submitted, home, away) == shape(by_hand, third, fourth)
    assert shape(submitted, home, away)["sequences"] == 2


def test_without_the_house_rule_a_result_waits_for_ever(submitted):
    assert acted(T0 + timedelta(days=400))["confirmed"] == 0
    assert Match.objects.get(pk=submitted).status == "submitted"


def test_a_disputed_or_rejected_result_is_not_confirmed_by_the_clock(league, commissioner, other_coach, submitted):
    house_rules(league, auto_confirm_hours=1)
    disputes.match_dispute(user=other_coach, match_id=submitted, reason="The touchdown came too late.")
    assert acted(T0 + timedelta(days=3))["confirmed"] == 0
    assert Match.objects.get(pk=submitted).status == "disputed"
    services.match_reject(user=commissioner, match_id=submitted)
    assert acted(T0 + timedelta(days=3))["confirmed"] == 0
    assert Match.objects.get(pk=submitted).status == "scheduled"


def test_a_result_entered_again_counts_its_hours_from_the_new_entry(league, coach, home, away, submitted):
    house_rules(league, auto_confirm_hours=10)
    submit(submitted, coach, home, away, at=T0 + timedelta(hours=8))
    assert acted(T0 + timedelta(hours=12))["confirmed"] == 0
    assert acted(T0 + timedelta(hours=18))["confirmed"] == 1


def test_the_clock_run_twice_confirms_once_one_audit_entry_one_ledger_effect(league, submitted):
    house_rules(league, auto_confirm_hours=2)
    moment = T0 + timedelta(hours=3)
    assert acted(moment)["confirmed"] == 1
    after_one = (LedgerEntry.objects.count(), PlayerMatch.objects.count(), Aftermath.objects.count())
    assert acted(moment)["confirmed"] == 0
    assert acted(moment + timedelta(hours=5))["confirmed"] == 0
    assert (LedgerEntry.objects.count(), PlayerMatch.objects.count(), Aftermath.objects.count()) == after_one
    assert len(clock_entries("confirmation")) == 1
    assert told("result_confirmed") == ["alice", "bob", "commish"]


def test_the_clock_asks_the_house_rules_again_under_the_lock(league, submitted):
    """A match read as due whose result was answered since: the act reads the row again, locked, and does
    nothing (what makes a second tick, or worker, harmless)."""
    house_rules(league, auto_confirm_hours=2)
    Match.objects.filter(pk=submitted).update(submitted_at=T0 + timedelta(hours=2))  # entered again meanwhile
    assert clock_acts.clock_confirm(match_id=submitted, now=T0 + timedelta(hours=3)) is False
    assert Match.objects.get(pk=submitted).status == "submitted" and not clock_entries("confirmation")


def test_a_result_the_rosters_no_longer_allow_is_left_to_the_commissioner(league, home, submitted, caplog):
    house_rules(league, auto_confirm_hours=2)
    home.players.order_by("number").first().delete()  # the scorer is gone: the result no longer validates
    assert acted(T0 + timedelta(hours=3))["confirmed"] == 0
    assert Match.objects.get(pk=submitted).status == "submitted"
    assert "not confirmed" in caplog.text and not told("result_confirmed")


# --- double forfeit ----------------------------------------------------------------------------------------


def test_a_match_unplayed_after_the_grace_is_lost_by_both_teams_and_not_before(league, home, away, scheduled):
    house_rules(league, on_deadline="double_forfeit", deadline_grace_hours=24)

    assert acted(T0 + timedelta(hours=24))["forfeited"] == 0
    assert Match.objects.get(pk=scheduled).status == "scheduled"

    assert acted(T0 + timedelta(hours=24, minutes=5))["forfeited"] == 1
    match = Match.objects.get(pk=scheduled)
    assert match.status == "final" and match.result["forfeit"] == {
        "team": None,
        "teams": [home.pk, away.pk],
        "reason": "league clock",
    }
    loss = league.rules.league_points(outcome="loss", kind="league", hr=league.house_rules, event="", placing=None)
    assert set(MatchTeam.objects.filter(match=match).values_list("outcome", "league_points")) == {("loss", loss)}
    assert not Aftermath.objects.filter(match=match).exists()  # no post-match sequence
    [entry] = clock_entries("forfeit")
    assert entry.after == {"status": "final", "losers": [home.pk, away.pk]}
    assert told("deadline_passed") == ["alice", "bob", "commish"]


def test_with_no_grace_the_forfeit_comes_at_the_first_tick_after_the_deadline(league, scheduled):
    house_rules(league, on_deadline="double_forfeit")
    assert acted(T0)["forfeited"] == 0
    assert acted(T0 + timedelta(minutes=10))["forfeited"] == 1


def test_a_submitted_result_is_never_forfeited(league, submitted):
    house_rules(league, on_deadline="double_forfeit")
    assert acted(T0 + timedelta(days=5))["forfeited"] == 0
    assert Match.objects.get(pk=submitted).status == "submitted"


def test_the_table_and_ledger_after_a_clock_forfeit_are_a_commissioners_forfeits(
    league, commissioner, home, away, scheduled, pair
):
    """Each team that loses by the clock's forfeit stands in the table as the team at fault of a commissioner's
    forfeit does; neither forfeit touches the ledger."""
    third, fourth = pair
    by_hand = schedule(commissioner, league, third, fourth, deadline=T0 + timedelta(days=30))
    house_rules(league, on_deadline="double_forfeit")
    ledger = LedgerEntry.objects.count()

    assert acted(T0 + timedelta(hours=1))["forfeited"] == 1
    disputes.match_forfeit(user=commissioner, match_id=by_hand, team_id=third.pk, reason="No show.")

    league.refresh_from_db()
    rows = {row["team"]: row for row in league_standings(league=league)}
    columns = ["played", "won", "drawn", "lost", "points", "scored", "conceded", "casualties_inflicted"]
    at_fault = {key: rows[third.pk][key] for key in columns}
    assert at_fault["played"] == at_fault["lost"] == 1
    for team in (home, away):
        assert {key: rows[team.pk][key] for key in columns} == at_fault
    assert rows[fourth.pk]["won"] == 1
    assert LedgerEntry.objects.count() == ledger


def test_the_forfeit_happens_once_however_often_the_clock_runs(league, scheduled):
    house_rules(league, on_deadline="double_forfeit")
    moment = T0 + timedelta(hours=1)
    assert [acted(moment)["forfeited"] for _ in range(3)] == [1, 0, 0]
    assert len(clock_entries("forfeit")) == 1
    assert told("deadline_passed") == ["alice", "bob", "commish"]


# --- queue mode --------------------------------------------------------------------------------------------


def test_in_queue_mode_the_match_waits_and_the_commissioners_are_told_once(league, scheduled):
    assert acted(T0 - timedelta(minutes=5)) == {"confirmed": 0, "forfeited": 0, "announced": 0}
    assert acted(T0 + timedelta(minutes=5)) == {"confirmed": 0, "forfeited": 0, "announced": 1}
    assert acted(T0 + timedelta(hours=3)) == {"confirmed": 0, "forfeited": 0, "announced": 0}
    assert Match.objects.get(pk=scheduled).status == "scheduled"
    assert told("deadline_passed") == ["commish"]
    assert not AuditEntry.objects.filter(actor__isnull=True).exists()  # the clock changed nothing


def test_a_deadline_moved_and_passed_again_is_told_again(league, commissioner, coach, scheduled):
    acted(T0 + timedelta(minutes=5))
    extensions.extension_request(user=coach, match_id=scheduled, until=T0 + timedelta(days=1), reason="Flu.")
    extensions.extension_approve(user=commissioner, match_id=scheduled)
    assert acted(T0 + timedelta(hours=2))["announced"] == 0
    assert acted(T0 + timedelta(days=1, minutes=5))["announced"] == 1
    assert told("deadline_passed") == ["commish", "commish"]


def test_a_deadline_long_past_is_in_the_queue_already_and_not_announced(league, scheduled):
    assert acted(T0 + clock_acts.ANNOUNCE_WINDOW + timedelta(minutes=1))["announced"] == 0


# --- extensions and the clock ------------------------------------------------------------------------------


def test_an_approved_extension_moves_the_deadline_so_no_forfeit_at_the_old_one(league, commissioner, coach, scheduled):
    house_rules(league, on_deadline="double_forfeit", deadline_grace_hours=2)
    extensions.extension_request(user=coach, match_id=scheduled, until=T0 + timedelta(days=2), reason="Exams.")
    extensions.extension_approve(user=commissioner, match_id=scheduled)

    assert acted(T0 + timedelta(hours=3))["forfeited"] == 0
    assert Match.objects.get(pk=scheduled).status == "scheduled"
    assert acted(T0 + timedelta(days=2, hours=2, minutes=5))["forfeited"] == 1


def test_a_waiting_request_for_more_time_holds_the_forfeit_until_it_is_refused(league, commissioner, coach, scheduled):
    house_rules(league, on_deadline="double_forfeit")
    extensions.extension_request(user=coach, match_id=scheduled, until=T0 + timedelta(days=2), reason="Exams.")
    assert acted(T0 + timedelta(hours=1))["forfeited"] == 0
    extensions.extension_refuse(user=commissioner, match_id=scheduled, reason="The season must end.")
    assert acted(T0 + timedelta(hours=1, minutes=10))["forfeited"] == 1
