"""The season turn applied (issue 13: "A house rule `season_rollover` lets a commissioner choose a redraft instead
(Blitz Bowl: a redraft budget; teams rebuild from it)"; docs/decisions/ 2026-12-02 "The season turn").

Through the API: the house rule's round trip, a redraft releasing rosters (marked, not deleted), the treasury set
to the budget by one `redraft` ledger entry, the team back in creation and able to buy a new roster; `carry`
keeping everything; the 409 refusals unchanged; the turn's queries not growing with the league.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.models import AuditEntry, League
from matches.models import Match
from teams import services as team_services
from teams.models import LedgerEntry, Player, Team
from teams.selectors import team_treasury
from tests.assertions import assert_refused
from tests.factories import LeagueFactory, TeamFactory, UserFactory
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db

TEAMS = "/api/v1/teams/"


def seasons_url(league) -> str:
    return f"/api/v1/leagues/{league.pk}/seasons/"


def _set_rules(api_as, league, overrides: dict):
    return api_as(league.created_by).patch(f"/api/v1/leagues/{league.pk}/", {"house_rules": overrides}, format="json")


def _turn(api_as, league):
    response = api_as(league.created_by).post(seasons_url(league), {}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _roster(team) -> dict:
    return {p.pk: (p.status, p.left_at is None) for p in Player.objects.filter(team=team)}


@pytest.fixture
def home(league, coach):
    team = full_team(league, coach, "Home")
    team_services.team_purchase(team_id=team.pk, user=coach, item="reroll", quantity=1)
    team_services.team_purchase(team_id=team.pk, user=coach, item="cheerleader", quantity=1)
    team_services.team_purchase(team_id=team.pk, user=coach, item="fan_factor", quantity=2)
    team_services.team_close_creation(team_id=team.pk, user=coach)
    return team


@pytest.fixture
def away(league, other_coach):
    team = full_team(league, other_coach, "Away")
    team_services.team_close_creation(team_id=team.pk, user=other_coach)
    return team


def test_season_rollover_round_trips_through_the_api_and_bad_values_are_refused_h(api_as, league, coach):
    """H (issue 13): `season_rollover` (carry | redraft) and Blitz Bowl's `redraft_budget` are house rules like the
    others: defaults shown, overrides kept, a bad value a 400 naming the key with nothing changed, a coach 403."""
    defaults = api_as(None).get("/api/v1/rulesets/blitzbowl/house-rules/").json()
    assert (defaults["season_rollover"], defaults["redraft_budget"]) == ("carry", 100_000)

    response = _set_rules(api_as, league, {"season_rollover": "redraft", "redraft_budget": 80_000})

    assert response.status_code == 200, response.json()
    assert (response.json()["house_rules"]["season_rollover"], response.json()["house_rules"]["redraft_budget"]) == (
        "redraft",
        80_000,
    )
    for bad, field in (({"season_rollover": "keep"}, "season_rollover"), ({"redraft_budget": -5}, "redraft_budget")):
        assert_refused(_set_rules(api_as, league, bad), 400, field)
    refused = api_as(coach).patch(
        f"/api/v1/leagues/{league.pk}/", {"house_rules": {"season_rollover": "carry"}}, format="json"
    )
    assert refused.status_code == 403
    assert League.objects.get(pk=league.pk).house_rules_overrides == {
        "season_rollover": "redraft",
        "redraft_budget": 80_000,
    }


def test_a_blitz_bowl_redraft_releases_rosters_sets_treasuries_and_reopens_creation_h(
    api_as, league, home, away, coach
):
    """H redraft: every player released (status retired, `left_at`; still there, his page too), re-rolls, staff
    and FF given up, the team in creation, and its treasury set to the budget by one `redraft` entry each."""
    _set_rules(api_as, league, {"season_rollover": "redraft"})
    balances = {team.pk: team_treasury(team=team) for team in (home, away)}
    released = list(Player.objects.filter(team=home).values_list("pk", flat=True))

    _turn(api_as, league)

    assert all(status == "retired" and not on for status, on in _roster(home).values())
    assert len(_roster(home)) == 11
    assert Player.objects.filter(pk__in=released).count() == 11  # marked, not deleted: history and pages stay
    assert api_as(None).get(f"{TEAMS}{home.pk}/").status_code == 200
    assert api_as(None).get(f"/teams/{home.pk}/").status_code == 200
    for team in (home, away):
        team.refresh_from_db()
        assert (team.in_creation, team.rerolls, team.fan_factor, team.staff) == (True, 0, 0, {})
        entry = LedgerEntry.objects.filter(team=team).order_by("-sequence").first()
        assert (entry.kind, entry.amount, entry.balance_after) == ("redraft", 100_000 - balances[team.pk], 100_000)
        assert team_treasury(team=team) == 100_000
    audit = AuditEntry.objects.get(action="season")
    assert audit.after["turn"]["rollover"] == "redraft"
    assert audit.after["turn"]["players_released"] == 22
    assert "redraft" in audit.reason

    # The team rebuilds: a new roster, FF at creation prices, then ready again.
    alice = api_as(coach)
    for number in range(1, 12):
        hired = alice.post(f"{TEAMS}{home.pk}/players/", {"position": "lineman", "name": f"New {number}"})
        assert hired.status_code == 201, hired.json()
    assert alice.post(f"{TEAMS}{home.pk}/purchases/", {"item": "fan_factor", "quantity": 1}).status_code == 201
    ready = alice.post(f"{TEAMS}{home.pk}/ready/")
    assert ready.status_code == 200, ready.json()
    assert ready.json()["treasury"] == 100_000 - 11 * 5_000 - 1_000


def test_a_redraft_budget_from_next_season_is_the_one_the_turn_uses_h(api_as, league, home, away):
    """issue 13 "House-rule changes made during a season can be marked 'from next season'": a redraft set so
    applies at the very turn it waits for, with its budget; a treasury already at the budget gets no entry."""
    response = api_as(league.created_by).put(
        f"/api/v1/leagues/{league.pk}/house-rules/next-season/",
        {"house_rules": {"season_rollover": "redraft", "redraft_budget": team_treasury(team=away)}},
        format="json",
    )
    assert response.status_code == 200, response.json()
    budget = team_treasury(team=away)
    away_entries = LedgerEntry.objects.filter(team=away).count()

    _turn(api_as, league)

    assert team_treasury(team=home) == budget
    assert LedgerEntry.objects.filter(team=home, kind="redraft").count() == 1
    assert LedgerEntry.objects.filter(team=away).count() == away_entries  # already at the budget: no entry
    assert Team.objects.get(pk=away.pk).in_creation


def test_carry_keeps_rosters_treasuries_and_counts_i(api_as, league, home, away):
    """I (issue 13): the default turn changes no team — rosters, treasuries, re-rolls, staff, FF, readiness."""

    def state():
        teams = Team.objects.filter(pk__in=[home.pk, away.pk]).order_by("pk")
        return [(_roster(t), team_treasury(team=t), t.rerolls, t.fan_factor, t.staff, t.in_creation) for t in teams]

    before = state()
    entries = LedgerEntry.objects.count()

    _turn(api_as, league)

    assert state() == before
    assert LedgerEntry.objects.count() == entries
    assert AuditEntry.objects.get(action="season").after["turn"] == {
        "rollover": "carry",
        "teams": [],
        "rebuilt": [],
        "players_released": 0,
        "treasuries": {},
    }


@pytest.mark.parametrize(
    ("ruleset", "roster", "position", "n"),
    [("elfball", "razorbacks", "hunter", 6), ("bonecruncher", "amazons", "player", 8)],
)
def test_elfball_and_bone_cruncher_redrafts_rebuild_the_squad_and_move_no_gil_r(
    api_as, commissioner, coach, ruleset, roster, position, n
):
    """R ElfBall (150-point budget, no treasury) / R Bone Cruncher (no economy): a redraft releases the squad —
    Goal Points, wounds and conditions leave with the players — gives up support and reopens creation; no ledger."""
    league = LeagueFactory(
        created_by=commissioner, ruleset=ruleset, house_rules_overrides={"season_rollover": "redraft"}
    )
    team = full_team(league, coach, "Squad", roster=roster, position=position, n=n)
    Player.objects.filter(team=team).update(goal_points=3, wounds=2)
    Team.objects.filter(pk=team.pk).update(staff={"cheerleader": 1}, creation_closed_at=league.created_at)

    _turn(api_as, league)

    team.refresh_from_db()
    assert (team.in_creation, team.staff) == (True, {})
    assert set(Player.objects.filter(team=team).values_list("status", "goal_points", "wounds")) == {("retired", 3, 2)}
    assert not LedgerEntry.objects.filter(team=team).exists()
    hired = api_as(coach).post(f"{TEAMS}{team.pk}/players/", {"position": position, "name": "Fresh"})
    assert hired.status_code == 201, hired.json()


def test_a_refused_turn_changes_nothing_even_under_a_redraft(api_as, league, home, away, coach, other_coach):
    """The 409 stands as before (a result waits): nothing of the redraft is applied."""
    _set_rules(api_as, league, {"season_rollover": "redraft"})
    match = (
        api_as(league.created_by)
        .post("/api/v1/matches/", {"league": league.pk, "teams": [home.pk, away.pk]}, format="json")
        .json()
    )
    body = {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}], "players": []}
    assert api_as(coach).post(f"/api/v1/matches/{match['id']}/result/", body, format="json").status_code == 201
    before = (_roster(home), team_treasury(team=home), LedgerEntry.objects.count())

    response = api_as(league.created_by).post(seasons_url(league), {}, format="json")

    assert_refused(response, 409)
    assert (_roster(home), team_treasury(team=home), LedgerEntry.objects.count()) == before
    assert Match.objects.get(pk=match["id"]).season == 1
    assert not Team.objects.get(pk=home.pk).in_creation


def _turn_queries(api_as, n_teams: int) -> int:
    commissioner = UserFactory()
    league = LeagueFactory(created_by=commissioner, house_rules_overrides={"season_rollover": "redraft"})
    for i in range(n_teams):
        team = TeamFactory(league=league, coach=UserFactory(), name=f"T{i}", roster="hume")
        for number in range(1, 3):
            team_services.team_hire_player(team_id=team.pk, user=team.coach, position="lineman", name=f"P{number}")
    client = api_as(commissioner)
    with CaptureQueriesContext(connection) as queries:
        assert client.post(seasons_url(league), {}, format="json").status_code == 201
    return len(queries)


def test_the_redraft_queries_do_not_grow_with_the_league(api_as):
    """Bulk writes (no queries in loops): the turn's query count is the same for 2 teams and for 8."""
    assert _turn_queries(api_as, 2) == _turn_queries(api_as, 8)
