"""Requests for more time (contract v1.2 "Deadlines that act"): a coach of a match not yet final asks for a later
deadline (201; 400 for a date not after the deadline, or a match without one; 403 for anyone else; 409 while
another waits); the commissioner approves (the deadline moves, audited) or refuses (200; 409 once decided). The
commissioner's queue lists the waiting requests (kind `extension`) with their buttons, and the match page asks
for one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from league.models import AuditEntry
from matches import services
from matches.models import Extension, Match
from notifications.models import Notification
from tests.assertions import assert_refused

pytestmark = pytest.mark.django_db

DEADLINE = datetime(2026, 12, 10, 20, 0, tzinfo=UTC)
LATER = (DEADLINE + timedelta(days=3)).isoformat()


@pytest.fixture
def match_id(league, commissioner, home, away) -> int:
    match = services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    Match.objects.filter(pk=match.pk).update(deadline=DEADLINE)
    return match.pk


def ask(client, match_id, until=LATER, reason="Exams all week."):
    return client.post(f"/api/v1/matches/{match_id}/extension/", {"until": until, "reason": reason}, format="json")


def decide(client, match_id, how, reason=None):
    data = {} if reason is None else {"reason": reason}
    return client.post(f"/api/v1/matches/{match_id}/extension/{how}/", data, format="json")


def told(kind):
    return sorted(Notification.objects.filter(kind=kind).values_list("user__username", flat=True))


def test_a_coach_asks_for_more_time_and_the_commissioners_are_told(api_as, coach, match_id):
    response = ask(api_as(coach), match_id)

    assert response.status_code == 201, response.json()
    body = response.json()
    assert {k: body[k] for k in ("match", "reason", "state", "requested_by")} == {
        "match": match_id,
        "reason": "Exams all week.",
        "state": "pending",
        "requested_by": coach.pk,
    }
    assert datetime.fromisoformat(body["until"].replace("Z", "+00:00")) == DEADLINE + timedelta(days=3)
    assert Extension.objects.get(pk=body["id"]).state == "pending"
    assert Match.objects.get(pk=match_id).deadline == DEADLINE  # nothing moves until the commissioner says so
    assert told("extension_requested") == ["commish"]


@pytest.mark.parametrize(
    ("until", "field"),
    [
        (DEADLINE.isoformat(), "until"),
        ((DEADLINE - timedelta(hours=1)).isoformat(), "until"),
        ("next week", "until"),
        (None, "until"),
    ],
)
def test_a_date_not_after_the_deadline_is_refused_and_nothing_is_asked(api_as, coach, match_id, until, field):
    assert_refused(ask(api_as(coach), match_id, until=until), 400, field)
    assert not Extension.objects.exists() and not told("extension_requested")


@pytest.mark.parametrize("reason", ["", "   ", 5, "x" * 2001])
def test_a_request_without_a_reason_in_words_is_refused(api_as, coach, match_id, reason):
    assert_refused(ask(api_as(coach), match_id, reason=reason), 400, "reason")
    assert not Extension.objects.exists()


def test_a_match_without_a_deadline_has_none_to_move(api_as, coach, match_id):
    Match.objects.filter(pk=match_id).update(deadline=None)
    assert_refused(ask(api_as(coach), match_id), 400, "until")


def test_only_a_coach_of_the_match_asks(api_as, api, commissioner, stranger, match_id):
    assert_refused(ask(api_as(stranger), match_id), 403)
    assert_refused(ask(api_as(commissioner), match_id), 403)  # he moves deadlines himself; he is not asked
    assert ask(api, match_id).status_code in (401, 403)
    assert ask(api_as(stranger), 999_999).status_code == 404
    assert not Extension.objects.exists()


def test_a_second_request_while_one_waits_is_a_conflict(api_as, coach, other_coach, match_id):
    assert ask(api_as(coach), match_id).status_code == 201
    assert_refused(ask(api_as(other_coach), match_id), 409)
    assert Extension.objects.count() == 1


def test_a_final_match_takes_no_request(api_as, commissioner, coach, match_id, away):
    from matches import disputes

    disputes.match_forfeit(user=commissioner, match_id=match_id, team_id=away.pk, reason="No show.")
    assert_refused(ask(api_as(coach), match_id), 400)


def test_approving_moves_the_deadline_audited_and_tells_both_coaches(api_as, commissioner, coach, match_id):
    ask(api_as(coach), match_id)
    response = decide(api_as(commissioner), match_id, "approve", "Fair enough.")

    assert response.status_code == 200, response.json()
    assert (response.json()["state"], response.json()["decision_reason"]) == ("approved", "Fair enough.")
    assert Match.objects.get(pk=match_id).deadline == DEADLINE + timedelta(days=3)
    entry = AuditEntry.objects.get(action="extension")
    assert (entry.actor, entry.target, entry.reason) == (commissioner, f"match {match_id}", "Fair enough.")
    assert entry.before == {"deadline": DEADLINE.isoformat()}
    assert entry.after == {"state": "approved", "deadline": (DEADLINE + timedelta(days=3)).isoformat()}
    assert told("extension_decided") == ["alice", "bob"]


def test_refusing_keeps_the_deadline_and_tells_the_coach_who_asked(api_as, commissioner, coach, match_id):
    ask(api_as(coach), match_id)
    response = decide(api_as(commissioner), match_id, "refuse")

    assert response.status_code == 200 and response.json()["state"] == "refused"
    assert Match.objects.get(pk=match_id).deadline == DEADLINE
    assert AuditEntry.objects.get(action="extension").after["state"] == "refused"
    assert told("extension_decided") == ["alice"]


def test_only_the_commissioner_decides_and_once(api_as, commissioner, coach, other_coach, match_id):
    ask(api_as(coach), match_id)
    for user in (coach, other_coach):
        assert_refused(decide(api_as(user), match_id, "approve"), 403)
    assert Extension.objects.get().state == "pending"

    assert decide(api_as(commissioner), match_id, "refuse").status_code == 200
    assert_refused(decide(api_as(commissioner), match_id, "approve"), 409)
    assert_refused(decide(api_as(commissioner), match_id, "refuse"), 409)
    assert Match.objects.get(pk=match_id).deadline == DEADLINE
    assert AuditEntry.objects.filter(action="extension").count() == 1
    # Decided, a new request may be made.
    assert ask(api_as(coach), match_id).status_code == 201


def test_nothing_to_decide_is_a_conflict(api_as, commissioner, match_id):
    assert_refused(decide(api_as(commissioner), match_id, "approve"), 409)


def test_a_decision_reason_must_be_text(api_as, commissioner, coach, match_id):
    ask(api_as(coach), match_id)
    assert_refused(decide(api_as(commissioner), match_id, "approve", 12), 400, "reason")
    assert Extension.objects.get().state == "pending"


# --- the queue ---------------------------------------------------------------------------------------------


def test_the_queue_lists_a_waiting_request_and_drops_it_once_decided(api_as, commissioner, coach, match_id):
    ask(api_as(coach), match_id)
    client = api_as(commissioner)
    items = [i for i in client.get(f"/api/v1/leagues/{Match.objects.get(pk=match_id).league_id}/queue/").json()]
    [item] = [i for i in items if i["kind"] == "extension"]
    assert item["match"] == match_id and item["extension"] == Extension.objects.get().pk
    assert "alice asks for more time" in item["detail"] and "Exams all week." in item["detail"]
    decide(client, match_id, "approve")
    league_id = Match.objects.get(pk=match_id).league_id
    assert not [i for i in client.get(f"/api/v1/leagues/{league_id}/queue/").json() if i["kind"] == "extension"]


def test_the_desk_approves_and_refuses_from_the_queue(client, api_as, league, commissioner, coach, match_id):
    ask(api_as(coach), match_id)
    client.force_login(commissioner)
    html = client.get(reverse("desk-queue", args=[league.pk])).content.decode()
    assert 'data-kind="extension"' in html
    assert reverse("desk-queue-approve-extension", args=[league.pk]) in html
    assert reverse("desk-queue-refuse-extension", args=[league.pk]) in html

    response = client.post(
        reverse("desk-queue-approve-extension", args=[league.pk]), {"match": match_id}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert Match.objects.get(pk=match_id).deadline == DEADLINE + timedelta(days=3)
    assert 'data-kind="extension"' not in response.content.decode()

    response = client.post(
        reverse("desk-queue-refuse-extension", args=[league.pk]), {"match": match_id}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 409  # decided already: said in words, nothing changed


# --- the match page ----------------------------------------------------------------------------------------


def test_the_match_page_loads_the_panel_and_a_coach_asks_there(client, league, coach, match_id):
    url = reverse("match-extension", args=[match_id])
    assert f'hx-get="{url}"' in client.get(reverse("match-detail", args=[match_id])).content.decode()

    client.force_login(coach)
    panel = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="extension-until"' in panel and 'id="extension-reason"' in panel

    response = client.post(url, {"until": "2026-12-14T18:00", "reason": "Away at a wedding."}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    extension = Extension.objects.get()
    assert extension.until.astimezone(UTC) == datetime(2026, 12, 14, 18, 0, tzinfo=UTC)  # the league's zone: UTC
    assert 'id="pending-extension"' in response.content.decode() and "Away at a wedding." in response.content.decode()


def test_a_refused_request_on_the_page_says_why_and_keeps_the_form(client, coach, match_id):
    client.force_login(coach)
    url = reverse("match-extension", args=[match_id])
    response = client.post(url, {"until": "2026-12-01T18:00", "reason": "Too late."}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode() and 'value="Too late."' in response.content.decode()
    assert not Extension.objects.exists()


def test_a_visitor_sees_no_form(client, match_id):
    panel = client.get(reverse("match-extension", args=[match_id]), HTTP_HX_REQUEST="true").content.decode()
    assert "extension-until" not in panel
