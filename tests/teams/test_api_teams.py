"""API v1 "Teams": team creation, the team sheet, players (hire, edit, fire), purchases, ready, the ledger.

Rules pinned here are the team-building sections of ../shared/rules/{blitzbowl,elfball,bonecruncher}.md.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from django.db import transaction
from django.test import Client

from league.models import Membership
from teams.models import LedgerEntry, Player, Team
from tests.assertions import assert_refused
from tests.factories import LeagueFactory, TeamFactory, hire, token_for

TEAMS = "/api/v1/teams/"
TEAM_FIELDS = {
    "id", "league", "name", "roster", "coach", "treasury", "team_value", "fan_factor", "rerolls", "players", "staff",
    "sponsorships", "home_stadium", "owns_stadium", "stadium_fund", "points_value", "points_budget",
}  # fmt: skip
PLAYER_FIELDS = {"id", "name", "number", "position", "status", "attributes", "skills", "value", "injuries"}
LEDGER_FIELDS = {"id", "amount", "balance_after", "reason", "match", "created_at"}

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(api_as, coach):
    return api_as(coach)


@pytest.fixture
def elfball_team(commissioner, coach):
    """Alice's Razorbacks (6 Hunters, 6 Midfielders allowed) in an ElfBall league."""
    league = LeagueFactory(created_by=commissioner, name="Elf Cup", ruleset="elfball")
    return TeamFactory(league=league, coach=coach, name="Alice's Razorbacks", roster="razorbacks")


@pytest.fixture
def bonecruncher_team(commissioner, coach):
    league = LeagueFactory(created_by=commissioner, name="Bone Cup", ruleset="bonecruncher")
    return TeamFactory(league=league, coach=coach, name="Alice's Halflings", roster="halflings")


def url(team: Team, *parts) -> str:
    return f"{TEAMS}{team.pk}/" + "".join(f"{part}/" for part in parts)


def snapshot(team: Team) -> tuple:
    """Everything a refused write to the team must leave alone."""
    team.refresh_from_db()
    players = sorted(Player.objects.filter(team=team).values_list("id", "name", "number", "role", "status", "left_at"))
    ledger = list(LedgerEntry.objects.filter(team=team).order_by("id").values_list("id", "amount", "balance_after"))
    return players, ledger, team.rerolls, team.fan_factor, team.staff, team.creation_closed_at, team.name


def treasury(team: Team) -> int:
    entry = LedgerEntry.objects.filter(team=team, account="treasury").order_by("-sequence").first()
    return entry.balance_after if entry else 0


def sheet(api, team: Team) -> dict:
    response = api.get(url(team))
    assert response.status_code == 200, response.content
    return response.json()


# --- create ------------------------------------------------------------------------------------


def test_create_team_answers_201_with_the_contract_fields(api, alice, league, coach, make_coach):
    """R: treasury starts at 100,000 gil; a new team has no players, staff, re-rolls or Fan Factor."""
    make_coach(coach)

    response = alice.post(TEAMS, {"league": league.pk, "name": "Alice's Humes", "roster": "hume"}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body.keys() >= TEAM_FIELDS
    team = Team.objects.get(pk=body["id"])
    assert (body["league"], body["name"], body["roster"], body["coach"]) == (
        league.pk,
        "Alice's Humes",
        "hume",
        coach.pk,
    )
    assert body["treasury"] == 100_000
    assert (body["team_value"], body["fan_factor"], body["rerolls"]) == (0, 0, 0)
    assert (body["players"], body["staff"], body["sponsorships"]) == ([], {}, [])
    assert (body["home_stadium"], body["owns_stadium"], body["stadium_fund"]) == (None, False, 0)
    assert (body["points_value"], body["points_budget"]) == (None, None)
    assert sheet(api, team) == body


def test_a_new_blitzbowl_team_opens_its_treasury_with_one_ledger_entry(api, alice, league, coach, make_coach):
    """I: the treasury is an append-only ledger; every gil movement is one entry."""
    make_coach(coach)
    team_id = alice.post(TEAMS, {"league": league.pk, "name": "Humes", "roster": "hume"}, format="json").json()["id"]

    ledger = api.get(f"{TEAMS}{team_id}/ledger/").json()

    assert [(e["amount"], e["balance_after"]) for e in ledger] == [(100_000, 100_000)]


def test_an_elfball_team_has_a_150_point_budget_and_no_treasury(api_as, commissioner, coach):
    """R: Advanced Rules budget 150 points; there is no treasury of unspent points."""
    league = LeagueFactory(created_by=commissioner, ruleset="elfball")
    Membership.objects.create(league=league, user=coach, role="coach")

    response = api_as(coach).post(
        TEAMS, {"league": league.pk, "name": "Widows", "roster": "black_widows"}, format="json"
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["points_value"], body["points_budget"], body["treasury"]) == (0, 150, 0)
    assert not LedgerEntry.objects.filter(team_id=body["id"]).exists()


def test_a_bonecruncher_squad_has_no_economy(api_as, commissioner, coach):
    """Bone Cruncher has no economy: no team value, no budget, no ledger."""
    league = LeagueFactory(created_by=commissioner, ruleset="bonecruncher")
    Membership.objects.create(league=league, user=coach, role="coach")

    response = api_as(coach).post(TEAMS, {"league": league.pk, "name": "Dwarfs", "roster": "dwarves"}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body.keys() >= TEAM_FIELDS
    assert (body["team_value"], body["points_budget"], body["treasury"]) == (None, None, 0)


@pytest.mark.parametrize("who", ["stranger", "commissioner"])
def test_only_a_coach_member_of_the_league_creates_a_team(api_as, league, stranger, commissioner, who):
    """api-v1: `POST /teams/` is for a coach member of the league (a non-member is refused, 400/403)."""
    user = {"stranger": stranger, "commissioner": commissioner}[who]

    response = api_as(user).post(TEAMS, {"league": league.pk, "name": "Gatecrashers", "roster": "hume"}, format="json")

    assert_refused(response, (400, 403), "league")
    assert not Team.objects.filter(league=league).exists()


def test_a_second_team_for_the_same_coach_is_refused_by_default(alice, team, league):
    """R: a coach may run several teams only if the commissioner allows it (H: not allowed)."""
    response = alice.post(TEAMS, {"league": league.pk, "name": "Alice's Goblins", "roster": "goblin"}, format="json")

    body = assert_refused(response, 400, "league")
    assert "coach_may_run_several_teams" in " ".join(body["league"])
    assert list(Team.objects.filter(league=league)) == [team]


def test_a_second_team_is_allowed_when_the_house_rule_says_so(api_as, alice, commissioner, team, league):
    """R: … only if the commissioner allows it (house rule `coach_may_run_several_teams`)."""
    api_as(commissioner).patch(
        f"/api/v1/leagues/{league.pk}/", {"house_rules": {"coach_may_run_several_teams": True}}, format="json"
    )

    response = alice.post(TEAMS, {"league": league.pk, "name": "Alice's Goblins", "roster": "goblin"}, format="json")

    assert response.status_code == 201, response.content
    assert Team.objects.filter(league=league, coach=team.coach).count() == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Humes", "roster": "dragons"}, "roster"),
        ({"name": "Humes", "roster": "razorbacks"}, "roster"),
        ({"name": "Humes"}, "roster"),
        ({"roster": "hume"}, "name"),
        ({"name": "", "roster": "hume"}, "name"),
        ({"name": "Bob's Goblins", "roster": "hume"}, "name"),
        ({"name": "BOB'S GOBLINS", "roster": "hume"}, "name"),
    ],
    ids=[
        "unknown-roster",
        "another-rulesets-roster",
        "no-roster",
        "no-name",
        "blank-name",
        "taken-name",
        "taken-name-other-case",
    ],
)
def test_create_team_refuses_bad_fields_naming_them(alice, league, coach, make_coach, other_team, body, field):
    """R: a team is created from one roster of the league's ruleset; team names are unique in a league."""
    make_coach(coach)

    response = alice.post(TEAMS, {"league": league.pk, **body}, format="json")

    assert_refused(response, 400, field)
    assert list(Team.objects.filter(league=league)) == [other_team]


@pytest.mark.parametrize("league_id", [999_999, "abc", None], ids=["unknown", "not-a-number", "null"])
def test_create_team_refuses_a_bad_league_naming_league(alice, coach, league_id):
    response = alice.post(TEAMS, {"league": league_id, "name": "Nowhere", "roster": "hume"}, format="json")

    assert_refused(response, 400, "league")
    assert not Team.objects.exists()


def test_create_team_needs_a_signed_in_user(api, league):
    assert_refused(api.post(TEAMS, {"league": league.pk, "name": "Ghosts", "roster": "hume"}, format="json"), 401)
    assert not Team.objects.exists()


def test_the_team_sheet_is_public_and_an_unknown_team_is_404(api, team):
    assert sheet(api, team)["name"] == "Alice's Humes"
    assert_refused(api.get(f"{TEAMS}999999/"), 404)


def test_a_refused_request_leaves_the_callers_transaction_usable(coach, team):
    """Refusals roll back only their own work: the caller's enclosing transaction (here the test's) survives."""
    client = Client(HTTP_AUTHORIZATION=f"Token {token_for(coach)}")

    with transaction.atomic():
        response = client.post(
            url(team, "players"), {"position": "dragon", "name": "X"}, content_type="application/json"
        )
        assert_refused(response, 400, "position")
        assert Team.objects.filter(pk=team.pk).exists()  # raises TransactionManagementError when poisoned


# --- hire --------------------------------------------------------------------------------------


def test_hire_a_blitzbowl_player_201_with_player_fields_and_spp(api, alice, team):
    """R: a player costs his roster price (Hume lineman 5,000 gil), paid from the treasury in one ledger entry."""
    response = alice.post(url(team, "players"), {"position": "lineman", "name": "Grim", "number": 7}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert PLAYER_FIELDS | {"spp"} <= body.keys()
    assert (body["name"], body["number"], body["position"], body["status"]) == ("Grim", 7, "lineman", "active")
    assert body["attributes"] == {"ma": 6, "st": 3, "ag": 3, "av": 8}
    assert (body["value"], body["spp"], body["skills"], body["injuries"]) == (5000, 0, [], [])
    after = sheet(api, team)
    assert [p["id"] for p in after["players"]] == [body["id"]]
    assert (after["treasury"], after["team_value"]) == (95_000, 5000)
    last = LedgerEntry.objects.filter(team=team).order_by("-id").first()
    assert (last.amount, last.balance_after) == (-5000, 95_000)


def test_hire_an_elfball_player_201_with_goal_points_and_abilities(api, api_as, coach, elfball_team):
    """R: a rookie costs 15 points; team value = 15 per player (no treasury moves)."""
    response = api_as(coach).post(url(elfball_team, "players"), {"position": "hunter", "name": "Sable"}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert PLAYER_FIELDS | {"goal_points", "abilities"} <= body.keys()
    assert (body["goal_points"], body["abilities"], body["value"]) == (0, [], 15)
    assert body["attributes"] == {"jog": 5, "might": 3, "tackle": 4, "dodge": 3, "skill": 2, "grit": 3, "base": 25}
    assert sheet(api, elfball_team)["points_value"] == 15
    assert not LedgerEntry.objects.filter(team=elfball_team).exists()


def test_hire_a_bonecruncher_player_201_with_role_wounds_armour_and_matches(api_as, coach, bonecruncher_team):
    response = api_as(coach).post(
        url(bonecruncher_team, "players"), {"position": "player", "name": "Pip", "role": "captain"}, format="json"
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert PLAYER_FIELDS | {"role", "wounds", "armour_used", "matches_survived"} <= body.keys()
    assert (body["role"], body["wounds"], body["armour_used"], body["matches_survived"]) == ("captain", 0, 0, 0)


def test_a_position_limit_is_enforced(alice, team):
    """R/H: positions have 0–N limits (Hume Ogre 0–1)."""
    hire(team, "ogre", name="Big Un")
    before = snapshot(team)

    response = alice.post(url(team, "players"), {"position": "ogre", "name": "Bigger Un"}, format="json")

    assert_refused(response, 400, "position")
    assert snapshot(team) == before


def test_the_sixteen_player_roster_limit_is_enforced(alice, team):
    """R: roster size at most 16 players."""
    for number in range(1, 17):
        hire(team, "lineman", name=f"Lineman {number}", number=number)
    before = snapshot(team)

    response = alice.post(url(team, "players"), {"position": "blitzer", "name": "Seventeenth"}, format="json")

    assert_refused(response, 400, "position")
    assert snapshot(team) == before


def test_a_hire_the_treasury_cannot_pay_for_is_refused(api_as, commissioner, coach):
    """R/I: the treasury may never go below 0."""
    league = LeagueFactory(created_by=commissioner, house_rules_overrides={"starting_treasury": 4000})
    team = TeamFactory(league=league, coach=coach, roster="hume")
    before = snapshot(team)

    response = api_as(coach).post(url(team, "players"), {"position": "lineman", "name": "Too Dear"}, format="json")

    assert_refused(response, 400, "treasury")
    assert snapshot(team) == before
    assert treasury(team) == 4000


def test_an_elfball_hire_over_the_150_point_budget_is_refused(api_as, coach, elfball_team):
    """R: the team's point value may never exceed 150 — ten rookies at 15 points fill it."""
    for i in range(10):
        hire(elfball_team, "hunter" if i < 6 else "midfielder", name=f"Rookie {i}")
    before = snapshot(elfball_team)

    response = api_as(coach).post(
        url(elfball_team, "players"), {"position": "midfielder", "name": "Eleventh"}, format="json"
    )

    assert_refused(response, 400, "points_budget")
    assert snapshot(elfball_team) == before


def test_a_bonecruncher_squad_holds_twelve(api_as, coach, bonecruncher_team):
    """R: squads of 12 players for most events (H: squad_limit 12)."""
    for i in range(12):
        hire(bonecruncher_team, "player", name=f"Halfling {i}")
    before = snapshot(bonecruncher_team)

    response = api_as(coach).post(
        url(bonecruncher_team, "players"), {"position": "player", "name": "Thirteenth"}, format="json"
    )

    assert_refused(response, 400, "position")
    assert snapshot(bonecruncher_team) == before


def test_halflings_take_one_elite_elf_or_human_in_all(api_as, coach, bonecruncher_team):
    """R: Halfling teams may include one Elite player of the Elf or Human race."""
    hire(bonecruncher_team, "elite_elf", name="Elrond")
    before = snapshot(bonecruncher_team)

    response = api_as(coach).post(
        url(bonecruncher_team, "players"), {"position": "elite_human", "name": "Boromir"}, format="json"
    )

    assert_refused(response, 400, "position")
    assert snapshot(bonecruncher_team) == before


@pytest.mark.parametrize(
    ("first_role", "second_role"), [("captain", "captain"), ("goalie", "goalie")], ids=["captain", "goalie"]
)
def test_a_squad_has_one_great_captain_and_one_goalie(api_as, coach, bonecruncher_team, first_role, second_role):
    """R: one Great Captain per team; one Goalie."""
    hire(bonecruncher_team, "player", name="First", role=first_role)
    before = snapshot(bonecruncher_team)

    response = api_as(coach).post(
        url(bonecruncher_team, "players"), {"position": "player", "name": "Second", "role": second_role}, format="json"
    )

    assert_refused(response, 400, "role")
    assert snapshot(bonecruncher_team) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"position": "dragon", "name": "Smaug"}, "position"),
        ({"position": "fanatic", "name": "Spinner"}, "position"),
        ({"name": "Nobody"}, "position"),
        ({"position": "lineman"}, "name"),
        ({"position": "lineman", "name": ""}, "name"),
        ({"position": "lineman", "name": "Twin", "number": 1}, "number"),
        ({"position": "lineman", "name": "Big", "number": 100}, "number"),
        ({"position": "lineman", "name": "Neg", "number": -1}, "number"),
        ({"position": "lineman", "name": "Cap", "role": "captain"}, "role"),
        ({"position": "lineman", "name": "King", "role": "king"}, "role"),
    ],
    ids=[
        "unknown-position",
        "another-rosters-position",
        "no-position",
        "no-name",
        "blank-name",
        "number-taken",
        "number-too-big",
        "negative-number",
        "role-outside-bonecruncher",
        "unknown-role",
    ],
)
def test_hire_refuses_bad_fields_naming_them(alice, team, body, field):
    """R: players may not be mixed from several rosters; shirt numbers are unique on a roster."""
    hire(team, "lineman", name="Number One", number=1)
    before = snapshot(team)

    response = alice.post(url(team, "players"), body, format="json")

    assert_refused(response, 400, field)
    assert snapshot(team) == before


# --- edit a player -----------------------------------------------------------------------------


def test_patch_renames_and_renumbers_a_player(api, alice, team):
    player = hire(team, "lineman", name="Rookie", number=3)

    response = alice.patch(url(team, "players", player.pk), {"name": "Veteran", "number": 12}, format="json")

    assert response.status_code == 200, response.content
    assert (response.json()["name"], response.json()["number"]) == ("Veteran", 12)
    assert [(p["name"], p["number"]) for p in sheet(api, team)["players"]] == [("Veteran", 12)]


def test_patch_can_clear_a_shirt_number(alice, team):
    player = hire(team, "lineman", name="Rookie", number=3)

    response = alice.patch(url(team, "players", player.pk), {"number": None}, format="json")

    assert response.status_code == 200, response.content
    player.refresh_from_db()
    assert player.number is None


def test_patch_refuses_a_shirt_number_already_taken(alice, team):
    hire(team, "lineman", name="Three", number=3)
    player = hire(team, "lineman", name="Four", number=4)
    before = snapshot(team)

    response = alice.patch(url(team, "players", player.pk), {"name": "Renamed", "number": 3}, format="json")

    assert_refused(response, 400, "number")
    assert snapshot(team) == before


def test_patch_makes_a_bonecruncher_player_captain_or_goalie(api_as, coach, bonecruncher_team):
    first = hire(bonecruncher_team, "player", name="First")
    second = hire(bonecruncher_team, "player", name="Second")
    client = api_as(coach)

    assert (
        client.patch(url(bonecruncher_team, "players", first.pk), {"role": "captain"}, format="json").json()["role"]
        == "captain"
    )
    assert (
        client.patch(url(bonecruncher_team, "players", second.pk), {"role": "goalie"}, format="json").json()["role"]
        == "goalie"
    )


def test_the_great_captain_cannot_be_the_goalie(api_as, coach, bonecruncher_team):
    """R: one Goalie — any player but the Captain."""
    captain = hire(bonecruncher_team, "player", name="Cap", role="captain")
    before = snapshot(bonecruncher_team)

    response = api_as(coach).patch(url(bonecruncher_team, "players", captain.pk), {"role": "goalie"}, format="json")

    assert_refused(response, 400, "role")
    assert snapshot(bonecruncher_team) == before


def test_patch_cannot_name_a_second_captain(api_as, coach, bonecruncher_team):
    """R: one Great Captain per team."""
    hire(bonecruncher_team, "player", name="Cap", role="captain")
    other = hire(bonecruncher_team, "player", name="Pretender")
    before = snapshot(bonecruncher_team)

    response = api_as(coach).patch(url(bonecruncher_team, "players", other.pk), {"role": "captain"}, format="json")

    assert_refused(response, 400, "role")
    assert snapshot(bonecruncher_team) == before


def test_patch_refuses_a_role_outside_bonecruncher(alice, team):
    player = hire(team, "lineman", name="Rookie")
    before = snapshot(team)

    assert_refused(alice.patch(url(team, "players", player.pk), {"role": "captain"}, format="json"), 400, "role")
    assert snapshot(team) == before


def test_patch_cannot_set_what_only_the_rules_change(alice, team):
    """SPP, value, status and position move only by the rules (matches, improvements), never by a coach's PATCH."""
    player = hire(team, "lineman", name="Rookie", number=3)
    gil = treasury(team)

    response = alice.patch(
        url(team, "players", player.pk),
        {"name": "Still Rookie", "spp": 176, "value": 1, "status": "retired", "position": "ogre"},
        format="json",
    )

    assert response.status_code in (200, 400), response.content
    player.refresh_from_db()
    assert (player.spp, player.value, player.status, player.position.key) == (0, 5000, "active", "lineman")
    assert treasury(team) == gil


def test_create_team_ignores_a_client_chosen_treasury_and_rerolls(alice, league, coach, make_coach):
    """R: treasury starts at 100,000 gil — whatever the client sends."""
    make_coach(coach)

    response = alice.post(
        TEAMS,
        {"league": league.pk, "name": "Cheats", "roster": "hume", "treasury": 10**6, "rerolls": 8, "fan_factor": 9},
        format="json",
    )

    assert response.status_code in (201, 400), response.content
    if response.status_code == 201:
        body = response.json()
        assert (body["treasury"], body["rerolls"], body["fan_factor"]) == (100_000, 0, 0)
        assert [e.amount for e in LedgerEntry.objects.filter(team_id=body["id"])] == [100_000]


def test_patch_or_fire_of_a_player_of_another_team_is_404(alice, team, other_team):
    """A player is addressed through his own team only."""
    bobs = hire(other_team, "goblin", name="Snik")
    before = snapshot(other_team)

    assert_refused(alice.patch(url(team, "players", bobs.pk), {"name": "Stolen"}, format="json"), 404)
    assert_refused(alice.delete(url(team, "players", bobs.pk)), 404)
    assert_refused(alice.patch(url(team, "players", 999_999), {"name": "Ghost"}, format="json"), 404)
    assert snapshot(other_team) == before


# --- fire --------------------------------------------------------------------------------------


def test_fire_answers_204_and_the_player_leaves_the_team_sheet(api, alice, team):
    """H: fired players get no refund; they leave the roster and Team Value."""
    keep = hire(team, "lineman", name="Keeper", number=1)
    fired = hire(team, "blitzer", name="Gone", number=2)
    gil = treasury(team)

    response = alice.delete(url(team, "players", fired.pk))

    assert response.status_code == 204
    assert response.content == b""
    after = sheet(api, team)
    assert [p["id"] for p in after["players"]] == [keep.pk]
    assert (after["treasury"], after["team_value"]) == (gil, 5000)
    assert_refused(alice.delete(url(team, "players", fired.pk)), 404)
    assert_refused(alice.patch(url(team, "players", fired.pk), {"name": "Back"}, format="json"), 404)


def test_a_fired_players_shirt_number_is_free_again(alice, team):
    fired = hire(team, "lineman", name="Gone", number=9)
    alice.delete(url(team, "players", fired.pk))

    response = alice.post(url(team, "players"), {"position": "lineman", "name": "New Nine", "number": 9}, format="json")

    assert response.status_code == 201, response.content


def test_an_elfball_team_is_never_cut_below_six_players(api_as, coach, elfball_team):
    """R: a team may never be cut below 6 players (once built)."""
    players = [hire(elfball_team, "hunter", name=f"Hunter {i}") for i in range(6)]
    client = api_as(coach)
    assert client.post(url(elfball_team, "ready")).status_code == 200
    before = snapshot(elfball_team)

    response = client.delete(url(elfball_team, "players", players[0].pk))

    assert_refused(response, 400, "player")
    assert snapshot(elfball_team) == before


# --- purchases ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "quantity", "cost", "change"),
    [
        ("reroll", 2, 10_000, ("rerolls", 2)),
        ("assistant_coach", 2, 2000, ("staff", {"assistant_coach": 2})),
        ("cheerleader", 3, 3000, ("staff", {"cheerleader": 3})),
        ("white_mage", 1, 5000, ("staff", {"white_mage": 1})),
        ("fan_factor", 4, 4000, ("fan_factor", 4)),
    ],
)
def test_blitzbowl_purchases_in_creation(api, alice, team, item, quantity, cost, change):
    """R/H: in creation re-rolls cost the roster price (Hume 5,000); assistant coach and cheerleader 1,000;
    White Mage 5,000; Fan Factor 1,000 a point. Each adds its price to Team Value."""
    response = alice.post(url(team, "purchases"), {"item": item, "quantity": quantity}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    field, expected = change
    assert body[field] == expected
    assert (body["treasury"], body["team_value"]) == (100_000 - cost, cost)
    last = LedgerEntry.objects.filter(team=team).order_by("-id").first()
    assert (last.amount, last.balance_after) == (-cost, 100_000 - cost)
    assert sheet(api, team) == body


def test_a_reroll_bought_after_creation_costs_double_but_adds_the_base_price_to_team_value(alice, team):
    """R: re-rolls bought after team creation cost double the roster price but add only the base price to TV."""
    for number in range(1, 12):
        hire(team, "lineman", name=f"Lineman {number}", number=number)
    ready = alice.post(url(team, "ready"))
    assert ready.status_code == 200, ready.content
    assert ready.json()["in_creation"] is False

    response = alice.post(url(team, "purchases"), {"item": "reroll", "quantity": 1}, format="json")

    assert response.status_code == 201, response.content
    assert response.json()["treasury"] == 100_000 - 11 * 5000 - 10_000
    assert response.json()["team_value"] == 11 * 5000 + 5000


def test_fan_factor_can_only_be_bought_in_creation(alice, team):
    """H: Fan Factor can only be bought while the team is in creation."""
    for number in range(1, 12):
        hire(team, "lineman", name=f"Lineman {number}", number=number)
    alice.post(url(team, "ready"))
    before = snapshot(team)

    response = alice.post(url(team, "purchases"), {"item": "fan_factor", "quantity": 1}, format="json")

    assert_refused(response, 400, "item")
    assert snapshot(team) == before


@pytest.mark.parametrize(
    ("owned", "body", "field"),
    [
        ({}, {"item": "white_mage", "quantity": 2}, "quantity"),
        ({"white_mage": 1}, {"item": "white_mage", "quantity": 1}, "quantity"),
        ({}, {"item": "fan_factor", "quantity": 10}, "quantity"),
        ({}, {"item": "reroll", "quantity": 9}, "quantity"),
        ({}, {"item": "hot_dog_stand", "quantity": 1}, "item"),
        ({}, {"item": "magic_potion", "quantity": 1}, "item"),
        ({}, {"item": "trainer", "quantity": 1}, "item"),
        ({}, {"item": "reroll", "quantity": 0}, "quantity"),
        ({}, {"item": "reroll", "quantity": -1}, "quantity"),
        ({}, {"item": "reroll", "quantity": "two"}, "quantity"),
        ({}, {"quantity": 1}, "item"),
    ],
    ids=[
        "two-white-mages",
        "a-second-white-mage",
        "ff-over-9",
        "rerolls-over-8",
        "unknown-item",
        "elfball-item",
        "bonecruncher-item",
        "zero",
        "negative",
        "not-a-number",
        "no-item",
    ],
)
def test_blitzbowl_purchase_refusals_name_the_field_and_change_nothing(alice, team, owned, body, field):
    """H: White Mage 0–1; starting Fan Factor 0–9; at most 8 re-rolls; items are the ruleset's own."""
    for item, quantity in owned.items():
        assert (
            alice.post(url(team, "purchases"), {"item": item, "quantity": quantity}, format="json").status_code == 201
        )
    before = snapshot(team)

    response = alice.post(url(team, "purchases"), body, format="json")

    assert_refused(response, 400, field)
    assert snapshot(team) == before


def test_undead_may_not_hire_a_white_mage(api_as, commissioner, coach):
    """H: White Mage only for rosters flagged `white_mage: true` (Undead is not)."""
    league = LeagueFactory(created_by=commissioner)
    team = TeamFactory(league=league, coach=coach, roster="undead")
    before = snapshot(team)

    response = api_as(coach).post(url(team, "purchases"), {"item": "white_mage", "quantity": 1}, format="json")

    assert_refused(response, 400, "item")
    assert snapshot(team) == before


def test_a_purchase_the_treasury_cannot_pay_for_is_refused(api_as, commissioner, coach):
    """R/I: the treasury may never go below 0."""
    league = LeagueFactory(created_by=commissioner, house_rules_overrides={"starting_treasury": 4000})
    team = TeamFactory(league=league, coach=coach, roster="hume")
    before = snapshot(team)

    response = api_as(coach).post(url(team, "purchases"), {"item": "reroll", "quantity": 1}, format="json")

    assert_refused(response, 400, "treasury")
    assert snapshot(team) == before


@pytest.mark.parametrize(
    ("item", "points", "maximum"),
    [("magic_potion", 5, 3), ("beer_garden_beauty", 5, 2), ("cheerleader", 5, 4), ("hired_gun_wizard", 20, 1)],
)
def test_elfball_team_support_costs_points_up_to_its_maximum(api_as, coach, elfball_team, item, points, maximum):
    """R: Magic Potion 5 (max 3), Beer Garden Beauty 5 (max 2), Cheerleader 5 (max 4), Hired Gun Wizard 20 (max 1)."""
    client = api_as(coach)

    response = client.post(url(elfball_team, "purchases"), {"item": item, "quantity": maximum}, format="json")

    assert response.status_code == 201, response.content
    assert response.json()["staff"] == {item: maximum}
    assert response.json()["points_value"] == points * maximum
    before = snapshot(elfball_team)
    assert_refused(
        client.post(url(elfball_team, "purchases"), {"item": item, "quantity": 1}, format="json"), 400, "quantity"
    )
    assert snapshot(elfball_team) == before
    assert not LedgerEntry.objects.filter(team=elfball_team).exists()


def test_elfball_support_over_the_150_point_budget_is_refused(api_as, coach, elfball_team):
    """R: the team's point value may never exceed 150."""
    for i in range(10):
        hire(elfball_team, "hunter" if i < 6 else "midfielder", name=f"Rookie {i}")
    before = snapshot(elfball_team)

    response = api_as(coach).post(
        url(elfball_team, "purchases"), {"item": "magic_potion", "quantity": 1}, format="json"
    )

    assert_refused(response, 400, "points_budget")
    assert snapshot(elfball_team) == before


@pytest.mark.parametrize("item", ["reroll", "white_mage", "fan_factor", "trainer"])
def test_elfball_refuses_other_rulesets_items(api_as, coach, elfball_team, item):
    assert_refused(
        api_as(coach).post(url(elfball_team, "purchases"), {"item": item, "quantity": 1}, format="json"), 400, "item"
    )


@pytest.mark.parametrize("item", ["trainer", "coach", "cheerleader"])
def test_bonecruncher_support_staff_up_to_two_of_each_free(api_as, coach, bonecruncher_team, item):
    """R/H: support staff — Cheerleaders, Coaches, Trainers, up to 2 of each, no cost."""
    client = api_as(coach)

    response = client.post(url(bonecruncher_team, "purchases"), {"item": item, "quantity": 2}, format="json")

    assert response.status_code == 201, response.content
    assert response.json()["staff"] == {item: 2}
    before = snapshot(bonecruncher_team)
    assert_refused(
        client.post(url(bonecruncher_team, "purchases"), {"item": item, "quantity": 1}, format="json"), 400, "quantity"
    )
    assert snapshot(bonecruncher_team) == before


@pytest.mark.parametrize("item", ["reroll", "magic_potion", "assistant_coach"])
def test_bonecruncher_refuses_other_rulesets_items(api_as, coach, bonecruncher_team, item):
    response = api_as(coach).post(url(bonecruncher_team, "purchases"), {"item": item, "quantity": 1}, format="json")

    assert_refused(response, 400, "item")


# --- ready -------------------------------------------------------------------------------------


def test_a_blitzbowl_team_needs_eleven_players_to_leave_creation(alice, team):
    """R: at least 11 can be fielded."""
    for number in range(1, 11):
        hire(team, "lineman", name=f"Lineman {number}", number=number)
    before = snapshot(team)

    assert_refused(alice.post(url(team, "ready")), 400)
    assert snapshot(team) == before

    hire(team, "lineman", name="Eleventh", number=11)
    response = alice.post(url(team, "ready"))
    assert response.status_code == 200, response.content
    assert response.json()["in_creation"] is False
    assert_refused(alice.post(url(team, "ready")), 400)


def test_an_elfball_team_needs_six_players_to_be_ready(api_as, coach, elfball_team):
    """R: a team may never be cut below 6 players."""
    for i in range(5):
        hire(elfball_team, "hunter", name=f"Hunter {i}")
    client = api_as(coach)
    before = snapshot(elfball_team)

    assert_refused(client.post(url(elfball_team, "ready")), 400)
    assert snapshot(elfball_team) == before

    hire(elfball_team, "hunter", name="Sixth")
    assert client.post(url(elfball_team, "ready")).status_code == 200


def test_a_basic_rules_elfball_team_holds_exactly_ten(api_as, commissioner, coach):
    """R: basic-rules teams are exactly 10 players (H: a league in basic mode fixes the roster at 10)."""
    league = LeagueFactory(created_by=commissioner, ruleset="elfball", house_rules_overrides={"basic_mode": True})
    team = TeamFactory(league=league, coach=coach, roster="razorbacks")
    for i in range(10):
        hire(team, "hunter" if i < 6 else "midfielder", name=f"Rookie {i}")
    before = snapshot(team)

    response = api_as(coach).post(url(team, "players"), {"position": "midfielder", "name": "Eleventh"}, format="json")

    assert_refused(response, 400, "position")
    assert snapshot(team) == before


def test_a_basic_rules_elfball_team_is_ready_only_with_ten(api_as, commissioner, coach):
    """R: basic-rules teams are exactly 10 players — one of 6 is not a basic-rules team and cannot take the field."""
    league = LeagueFactory(created_by=commissioner, ruleset="elfball", house_rules_overrides={"basic_mode": True})
    team = TeamFactory(league=league, coach=coach, roster="razorbacks")
    for i in range(6):
        hire(team, "hunter", name=f"Hunter {i}")
    before = snapshot(team)

    response = api_as(coach).post(url(team, "ready"))

    assert_refused(response, 400)
    assert snapshot(team) == before


def test_a_bonecruncher_squad_needs_a_captain_and_a_goalie_to_be_ready(api_as, coach, bonecruncher_team):
    """R: one Great Captain per team (clearly identified); one Goalie."""
    client = api_as(coach)
    hire(bonecruncher_team, "player", name="Cap", role="captain")

    assert_refused(client.post(url(bonecruncher_team, "ready")), 400)

    hire(bonecruncher_team, "player", name="Keeper", role="goalie")
    assert client.post(url(bonecruncher_team, "ready")).status_code == 200


# --- ledger ------------------------------------------------------------------------------------


def test_the_ledger_is_public_oldest_first_with_a_running_balance(api, alice, team):
    """I: the treasury is an append-only ledger; the balance is the running sum of its entries."""
    alice.post(url(team, "players"), {"position": "blitzer", "name": "Hammer"}, format="json")
    alice.post(url(team, "purchases"), {"item": "reroll", "quantity": 1}, format="json")
    alice.post(url(team, "purchases"), {"item": "fan_factor", "quantity": 2}, format="json")

    response = api.get(url(team, "ledger"))

    assert response.status_code == 200, response.content
    ledger = response.json()
    assert all(entry.keys() >= LEDGER_FIELDS for entry in ledger)
    assert [e["amount"] for e in ledger] == [100_000, -9000, -5000, -2000]
    running = 0
    for entry in ledger:
        running += entry["amount"]
        assert entry["balance_after"] == running
        assert entry["match"] is None
        assert entry["reason"]
        assert datetime.fromisoformat(entry["created_at"].replace("Z", "+00:00")).utcoffset().total_seconds() == 0
    assert [e["id"] for e in ledger] == sorted(e["id"] for e in ledger)
    assert ledger[-1]["balance_after"] == sheet(api, team)["treasury"] == 84_000


def test_a_refused_purchase_writes_no_ledger_entry(api, alice, team):
    assert_refused(
        alice.post(url(team, "purchases"), {"item": "white_mage", "quantity": 2}, format="json"), 400, "quantity"
    )

    assert [e["amount"] for e in api.get(url(team, "ledger")).json()] == [100_000]


def test_an_elfball_ledger_is_empty(api, elfball_team):
    hire(elfball_team, "hunter", name="Sable")

    assert api.get(url(elfball_team, "ledger")).json() == []


def test_the_ledger_of_an_unknown_team_is_404(api):
    assert_refused(api.get(f"{TEAMS}999999/ledger/"), 404)


def test_a_bone_cruncher_player_carries_his_races_health_template(api, api_as, commissioner, coach):
    """R: a race template per player — and a Halfling team's Elite Elf keeps the Elves' traits and template."""
    league = LeagueFactory(created_by=commissioner, ruleset="bonecruncher")
    team = TeamFactory(league=league, coach=coach, roster="halflings")
    hire(team, "player", name="Pip")
    hire(team, "elite_elf", name="Legolas")
    players = {p["name"]: p for p in api.get(f"/api/v1/teams/{team.pk}/").json()["players"]}
    assert players["Pip"]["race"] == "halflings" and players["Pip"]["health_template"]["total"] == 27
    assert players["Legolas"]["race"] == "elves" and players["Legolas"]["health_template"]["total"] == 36
