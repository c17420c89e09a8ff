"""Cancelling a Blitz Bowl home stadium through `team_cancel_residency` and `POST /api/v1/teams/{id}/stadium/cancel/`
(../shared/rules/blitzbowl.md "3. Fortune and FAME", Residency: R "A home stadium can be cancelled at any time
for 5,000 gil", H `residency.cancel_cost`; docs/api-v1-extensions.md "Home stadiums")."""

from __future__ import annotations

import pytest

from campaigns.errors import Conflict, NotPermitted, RuleViolation
from teams import services
from teams.models import LedgerEntry, Team
from teams.selectors import team_treasury
from tests.assertions import assert_refused
from tests.factories import LeagueFactory, TeamFactory
from tests.teams.residency_helpers import resident, spend_down_to

pytestmark = pytest.mark.django_db

COST = 5000


def url(team_id: int) -> str:
    return f"/api/v1/teams/{team_id}/stadium/cancel/"


def cancel_entries(team: Team):
    return LedgerEntry.objects.filter(team=team, kind="residency_cancel")


# --- the service ---------------------------------------------------------------------------------------------


def test_the_coach_cancels_his_home_stadium_for_5000_gil_through_the_ledger(team, coach):
    """R: a home stadium can be cancelled at any time for 5,000 gil: one ledger entry, the treasury 5,000 lower,
    no home stadium, and every balance still adds up."""
    resident(team)
    services.team_cancel_residency(team_id=team.pk, user=coach)
    team.refresh_from_db()
    assert team.home_stadium is None and team.owns_stadium is False
    assert team_treasury(team=team) == 100_000 - COST
    [entry] = cancel_entries(team)
    assert (entry.amount, entry.balance_after, entry.created_by) == (-COST, 100_000 - COST, coach)
    assert "Grand Coliseum" in entry.reason
    assert services.ledger_audit() == []


def test_the_cancel_cost_follows_the_leagues_house_rule(commissioner, coach):
    """H `residency.cancel_cost`: a league that sets 8,000 charges 8,000."""
    league = LeagueFactory(
        created_by=commissioner, ruleset="blitzbowl", house_rules_overrides={"residency": {"cancel_cost": 8000}}
    )
    team = resident(TeamFactory(league=league, coach=coach))
    services.team_cancel_residency(team_id=team.pk, user=coach)
    assert [e.amount for e in cancel_entries(team)] == [-8000]


def test_a_treasury_short_of_the_cost_refuses_and_changes_nothing(team, coach):
    """R/I: the treasury never goes below 0 — with 4,000 gil the cancellation is refused in words, the team stays
    resident and no gil moves."""
    resident(team)
    spend_down_to(team, 4000)
    with pytest.raises(RuleViolation) as refused:
        services.team_cancel_residency(team_id=team.pk, user=coach)
    assert refused.value.field == "treasury" and "5,000 gil" in refused.value.message
    team.refresh_from_db()
    assert team.home_stadium is not None and team_treasury(team=team) == 4000
    assert not cancel_entries(team).exists()


@pytest.mark.parametrize("who", ["stranger", "commissioner", "other_coach"])
def test_only_the_teams_coach_may_cancel_its_home_stadium(team, who, request):
    """The team's coach alone decides on its stadium (as for hiring and buying): a stranger, the commissioner and
    another coach are refused and nothing changes."""
    resident(team)
    with pytest.raises(NotPermitted):
        services.team_cancel_residency(team_id=team.pk, user=request.getfixturevalue(who))
    team.refresh_from_db()
    assert team.home_stadium is not None and not cancel_entries(team).exists()


def test_a_team_without_a_home_stadium_or_owning_it_has_nothing_to_cancel(team, coach):
    """I: no home stadium → a conflict; an owned stadium is sold (hire-and-fire step), not cancelled."""
    with pytest.raises(Conflict):
        services.team_cancel_residency(team_id=team.pk, user=coach)
    resident(team, owned=True)
    with pytest.raises(Conflict, match="sell it"):
        services.team_cancel_residency(team_id=team.pk, user=coach)
    assert not cancel_entries(team).exists()


# --- the API ------------------------------------------------------------------------------------------------


def test_post_stadium_cancel_answers_the_team_without_its_home_stadium(api_as, team, coach):
    """R: cancelled for 5,000 gil: 200 with the team — no home stadium, the treasury 5,000 lower."""
    resident(team)
    answer = api_as(coach).post(url(team.pk))
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["id"], body["home_stadium"], body["owns_stadium"]) == (team.pk, None, False)
    assert body["treasury"] == 100_000 - COST


def test_a_repeated_cancel_with_the_same_idempotency_key_replays_and_pays_once(api_as, team, coach):
    """api-v1: a repeat with the same Idempotency-Key returns the first answer and changes nothing; without a key
    a second cancel finds no home stadium (409) — either way 5,000 gil leaves once."""
    resident(team)
    client = api_as(coach)
    first = client.post(url(team.pk), HTTP_IDEMPOTENCY_KEY="cancel-once")
    again = client.post(url(team.pk), HTTP_IDEMPOTENCY_KEY="cancel-once")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert_refused(client.post(url(team.pk)), 409)
    assert [e.amount for e in cancel_entries(team)] == [-COST]


def test_cancel_short_of_gil_answers_400_naming_the_treasury(api_as, team, coach):
    """R/I: never a negative treasury — 400 `{"treasury": [...]}` in words; the team keeps its stadium."""
    resident(team)
    spend_down_to(team, 1000)
    body = assert_refused(api_as(coach).post(url(team.pk)), 400, "treasury")
    assert "5,000 gil" in body["treasury"][0]
    team.refresh_from_db()
    assert team.home_stadium is not None


def test_cancel_refusals_for_strangers_owners_and_rulesets_without_stadiums(api, api_as, team, stranger, coach):
    """403 for another user, 401/403 anonymously; 409 when the team owns the stadium; 404 for a team that does
    not exist or whose ruleset has no residencies (ElfBall)."""
    resident(team)
    assert_refused(api_as(stranger).post(url(team.pk)), 403)
    assert_refused(api.post(url(team.pk)), (401, 403))
    assert_refused(api_as(coach).post(url(team.pk + 1000)), 404)
    elf = TeamFactory(league=LeagueFactory(ruleset="elfball"), coach=coach)
    assert "no home stadium" in assert_refused(api_as(coach).post(url(elf.pk)), 404)["detail"]
    team.owns_stadium = True
    team.save(update_fields=["owns_stadium"])
    assert_refused(api_as(coach).post(url(team.pk)), 409)
    assert not cancel_entries(team).exists()


def test_the_schema_documents_every_answer_of_stadium_cancel(api):
    """docs/api-v1-extensions.md: the OpenAPI schema lists the operation's 200, 400, 403, 404 and 409."""
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/teams/{id}/stadium/cancel/"]["post"]
    assert {"200", "400", "403", "404", "409"} <= set(operation["responses"])
