"""Confirming and rejecting a submitted result."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.models import Aftermath
from tests.web.matchpages.helpers import (
    confirm_url,
    plain,
    reject_url,
    report_url,
    submit_standard,
    text,
)

pytestmark = pytest.mark.django_db


# --- confirm and reject -------------------------------------------------------------------------


@pytest.mark.parametrize("confirmer", ["other_coach", "commissioner"])
def test_the_other_coach_or_the_commissioner_confirms_and_the_post_match_sequences_open(
    client, match, humes, goblins, request, confirmer
):
    submit_standard(match, humes, goblins)
    client.force_login(request.getfixturevalue(confirmer))

    response = client.post(confirm_url(match), follow=True)

    assert response.redirect_chain == [(report_url(match), 302)]
    page = text(response)
    assert "Result confirmed: it is final, and each team's post-match sequence is open." in page
    match.refresh_from_db()
    assert match.status == "final"
    assert sorted(Aftermath.objects.filter(match=match).values_list("team_id", flat=True)) == sorted(
        [humes.pk, goblins.pk]
    )
    assert "Alice's Humes at Improvements" in plain(page)


@pytest.mark.parametrize(
    ("who", "message"),
    [
        ("coach", "The coach who entered the result cannot confirm it: the other coach or the commissioner does."),
        ("stranger", "Only the other coach or the commissioner can confirm this result."),
    ],
)
def test_the_submitting_coach_and_strangers_cannot_confirm(client, match, humes, goblins, request, who, message):
    submit_standard(match, humes, goblins)
    client.force_login(request.getfixturevalue(who))

    response = client.post(confirm_url(match))

    assert response.status_code == 403
    assert message in text(response)
    match.refresh_from_db()
    assert match.status == "submitted" and not Aftermath.objects.exists()


def test_confirming_a_match_without_a_result_says_so(client, match, commissioner):
    client.force_login(commissioner)

    response = client.post(confirm_url(match), follow=True)

    assert "There is no submitted result to confirm." in text(response)
    match.refresh_from_db()
    assert match.status == "scheduled"


def test_the_commissioner_rejects_a_result_and_the_match_is_scheduled_again(
    client, match, humes, goblins, commissioner
):
    submit_standard(match, humes, goblins)
    client.force_login(commissioner)

    response = client.post(reject_url(match), follow=True)

    assert "Result rejected: the match is scheduled again." in text(response)
    match.refresh_from_db()
    assert (match.status, match.result, match.submitted_by) == ("scheduled", {}, None)


@pytest.mark.parametrize("who", ["coach", "other_coach"])
def test_coaches_cannot_reject(client, match, humes, goblins, request, who):
    submit_standard(match, humes, goblins)
    client.force_login(request.getfixturevalue(who))

    response = client.post(reject_url(match))

    assert response.status_code == 403
    assert "Only the commissioner can reject a result." in text(response)
    match.refresh_from_db()
    assert match.status == "submitted"


def test_anonymous_confirm_goes_to_log_in_and_a_get_shows_the_report(client, match, humes, goblins):
    submit_standard(match, humes, goblins)

    response = client.post(confirm_url(match))

    assert response.status_code == 302 and response.url == f"{reverse('login')}?next={confirm_url(match)}"
    client.force_login(goblins.coach)
    assert client.get(confirm_url(match)).url == report_url(match)
    match.refresh_from_db()
    assert match.status == "submitted"
