"""Result disputes and forfeits through the API (issue 13; contract: api-v1 "Result disputes and the
commissioner's queue"): a coach who did not enter a result disputes it with a reason; the commissioner confirms
it as is, corrects it or rejects it, each ruling in the audit; a forfeit is a final loss with no post-match
sequence, counted in the table as a loss and a win."""

from __future__ import annotations

import pytest

from league.models import AuditEntry
from matches.models import Aftermath, Dispute, Match, PlayerMatch
from tests.assertions import assert_refused

pytestmark = pytest.mark.django_db

MATCHES = "/api/v1/matches/"


@pytest.fixture
def submitted(api_as, league, home, away, coach):
    """A match alice scheduled and entered: her team won 1–0."""
    client = api_as(coach)
    match_id = client.post(MATCHES, {"league": league.pk, "teams": [home.pk, away.pk]}, format="json").json()["id"]
    scorer = home.players.order_by("number").first()
    body = {
        "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 0}],
        "players": [{"player": scorer.pk, "touchdowns": 1}],
    }
    assert client.post(f"{MATCHES}{match_id}/result/", body, format="json").status_code == 201
    return match_id


def _dispute(api_as, user, match_id, reason="The touchdown came after the final turn."):
    return api_as(user).post(f"{MATCHES}{match_id}/dispute/", {"reason": reason}, format="json")


def test_the_other_coach_disputes_with_a_reason_and_the_match_waits_for_the_commissioner(
    api_as, submitted, other_coach
):
    response = _dispute(api_as, other_coach, submitted)

    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "disputed"
    dispute = Dispute.objects.get(match_id=submitted)
    assert (dispute.raised_by, dispute.reason, dispute.ruling) == (
        other_coach,
        "The touchdown came after the final turn.",
        "",
    )


@pytest.mark.parametrize("reason", ["", "   ", None, 5, "x" * 2001])
def test_a_dispute_without_a_reason_in_words_is_refused_and_changes_nothing(api_as, submitted, other_coach, reason):
    response = api_as(other_coach).post(f"{MATCHES}{submitted}/dispute/", {"reason": reason}, format="json")

    assert_refused(response, 400, "reason")
    assert Match.objects.get(pk=submitted).status == "submitted"
    assert not Dispute.objects.exists()


def test_only_a_coach_who_did_not_enter_the_result_may_dispute_it(api_as, submitted, coach, stranger, commissioner):
    assert_refused(_dispute(api_as, coach, submitted), 403)  # he entered it
    assert_refused(_dispute(api_as, stranger, submitted), 403)
    assert_refused(_dispute(api_as, commissioner, submitted), 403)  # he rules; he does not dispute
    assert Match.objects.get(pk=submitted).status == "submitted"


def test_the_disputing_coach_cannot_then_confirm_it_himself_only_the_commissioner_can(
    api_as, submitted, other_coach, commissioner
):
    _dispute(api_as, other_coach, submitted)

    assert_refused(api_as(other_coach).post(f"{MATCHES}{submitted}/confirm/"), 403)
    response = api_as(commissioner).post(f"{MATCHES}{submitted}/confirm/")

    assert response.status_code == 200, response.json()
    assert Dispute.objects.get(match_id=submitted).ruling == "confirmed"


def test_the_commissioner_confirms_a_disputed_result_as_is_and_the_audit_says_why(
    api_as, submitted, other_coach, commissioner
):
    _dispute(api_as, other_coach, submitted)

    response = api_as(commissioner).post(
        f"{MATCHES}{submitted}/ruling/", {"ruling": "confirm", "reason": "The referee saw it."}, format="json"
    )

    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "final"
    dispute = Dispute.objects.get(match_id=submitted)
    assert (dispute.ruling, dispute.ruled_by) == ("confirmed", commissioner)
    assert dispute.ruling_reason == "The referee saw it."
    entry = AuditEntry.objects.get(action="dispute_ruling")
    assert (entry.actor, entry.target, entry.reason) == (commissioner, f"match {submitted}", "The referee saw it.")
    assert entry.after["ruling"] == "confirm"
    assert Aftermath.objects.filter(match_id=submitted).count() == 2  # the post-match sequences open as usual


def test_the_commissioner_corrects_a_disputed_result_and_the_corrected_one_is_final(
    api_as, submitted, other_coach, commissioner, home, away
):
    _dispute(api_as, other_coach, submitted)
    corrected = {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}], "players": []}

    response = api_as(commissioner).post(
        f"{MATCHES}{submitted}/ruling/",
        {"ruling": "correct", "reason": "No touchdown: the turn had ended.", "result": corrected},
        format="json",
    )

    assert response.status_code == 200, response.json()
    match = Match.objects.get(pk=submitted)
    assert match.status == "final"
    assert [s.score for s in match.sides.order_by("order")] == [0, 0]
    assert [s.outcome for s in match.sides.order_by("order")] == ["draw", "draw"]
    assert not PlayerMatch.objects.filter(match=match, touchdowns__gt=0).exists()
    assert Dispute.objects.get(match=match).ruling == "corrected"
    entry = AuditEntry.objects.get(action="dispute_ruling")
    assert entry.before["result"]["teams"][0]["score"] == 1 and entry.after["result"]["teams"][0]["score"] == 0


def test_a_correction_needs_the_corrected_result(api_as, submitted, other_coach, commissioner):
    _dispute(api_as, other_coach, submitted)

    response = api_as(commissioner).post(
        f"{MATCHES}{submitted}/ruling/", {"ruling": "correct", "reason": "Wrong score."}, format="json"
    )

    assert_refused(response, 400, "result")
    assert Match.objects.get(pk=submitted).status == "disputed"


def test_the_commissioner_rejects_a_disputed_result_and_the_match_is_to_be_played_again(
    api_as, submitted, other_coach, commissioner
):
    _dispute(api_as, other_coach, submitted)

    response = api_as(commissioner).post(
        f"{MATCHES}{submitted}/ruling/", {"ruling": "reject", "reason": "Replay it."}, format="json"
    )

    assert response.status_code == 200, response.json()
    assert Match.objects.get(pk=submitted).status == "scheduled"
    assert Dispute.objects.get(match_id=submitted).ruling == "rejected"
    assert set(AuditEntry.objects.values_list("action", flat=True)) == {"rejection", "dispute_ruling"}


def test_a_ruling_is_the_commissioners_and_only_on_a_disputed_result(api_as, submitted, other_coach, coach):
    body = {"ruling": "confirm", "reason": "Fine."}
    refused = api_as(coach).post(f"{MATCHES}{submitted}/ruling/", body, format="json")
    assert_refused(refused, (400, 403))  # not disputed yet (and not his to rule on)
    _dispute(api_as, other_coach, submitted)
    assert_refused(api_as(coach).post(f"{MATCHES}{submitted}/ruling/", body, format="json"), 403)
    assert_refused(
        api_as(other_coach).post(f"{MATCHES}{submitted}/ruling/", {"ruling": "annul", "reason": "x"}, format="json"),
        400,
        "ruling",
    )
    assert Match.objects.get(pk=submitted).status == "disputed"


def test_a_coach_answers_a_dispute_with_a_new_result_and_the_dispute_is_closed_as_replaced(
    api_as, submitted, other_coach, coach, home, away
):
    _dispute(api_as, other_coach, submitted)
    body = {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}], "players": []}

    response = api_as(coach).post(f"{MATCHES}{submitted}/result/", body, format="json")

    assert response.status_code == 201, response.json()
    assert Match.objects.get(pk=submitted).status == "submitted"
    assert Dispute.objects.get(match_id=submitted).ruling == "replaced"
    assert api_as(other_coach).post(f"{MATCHES}{submitted}/confirm/").status_code == 200


def test_a_forfeit_is_final_as_a_loss_and_a_win_with_no_post_match_sequence_and_counts_in_the_table(
    api_as, league, home, away, coach, commissioner
):
    """api-v1: "the match is final as a loss by forfeit for `team` (no post-match sequence for either team; league
    points as a loss and a win)"."""
    match_id = (
        api_as(coach).post(MATCHES, {"league": league.pk, "teams": [home.pk, away.pk]}, format="json").json()["id"]
    )

    response = api_as(commissioner).post(
        f"{MATCHES}{match_id}/forfeit/",
        {"team": away.pk, "reason": "Away did not play by the deadline."},
        format="json",
    )

    assert response.status_code == 200, response.json()
    match = Match.objects.get(pk=match_id)
    assert match.status == "final"
    assert {s.team_id: s.outcome for s in match.sides.all()} == {home.pk: "win", away.pk: "loss"}
    assert not Aftermath.objects.filter(match=match).exists()
    table = {row["team"]: row for row in api_as(None).get(f"/api/v1/leagues/{league.pk}/standings/").json()["rows"]}
    assert (table[home.pk]["won"], table[away.pk]["lost"]) == (1, 1)
    assert table[home.pk]["points"] > table[away.pk]["points"]
    entry = AuditEntry.objects.get(action="forfeit")
    assert (entry.actor, entry.after["loser"], entry.reason) == (
        commissioner,
        away.pk,
        "Away did not play by the deadline.",
    )


def test_a_forfeit_is_the_commissioners_names_a_team_of_the_match_and_only_for_a_match_to_be_played(
    api_as, league, home, away, coach, commissioner, submitted
):
    match_id = (
        api_as(coach).post(MATCHES, {"league": league.pk, "teams": [home.pk, away.pk]}, format="json").json()["id"]
    )
    body = {"team": away.pk, "reason": "No show."}

    assert_refused(api_as(coach).post(f"{MATCHES}{match_id}/forfeit/", body, format="json"), 403)
    assert_refused(
        api_as(commissioner).post(f"{MATCHES}{match_id}/forfeit/", {"team": 999999, "reason": "x"}, format="json"),
        400,
        "team",
    )
    assert_refused(
        api_as(commissioner).post(f"{MATCHES}{match_id}/forfeit/", {"team": away.pk}, format="json"), 400, "reason"
    )
    assert_refused(api_as(commissioner).post(f"{MATCHES}{submitted}/forfeit/", body, format="json"), 400)
    assert Match.objects.get(pk=match_id).status == "scheduled"
    assert not AuditEntry.objects.filter(action="forfeit").exists()
