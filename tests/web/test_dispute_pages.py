"""Disputes from the match page (issue 13): the other coach disputes a submitted result with a reason instead of
confirming it; the page then shows the dispute, and the commissioner rules on it there with a reason."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import AuditEntry
from matches import services
from matches.models import Dispute, Match
from tests.factories import PASSWORD
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def submitted(league, coach, other_coach):
    home, away = full_team(league, coach, "Home"), full_team(league, other_coach, "Away")
    match = services.match_schedule(user=coach, league=league, team_ids=[home.pk, away.pk])
    scorer = home.players.order_by("number").first()
    body = {
        "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 0}],
        "players": [{"player": scorer.pk, "touchdowns": 1}],
    }
    return services.match_submit_result(user=coach, match_id=match.pk, body=body)


def test_the_other_coach_disputes_from_the_page_and_the_commissioner_rules_there(
    client, submitted, other_coach, commissioner, coach
):
    page = reverse("match-detail", args=[submitted.pk])
    client.login(username=other_coach.username, password=PASSWORD)
    assert "Dispute the result instead of confirming it" in client.get(page).content.decode()

    response = client.post(
        reverse("match-dispute", args=[submitted.pk]), {"reason": "Their blitzer was off the pitch."}, follow=True
    )

    text = response.content.decode()
    assert "Result disputed" in text and "Their blitzer was off the pitch." in text
    assert "Your ruling" not in text  # the ruling is the commissioner's
    assert Match.objects.get(pk=submitted.pk).status == "disputed"

    client.login(username=commissioner.username, password=PASSWORD)
    assert "Your ruling" in client.get(page).content.decode()
    response = client.post(
        reverse("match-ruling", args=[submitted.pk]),
        {"ruling": "confirm", "reason": "Seen from the dugout."},
        follow=True,
    )

    assert "the result stands and is final" in response.content.decode()
    assert Match.objects.get(pk=submitted.pk).status == "final"
    assert Dispute.objects.get(match=submitted).ruling_reason == "Seen from the dugout."
    assert AuditEntry.objects.get(action="dispute_ruling").reason == "Seen from the dugout."


def test_a_dispute_without_reason_or_a_ruling_without_choice_is_refused_in_words(
    client, submitted, other_coach, commissioner
):
    client.login(username=other_coach.username, password=PASSWORD)
    response = client.post(reverse("match-dispute", args=[submitted.pk]), {"reason": " "}, follow=True)
    assert "Give a reason, in words." in response.content.decode()
    client.post(reverse("match-dispute", args=[submitted.pk]), {"reason": "Wrong."})

    client.login(username=commissioner.username, password=PASSWORD)
    response = client.post(reverse("match-ruling", args=[submitted.pk]), {"reason": "x"}, follow=True)

    assert "Choose a ruling" in response.content.decode()
    assert Match.objects.get(pk=submitted.pk).status == "disputed"


def test_a_coach_who_did_not_play_cannot_dispute_from_the_page(client, submitted, stranger):
    client.login(username=stranger.username, password=PASSWORD)

    response = client.post(reverse("match-dispute", args=[submitted.pk]), {"reason": "I say so."})

    assert response.status_code == 403
    assert Match.objects.get(pk=submitted.pk).status == "submitted"
