"""Commissioner gil adjustments (issue 13, "Audit"; api-v1 v1.1 `POST /teams/{id}/adjustments/`): a signed amount
with a reason, posted through the one ledger writer as kind `adjustment`, never below 0, audited."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import AuditEntry
from teams.models import LedgerEntry
from teams.selectors import team_treasury
from tests.factories import LeagueFactory, TeamFactory

pytestmark = pytest.mark.django_db


def _adjust(api_as, user, team, body):
    return api_as(user).post(f"/api/v1/teams/{team.pk}/adjustments/", body, format="json")


def test_the_commissioner_adds_gil_with_a_reason(api_as, commissioner, team):
    before = team_treasury(team=team)

    response = _adjust(api_as, commissioner, team, {"amount": 15_000, "reason": "Charity match prize"})

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["kind"] == "adjustment" and body["amount"] == 15_000 and body["reason"] == "Charity match prize"
    assert body["balance_after"] == before + 15_000 and body["created_by"] == "commish"
    assert team_treasury(team=team) == before + 15_000
    entry = AuditEntry.objects.get(league=team.league, action="adjustment")
    assert entry.before == {"treasury": before} and entry.after == {"treasury": before + 15_000, "amount": 15_000}
    assert entry.reason == "Charity match prize"


def test_a_negative_adjustment_takes_gil_away_but_never_below_0(api_as, commissioner, team):
    treasury = team_treasury(team=team)
    assert _adjust(api_as, commissioner, team, {"amount": -treasury, "reason": "Fine"}).status_code == 201
    entries = LedgerEntry.objects.filter(team=team).count()

    response = _adjust(api_as, commissioner, team, {"amount": -1, "reason": "Another fine"})

    assert response.status_code == 400 and "treasury" in response.json()
    assert LedgerEntry.objects.filter(team=team).count() == entries
    assert AuditEntry.objects.filter(action="adjustment").count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"amount": 100}, "reason"),
        ({"amount": 100, "reason": "   "}, "reason"),
        ({"reason": "No amount"}, "amount"),
        ({"amount": 0, "reason": "Nothing"}, "amount"),
        ({"amount": "lots", "reason": "x"}, "amount"),
        ({"amount": 10**12, "reason": "x"}, "amount"),
        ({"amount": 1.5, "reason": "x"}, "amount"),
    ],
)
def test_a_bad_adjustment_names_its_field_and_changes_nothing(api_as, commissioner, team, body, field):
    entries = LedgerEntry.objects.filter(team=team).count()
    response = _adjust(api_as, commissioner, team, body)
    assert response.status_code == 400 and field in response.json(), response.json()
    assert LedgerEntry.objects.filter(team=team).count() == entries


def test_only_the_commissioner_adjusts(api, api_as, coach, team, stranger):
    assert api.post(f"/api/v1/teams/{team.pk}/adjustments/", {"amount": 5, "reason": "x"}).status_code == 401
    assert _adjust(api_as, coach, team, {"amount": 5, "reason": "Me"}).status_code == 403
    assert _adjust(api_as, stranger, team, {"amount": 5, "reason": "x"}).status_code == 403
    assert api_as(stranger).post("/api/v1/teams/999999/adjustments/", {}).status_code == 404


def test_elfball_teams_have_no_gil_to_adjust(api_as, commissioner, coach):
    league = LeagueFactory(created_by=commissioner, ruleset="elfball")
    team = TeamFactory(league=league, coach=coach)
    response = _adjust(api_as, commissioner, team, {"amount": 5, "reason": "x"})
    assert response.status_code == 400 and "amount" in response.json()


def test_the_team_page_offers_the_commissioner_the_adjustment(client, commissioner, coach, team):
    url = reverse("team-detail", args=[team.pk])
    client.force_login(coach)
    assert 'id="adjust-gil"' not in client.get(url).content.decode()
    client.force_login(commissioner)
    assert 'id="adjust-gil"' in client.get(url).content.decode()
    before = team_treasury(team=team)

    response = client.post(
        reverse("team-adjust", args=[team.pk]), {"amount": "-500", "reason": "Late fee"}, follow=True
    )

    assert "Adjusted by -500 gil" in response.content.decode()
    assert team_treasury(team=team) == before - 500


@pytest.mark.parametrize("amount", ["", "abc", "1e5", "--3", "99999999999999"])
def test_a_bad_amount_on_the_page_is_a_message(client, commissioner, team, amount):
    client.force_login(commissioner)
    response = client.post(reverse("team-adjust", args=[team.pk]), {"amount": amount, "reason": "x"}, follow=True)
    assert response.status_code == 200 and "amount" in response.content.decode()
