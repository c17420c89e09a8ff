"""Every match event tells its recipients (contract v1.2 "Notifications"), from the real event, through the API
and through the service: exactly one notification per recipient, none to the user who acted, none when the event
is refused; the recipient's choices decide the e-mail. Kinds: result_submitted, result_confirmed,
result_rejected, result_disputed, dispute_ruled, time_proposed, time_agreed, deadline_soon."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from campaigns.errors import NotPermitted
from dugout.tasks import league_clock_tick
from matches import disputes, services, times
from matches.models import Match, TimeProposal
from notifications.models import Notification, NotificationSettings
from tests.assertions import assert_refused
from tests.notifications.conftest import emailed, the, told

pytestmark = pytest.mark.django_db

MATCHES = "/api/v1/matches/"


@pytest.fixture
def match(league, commissioner, home, away):
    return services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])


def result(home, away) -> dict:
    scorer = home.players.order_by("number").first()
    return {
        "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 0}],
        "players": [{"player": scorer.pk, "touchdowns": 1}],
    }


@pytest.fixture
def submitted(api_as, match, home, away, coach):
    """alice entered the result (her Home won 1–0); bob was told."""
    response = api_as(coach).post(f"{MATCHES}{match.pk}/result/", result(home, away), format="json")
    assert response.status_code == 201, response.json()
    return match


@pytest.fixture
def disputed(api_as, submitted, other_coach):
    response = api_as(other_coach).post(f"{MATCHES}{submitted.pk}/dispute/", {"reason": "Late."}, format="json")
    assert response.status_code == 200, response.json()
    return submitted


# --- results -------------------------------------------------------------------------------------------------


def test_a_result_entered_through_the_api_tells_the_other_coach_once_and_not_the_one_who_entered_it(
    submitted, away, league
):
    assert told() == ["bob"]
    note = the("result_submitted", "bob")
    assert note.text == "Gil Cup: alice entered the result of Home v Away: confirm it or dispute it."
    assert (note.league, note.match, note.team, note.url) == (league, submitted, away, f"/matches/{submitted.pk}/")
    assert note.read_at is None


def test_a_result_the_commissioner_enters_through_the_service_tells_both_coaches(match, home, away, commissioner):
    services.match_submit_result(user=commissioner, match_id=match.pk, body=result(home, away))
    assert told("result_submitted") == ["alice", "bob"]
    assert {n.team_id for n in Notification.objects.all()} == {None}  # two sides told: no one team
    assert "commish entered the result of Home v Away" in the("result_submitted", "alice").text


def test_a_refused_result_tells_nobody(api_as, match, home, away, stranger, coach):
    assert_refused(api_as(stranger).post(f"{MATCHES}{match.pk}/result/", result(home, away), format="json"), 403)
    bad = {"teams": [{"team": home.pk, "score": -1}, {"team": away.pk, "score": 0}], "players": []}
    assert_refused(api_as(coach).post(f"{MATCHES}{match.pk}/result/", bad, format="json"), 400, "teams[0].score")
    assert not Notification.objects.exists()


def test_a_coach_who_turned_the_mail_off_gets_the_notification_and_no_mail(
    api_as, match, home, away, coach, other_coach
):
    NotificationSettings.objects.create(user=other_coach, kinds={"result_submitted": {"email": False}})
    api_as(coach).post(f"{MATCHES}{match.pk}/result/", result(home, away), format="json")
    assert told("result_submitted") == ["bob"] and emailed("result_submitted") == []
    # alice kept the default: her notification of the confirmation is mailed.
    api_as(other_coach).post(f"{MATCHES}{match.pk}/confirm/")
    assert told("result_confirmed") == ["alice"] and emailed("result_confirmed") == ["alice"]


def test_the_confirmation_through_the_api_tells_the_coach_who_entered_it_not_the_one_who_confirmed(
    api_as, submitted, other_coach, home
):
    response = api_as(other_coach).post(f"{MATCHES}{submitted.pk}/confirm/")
    assert response.status_code == 200, response.json()
    assert told("result_confirmed") == ["alice"]
    note = the("result_confirmed", "alice")
    assert note.text == "Gil Cup: bob confirmed the result of Home v Away: it is final."
    assert (note.team, note.url) == (home, f"/matches/{submitted.pk}/")


def test_the_commissioners_confirmation_through_the_service_tells_both_coaches(submitted, commissioner):
    services.match_confirm(user=commissioner, match_id=submitted.pk)
    assert told("result_confirmed") == ["alice", "bob"]


def test_a_refused_confirmation_tells_nobody(api_as, submitted, coach, stranger):
    assert_refused(api_as(coach).post(f"{MATCHES}{submitted.pk}/confirm/"), 403)  # she entered it
    assert_refused(api_as(stranger).post(f"{MATCHES}{submitted.pk}/confirm/"), 403)
    assert told() == ["bob"]  # the submission's, nothing more


def test_a_rejection_through_the_api_tells_both_coaches(api_as, submitted, commissioner):
    response = api_as(commissioner).post(f"{MATCHES}{submitted.pk}/reject/", {"reason": "Wrong teams."}, format="json")
    assert response.status_code == 200, response.json()
    assert told("result_rejected") == ["alice", "bob"]
    assert the("result_rejected", "bob").text == (
        "Gil Cup: commish rejected the result of Home v Away: the match is to be played again."
    )


def test_a_rejection_through_the_service_by_a_commissioner_who_coaches_tells_the_other_coach_only(
    submitted, coach, league
):
    from league.models import Membership

    Membership.objects.create(league=league, user=coach, role=Membership.Role.COMMISSIONER)
    services.match_reject(user=coach, match_id=submitted.pk)
    assert told("result_rejected") == ["bob"]


def test_a_refused_rejection_tells_nobody(api_as, submitted, other_coach):
    assert_refused(api_as(other_coach).post(f"{MATCHES}{submitted.pk}/reject/"), 403)
    assert told("result_rejected") == []


# --- disputes ------------------------------------------------------------------------------------------------


def test_a_dispute_through_the_api_tells_every_commissioner_once_on_the_queue(deputy, disputed, league):
    assert told("result_disputed") == ["commish", "deputy"]
    note = the("result_disputed", "deputy")
    assert note.text == "Gil Cup: bob disputed the result of Home v Away: it waits for your ruling."
    assert (note.match, note.url) == (disputed, f"/commissioner/{league.pk}/queue/")


def test_a_dispute_through_the_service_by_a_coach_who_is_also_commissioner_does_not_tell_him(
    submitted, other_coach, league, commissioner
):
    from league.models import Membership

    Membership.objects.create(league=league, user=other_coach, role=Membership.Role.COMMISSIONER)
    disputes.match_dispute(user=other_coach, match_id=submitted.pk, reason="Late.")
    assert told("result_disputed") == ["commish"]


def test_a_refused_dispute_tells_nobody(api_as, deputy, submitted, coach, other_coach):
    assert_refused(api_as(coach).post(f"{MATCHES}{submitted.pk}/dispute/", {"reason": "Mine."}, format="json"), 403)
    assert_refused(
        api_as(other_coach).post(f"{MATCHES}{submitted.pk}/dispute/", {"reason": ""}, format="json"), 400, "reason"
    )
    assert told("result_disputed") == []


@pytest.mark.parametrize(
    ("ruling", "words"),
    [
        ("confirm", "confirmed as entered."),
        ("correct", "corrected, and the corrected result is final."),
        ("reject", "rejected, the match is to be played again."),
    ],
)
def test_a_ruling_through_the_api_tells_both_coaches_once_of_the_ruling_only(
    api_as, disputed, home, away, commissioner, ruling, words
):
    body = {"ruling": ruling, "reason": "The referee saw it."}
    if ruling == "correct":
        body["result"] = {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}], "players": []}
    response = api_as(commissioner).post(f"{MATCHES}{disputed.pk}/ruling/", body, format="json")
    assert response.status_code == 200, response.json()
    assert told("dispute_ruled") == ["alice", "bob"]
    assert the("dispute_ruled", "alice").text == (
        f"Gil Cup: commish ruled on the disputed result of Home v Away: {words}"
    )
    # One event, one line each: the confirmation or rejection the ruling makes tells nobody of its own.
    assert told("result_confirmed") == told("result_rejected") == []


def test_a_ruling_through_the_service_tells_both_coaches(disputed, deputy):
    disputes.match_rule_dispute(user=deputy, match_id=disputed.pk, ruling="confirm", reason="Fine.")
    assert told("dispute_ruled") == ["alice", "bob"]


def test_a_refused_ruling_tells_nobody(api_as, disputed, coach, commissioner):
    body = {"ruling": "confirm", "reason": "Mine."}
    assert_refused(api_as(coach).post(f"{MATCHES}{disputed.pk}/ruling/", body, format="json"), 403)
    assert_refused(
        api_as(commissioner).post(f"{MATCHES}{disputed.pk}/ruling/", {"ruling": "maybe", "reason": "x"}, format="json"),
        400,
        "ruling",
    )
    assert told("dispute_ruled") == []


def test_the_commissioner_confirming_a_disputed_result_tells_both_coaches_it_is_confirmed(
    api_as, disputed, commissioner
):
    response = api_as(commissioner).post(f"{MATCHES}{disputed.pk}/confirm/")
    assert response.status_code == 200, response.json()
    assert told("result_confirmed") == ["alice", "bob"]


# --- match times ---------------------------------------------------------------------------------------------


def soon(days: int = 3) -> datetime:
    return (timezone.now() + timedelta(days=days)).replace(hour=19, minute=30, second=0, microsecond=0)


def test_a_time_proposed_through_the_api_tells_the_opponent_and_its_acceptance_tells_the_proposer(
    api_as, match, coach, other_coach, away, home
):
    at = soon()
    proposed = api_as(coach).post(f"{MATCHES}{match.pk}/times/", {"at": at.isoformat()}, format="json")
    assert proposed.status_code == 201, proposed.json()
    assert told() == ["bob"]
    note = the("time_proposed", "bob")
    when = f"{at.astimezone(UTC):%A} {at.astimezone(UTC).day} {at.astimezone(UTC):%B}, 19:30 (UTC)"
    assert note.text == f"Gil Cup: alice proposes to play Home v Away on {when}: accept it or propose another."
    assert (note.team, note.url) == (away, f"/matches/{match.pk}/")

    accepted = api_as(other_coach).post(f"{MATCHES}{match.pk}/times/{proposed.json()['id']}/accept/")
    assert accepted.status_code == 200, accepted.json()
    assert told("time_agreed") == ["alice"]
    assert the("time_agreed", "alice").text == f"Gil Cup: bob agreed to play Home v Away on {when}."
    assert the("time_agreed", "alice").team == home


def test_times_through_the_services_tell_the_same(match, coach, other_coach):
    proposal = times.match_time_propose(user=other_coach, match_id=match.pk, at=soon())
    times.match_time_accept(user=coach, match_id=match.pk, proposal_id=proposal.pk)
    assert (told("time_proposed"), told("time_agreed")) == (["alice"], ["bob"])


def test_refused_times_tell_nobody(api_as, match, coach, stranger, commissioner):
    assert_refused(api_as(stranger).post(f"{MATCHES}{match.pk}/times/", {"at": soon().isoformat()}, format="json"), 403)
    assert_refused(api_as(coach).post(f"{MATCHES}{match.pk}/times/", {"at": "soon"}, format="json"), 400, "at")
    proposal = times.match_time_propose(user=coach, match_id=match.pk, at=soon())
    with pytest.raises(NotPermitted):
        times.match_time_accept(user=coach, match_id=match.pk, proposal_id=proposal.pk)  # his own
    assert_refused(api_as(commissioner).post(f"{MATCHES}{match.pk}/times/{proposal.pk}/accept/"), 403)
    assert TimeProposal.objects.get().state == TimeProposal.State.OPEN
    assert (told("time_proposed"), told("time_agreed")) == (["bob"], [])


# --- the league clock ----------------------------------------------------------------------------------------


def test_the_clocks_reminder_tells_each_coach_once_as_nobodys_act(match, league):
    Match.objects.filter(pk=match.pk).update(deadline=datetime(2026, 12, 10, 20, 0, tzinfo=UTC))
    for _ in range(2):
        assert league_clock_tick.apply(kwargs={"now": "2026-12-10T08:05:00+00:00"}).get()["due"] == 2
    assert told() == ["alice", "bob"]
    note = the("deadline_soon", "alice")
    assert note.text == (
        "Gil Cup: Home v Away — the result is due today, by Thursday 10 December, 20:00 (UTC). "
        "No time is agreed yet: propose one on the match page."
    )
    assert (note.league, note.match, note.url) == (league, match, f"/matches/{match.pk}/")
    assert emailed("deadline_soon") == ["alice", "bob"]
