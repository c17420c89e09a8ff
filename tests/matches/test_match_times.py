"""Match times (issue 13, "Match times"): a coach of a match proposes a date and time, the opponent accepts it
(it becomes `scheduled_for`) or proposes another; bad input is a 400 naming the field and changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from matches import services
from matches.models import Match, TimeProposal
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(league, commissioner, home, away):
    return services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])


def soon(days: int = 3, hour: int = 19) -> datetime:
    moment = (timezone.now() + timedelta(days=days)).replace(hour=hour, minute=30, second=0, microsecond=0)
    return moment.astimezone(UTC)


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def propose(api_as, user, match, moment):
    return api_as(user).post(f"/api/v1/matches/{match.pk}/times/", {"at": iso(moment)}, format="json")


def accept(api_as, user, match, proposal_id):
    return api_as(user).post(f"/api/v1/matches/{match.pk}/times/{proposal_id}/accept/")


def test_a_coach_proposes_and_the_opponent_accepts_the_time_becomes_scheduled_for(
    api_as, api, match, coach, other_coach, home
):
    at = soon()
    proposed = propose(api_as, coach, match, at)
    assert proposed.status_code == 201, proposed.json()
    body = proposed.json()
    assert body["state"] == "open" and body["team"] == home.pk and body["proposed_by"] == coach.pk
    assert api.get(f"/api/v1/matches/{match.pk}/times/").json()[0]["id"] == body["id"]  # public read

    accepted = accept(api_as, other_coach, match, body["id"])

    assert accepted.status_code == 200, accepted.json()
    assert accepted.json()["scheduled_for"] == iso(at)
    match.refresh_from_db()
    assert match.scheduled_for == at
    assert TimeProposal.objects.get().state == TimeProposal.State.ACCEPTED


def test_the_opponent_proposes_another_time_which_supersedes_the_first_and_is_the_one_to_accept(
    api_as, match, coach, other_coach
):
    first = propose(api_as, coach, match, soon(3)).json()
    second = propose(api_as, other_coach, match, soon(4)).json()
    assert TimeProposal.objects.get(pk=first["id"]).state == TimeProposal.State.SUPERSEDED

    stale = accept(api_as, other_coach, match, first["id"])
    assert stale.status_code == 409 and "proposal" in stale.json()
    assert accept(api_as, coach, match, second["id"]).status_code == 200
    match.refresh_from_db()
    assert match.scheduled_for == soon(4)


def test_the_proposer_cannot_accept_his_own_time_nor_a_stranger_or_the_commissioner_propose(
    api_as, match, coach, commissioner, stranger
):
    proposal = propose(api_as, coach, match, soon()).json()
    assert accept(api_as, coach, match, proposal["id"]).status_code == 403
    assert propose(api_as, stranger, match, soon()).status_code == 403
    assert propose(api_as, commissioner, match, soon()).status_code == 403  # the coaches agree their time
    assert accept(api_as, commissioner, match, proposal["id"]).status_code == 403
    match.refresh_from_db()
    assert match.scheduled_for is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "at"),
        ({"at": "next tuesday"}, "at"),
        ({"at": 12}, "at"),
        ({"at": "2020-01-01T19:00:00Z"}, "at"),  # in the past
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_changes_nothing(api_as, match, coach, body, field):
    response = api_as(coach).post(f"/api/v1/matches/{match.pk}/times/", body, format="json")
    assert response.status_code == 400 and field in response.json(), response.json()
    assert not TimeProposal.objects.exists()


def test_a_time_after_the_deadline_is_refused(api_as, match, coach):
    Match.objects.filter(pk=match.pk).update(deadline=soon(2))
    response = propose(api_as, coach, match, soon(3))
    assert response.status_code == 400 and "deadline" in response.json()["at"][0]
    assert propose(api_as, coach, match, soon(1)).status_code == 201


def test_an_unknown_proposal_or_match_is_answered_without_a_500(api_as, match, other_coach):
    assert accept(api_as, other_coach, match, 999999).status_code == 400
    assert api_as(other_coach).post("/api/v1/matches/999999/times/", {"at": iso(soon())}).status_code == 404
    other = services.match_schedule(
        user=match.league.created_by, league=match.league, team_ids=[s.team_id for s in match.sides.all()]
    )
    proposal = TimeProposal.objects.create(
        match=other, team=other.sides.first().team, proposed_by=other_coach, at=soon()
    )
    assert accept(api_as, other_coach, match, proposal.pk).status_code == 400  # another match's proposal


def test_a_match_already_played_gets_no_time(api_as, match, coach, other_coach):
    proposal = propose(api_as, coach, match, soon()).json()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.SUBMITTED)
    assert propose(api_as, coach, match, soon()).status_code == 409
    assert accept(api_as, other_coach, match, proposal["id"]).status_code == 409


def test_the_match_page_offers_the_form_and_the_coaches_agree_through_it(client, match, coach, other_coach, league):
    page = client.get(f"/matches/{match.pk}/")
    assert f'hx-get="/matches/{match.pk}/times/"' in page.content.decode()
    client.force_login(coach)
    panel = client.get(f"/matches/{match.pk}/times/", headers={"HX-Request": "true"})
    assert 'id="propose-time"' in panel.content.decode() and 'id="accept-time"' not in panel.content.decode()

    local = soon().astimezone(ZoneInfo(league.timezone)).strftime("%Y-%m-%dT%H:%M")
    posted = client.post(f"/matches/{match.pk}/times/", {"action": "propose", "at": local})
    assert posted.status_code == 302
    proposal = TimeProposal.objects.get()
    assert proposal.at == soon()  # read in the league's time zone

    client.force_login(other_coach)
    panel = client.get(f"/matches/{match.pk}/times/")
    assert 'id="accept-time"' in panel.content.decode()
    assert client.post(f"/matches/{match.pk}/times/", {"action": "accept", "proposal": proposal.pk}).status_code == 302
    match.refresh_from_db()
    assert match.scheduled_for == soon()


def test_the_form_shows_a_bad_date_in_words(client, match, coach):
    client.force_login(coach)
    response = client.post(f"/matches/{match.pk}/times/", {"action": "propose", "at": "soon"})
    assert response.status_code == 400 and "Give a date and time." in response.content.decode()
    client.force_login(UserFactory(username="nobody"))
    assert (
        client.post(f"/matches/{match.pk}/times/", {"action": "propose", "at": "2030-01-01T10:00"}).status_code == 403
    )
    assert not TimeProposal.objects.exists()
