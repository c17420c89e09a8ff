"""API v1 "Leagues": creation with house rules, commissioner edits, memberships, joining, stadiums.

House rules ("the Commissioner's word is LAW"): a league's effective rules are the ruleset defaults merged
with the commissioner's overrides; an unknown or ill-typed override is refused naming its key.
"""

from __future__ import annotations

import warnings

import pytest
from django.core.paginator import UnorderedObjectListWarning

from league.models import League, Membership, Stadium
from teams.models import Team
from tests.assertions import assert_refused
from tests.factories import LeagueFactory
from tests.invites import accept

LEAGUES = "/api/v1/leagues/"

pytestmark = pytest.mark.django_db


def defaults(api, ruleset: str) -> dict:
    return api.get(f"/api/v1/rulesets/{ruleset}/house-rules/").json()


def league_state(league: League) -> tuple:
    league.refresh_from_db()
    members = sorted(Membership.objects.filter(league=league).values_list("user__username", "role"))
    return league.name, league.house_rules_overrides, league.open_registration, members


# --- create ------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["blitzbowl", "elfball", "bonecruncher"])
def test_create_league_answers_201_with_its_creator_as_commissioner_and_the_default_rules(
    api, api_as, commissioner, ruleset
):
    """api-v1: `{name, ruleset}` → 201 `{id, name, ruleset, commissioner, house_rules}`; Roles: the creator is
    the league's commissioner."""
    response = api_as(commissioner).post(LEAGUES, {"name": "Spring Cup", "ruleset": ruleset}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    league = League.objects.get(pk=body["id"])
    assert (body["name"], body["ruleset"], body["commissioner"]) == ("Spring Cup", ruleset, commissioner.pk)
    assert body["house_rules"] == defaults(api, ruleset)
    assert Membership.objects.filter(league=league, user=commissioner, role="commissioner").exists()
    assert api.get(f"{LEAGUES}{league.pk}/").json()["commissioners"] == ["commish"]


def test_create_league_merges_overrides_into_the_defaults(api, api_as, commissioner):
    """The effective rules are the defaults merged with the overrides; objects merge key by key."""
    overrides = {"starting_treasury": 80_000, "staff": {"cheerleader": {"price": 2000}}}

    response = api_as(commissioner).post(
        LEAGUES, {"name": "Rich Cup", "ruleset": "blitzbowl", "house_rules": overrides}, format="json"
    )

    assert response.status_code == 201, response.content
    effective, expected = response.json()["house_rules"], defaults(api, "blitzbowl")
    expected["starting_treasury"] = 80_000
    expected["staff"]["cheerleader"]["price"] = 2000
    assert effective == expected
    assert effective["staff"]["cheerleader"]["max"] == 10  # the sibling default is kept
    assert League.objects.get(pk=response.json()["id"]).house_rules_overrides == overrides


def test_the_starting_treasury_override_is_what_a_new_team_opens_with(api_as, commissioner, coach):
    """R: treasury starts at 100,000 gil (H: configurable by the commissioner)."""
    league_id = (
        api_as(commissioner)
        .post(
            LEAGUES,
            {"name": "Lean Cup", "ruleset": "blitzbowl", "house_rules": {"starting_treasury": 60_000}},
            format="json",
        )
        .json()["id"]
    )
    alice = api_as(coach)
    assert alice.post(f"{LEAGUES}{league_id}/join/").status_code == 201

    response = alice.post(
        "/api/v1/teams/", {"league": league_id, "name": "Lean Humes", "roster": "hume"}, format="json"
    )

    assert response.status_code == 201, response.content
    assert response.json()["treasury"] == 60_000


@pytest.mark.parametrize("ruleset", ["blitzbowl", "elfball", "bonecruncher"])
def test_a_commissioner_may_restate_every_default_as_an_override(api, api_as, commissioner, ruleset):
    """Every number and table of the rules is a house rule: the defaults themselves are a valid override."""
    every_default = defaults(api, ruleset)

    response = api_as(commissioner).post(
        LEAGUES, {"name": "Literal Cup", "ruleset": ruleset, "house_rules": every_default}, format="json"
    )

    assert response.status_code == 201, response.content
    assert response.json()["house_rules"] == every_default


@pytest.mark.parametrize(
    ("house_rules", "field"),
    [
        ({"pitch_invasions": True}, "pitch_invasions"),
        ({"staff": {"water_boy": {"price": 1, "max": 1}}}, "staff.water_boy"),
        ({"staff": {"cheerleader": {"pompoms": 2}}}, "staff.cheerleader.pompoms"),
        ({"elfball_points_budget": 150}, "elfball_points_budget"),
    ],
    ids=["top-level", "nested", "deeply-nested", "another-rulesets-key"],
)
def test_create_league_refuses_an_unknown_house_rule_naming_its_key(api_as, commissioner, house_rules, field):
    response = api_as(commissioner).post(
        LEAGUES, {"name": "Odd Cup", "ruleset": "blitzbowl", "house_rules": house_rules}, format="json"
    )

    assert_refused(response, 400, field)
    assert not League.objects.exists()


@pytest.mark.parametrize(
    ("house_rules", "field"),
    [
        ({"starting_treasury": "lots"}, "starting_treasury"),
        ({"starting_treasury": True}, "starting_treasury"),
        ({"starting_treasury": 1500.5}, "starting_treasury"),
        ({"starting_treasury": -1}, "starting_treasury"),
        ({"coach_may_run_several_teams": 1}, "coach_may_run_several_teams"),
        ({"staff": "none"}, "staff"),
        ({"staff": {"cheerleader": {"price": "2k"}}}, "staff.cheerleader.price"),
        ({"staff": {"cheerleader": {"max": None}}}, "staff.cheerleader.max"),
        ({"tie_breakers": "points"}, "tie_breakers"),
        ({"tie_breakers": ["points", 3]}, "tie_breakers[1]"),
        ({"league_points": {"win": "3"}}, "league_points.win"),
    ],
    ids=[
        "string-for-int",
        "bool-for-int",
        "float-for-int",
        "negative-price",
        "int-for-bool",
        "string-for-object",
        "nested-string-for-int",
        "nested-null",
        "string-for-list",
        "list-item",
        "nested-points",
    ],
)
def test_create_league_refuses_an_ill_typed_house_rule_naming_its_key(api_as, commissioner, house_rules, field):
    response = api_as(commissioner).post(
        LEAGUES, {"name": "Odd Cup", "ruleset": "blitzbowl", "house_rules": house_rules}, format="json"
    )

    assert_refused(response, 400, field)
    assert not League.objects.exists()


@pytest.mark.parametrize(
    "house_rules",
    [
        "strict",
        7,
        [],
        0,
        False,
        "",
    ],
    ids=["string", "number", "empty-list", "zero", "false", "empty-string"],
)
def test_create_league_refuses_house_rules_that_are_not_an_object(api_as, commissioner, house_rules):
    """`house_rules` is an object of overrides; anything else is ill-typed (400 naming `house_rules`)."""
    response = api_as(commissioner).post(
        LEAGUES, {"name": "Odd Cup", "ruleset": "blitzbowl", "house_rules": house_rules}, format="json"
    )

    assert_refused(response, 400, "house_rules")
    assert not League.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Cup", "ruleset": "chess"}, "ruleset"),
        ({"name": "Cup"}, "ruleset"),
        ({"name": "", "ruleset": "blitzbowl"}, "name"),
        ({"ruleset": "blitzbowl"}, "name"),
        ({"name": "x" * 101, "ruleset": "blitzbowl"}, "name"),
    ],
    ids=["unknown-ruleset", "no-ruleset", "blank-name", "no-name", "long-name"],
)
def test_create_league_refuses_bad_fields_naming_them(api_as, commissioner, body, field):
    assert_refused(api_as(commissioner).post(LEAGUES, body, format="json"), 400, field)
    assert not League.objects.exists()


def test_create_league_needs_a_signed_in_user(api):
    """api-v1: every write needs auth."""
    assert_refused(api.post(LEAGUES, {"name": "Cup", "ruleset": "blitzbowl"}, format="json"), 401)
    assert not League.objects.exists()


def test_a_starting_treasury_no_ledger_can_hold_is_refused_not_a_server_error(api_as, commissioner, coach):
    """api-v1: a server error (5xx) on any input is a bug. An override too large for a treasury must be refused
    (400 naming it) — when the league is created, or at the latest when a team opens its treasury."""
    response = api_as(commissioner).post(
        LEAGUES,
        {"name": "Midas Cup", "ruleset": "blitzbowl", "house_rules": {"starting_treasury": 10**19}},
        format="json",
    )
    if response.status_code == 400:
        assert_refused(response, 400, "starting_treasury")
        return
    assert response.status_code == 201, response.content
    alice = api_as(coach)
    alice.raise_request_exception = False
    alice.post(f"{LEAGUES}{response.json()['id']}/join/")

    team = alice.post(
        "/api/v1/teams/", {"league": response.json()["id"], "name": "Midas", "roster": "hume"}, format="json"
    )

    assert team.status_code < 500, team.content
    assert_refused(team, 400, "starting_treasury")


# --- read --------------------------------------------------------------------------------------


def test_get_league_is_public(api, league):
    response = api.get(f"{LEAGUES}{league.pk}/")

    assert response.status_code == 200, response.content
    body = response.json()
    assert {"id", "name", "ruleset", "commissioner", "house_rules"} <= body.keys()
    assert (body["id"], body["name"], body["ruleset"]) == (league.pk, "Gil Cup", "blitzbowl")


def test_an_unknown_league_is_404_with_detail(api):
    assert_refused(api.get(f"{LEAGUES}999999/"), 404)


def test_the_league_list_pages_in_a_stable_name_order(api, commissioner):
    """api-v1: list endpoints are paginated, which needs a fixed order (the model's: name, then id)."""
    for name in ("Zeta Cup", "Alpha Cup", "Mid Cup"):
        LeagueFactory(created_by=commissioner, name=name)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        response = api.get(LEAGUES)

    assert response.status_code == 200, response.content
    assert not [w for w in caught if issubclass(w.category, UnorderedObjectListWarning)]
    assert [r["name"] for r in response.json()["results"]] == ["Alpha Cup", "Mid Cup", "Zeta Cup"]


# --- PATCH -------------------------------------------------------------------------------------


def test_commissioner_patch_merges_house_rules_into_the_overrides_already_set(api, api_as, commissioner):
    league = LeagueFactory(
        created_by=commissioner, house_rules_overrides={"staff": {"cheerleader": {"price": 2000}}, "max_roster": 14}
    )

    response = api_as(commissioner).patch(
        f"{LEAGUES}{league.pk}/", {"house_rules": {"staff": {"cheerleader": {"max": 3}}}}, format="json"
    )

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["house_rules"]["staff"]["cheerleader"] == {"price": 2000, "max": 3}
    assert body["house_rules"]["max_roster"] == 14
    assert body["house_rules"]["staff"]["assistant_coach"] == defaults(api, "blitzbowl")["staff"]["assistant_coach"]
    league.refresh_from_db()
    assert league.house_rules_overrides == {"staff": {"cheerleader": {"price": 2000, "max": 3}}, "max_roster": 14}


def test_commissioner_patch_of_the_name_leaves_the_house_rules_alone(api_as, commissioner):
    league = LeagueFactory(created_by=commissioner, house_rules_overrides={"max_roster": 14})

    response = api_as(commissioner).patch(f"{LEAGUES}{league.pk}/", {"name": "Autumn Cup"}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["name"] == "Autumn Cup"
    league.refresh_from_db()
    assert (league.name, league.house_rules_overrides) == ("Autumn Cup", {"max_roster": 14})


def test_commissioner_patch_can_close_registration(api_as, commissioner, league):
    response = api_as(commissioner).patch(f"{LEAGUES}{league.pk}/", {"open_registration": False}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["open_registration"] is False


@pytest.mark.parametrize(
    ("house_rules", "field"),
    [
        ({"pitch_invasions": True}, "pitch_invasions"),
        ({"staff": {"water_boy": {"price": 1, "max": 1}}}, "staff.water_boy"),
        ({"staff": {"cheerleader": {"price": "free"}}}, "staff.cheerleader.price"),
        ({"max_roster": "sixteen"}, "max_roster"),
        ({"max_roster": 12, "bogus": 1}, "bogus"),
        ([], "house_rules"),
        (None, "house_rules"),
    ],
    ids=["unknown", "unknown-nested", "ill-typed-nested", "ill-typed", "half-valid", "list", "null"],
)
def test_patch_refuses_bad_house_rules_naming_the_key_and_changes_nothing(api_as, commissioner, house_rules, field):
    """api-v1: nothing is half-applied — even the valid part of a refused PATCH is not kept."""
    league = LeagueFactory(created_by=commissioner, house_rules_overrides={"max_roster": 14})
    before = league_state(league)

    response = api_as(commissioner).patch(
        f"{LEAGUES}{league.pk}/", {"name": "Renamed", "house_rules": house_rules}, format="json"
    )

    assert_refused(response, 400, field)
    assert league_state(league) == before


# --- members -----------------------------------------------------------------------------------


def test_commissioner_invites_a_coach_201_and_he_is_a_member_only_once_he_accepts(
    api_as, commissioner, league, other_coach
):
    response = api_as(commissioner).post(
        f"{LEAGUES}{league.pk}/members/", {"username": "bob", "role": "coach"}, format="json"
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["username"], body["role"], body["league"], body["user"]) == ("bob", "coach", league.pk, other_coach.pk)
    assert body["status"] == "invited"
    assert not Membership.objects.filter(league=league, user=other_coach).exists()

    assert accept(api_as(other_coach), response).status_code == 201
    assert Membership.objects.filter(league=league, user=other_coach, role="coach").exists()


def test_an_invited_coach_cannot_create_a_team_until_he_accepts(api_as, commissioner, league, other_coach):
    """Roles: a coach is a league member who owns teams in it."""
    invited = api_as(commissioner).post(
        f"{LEAGUES}{league.pk}/members/", {"username": "bob", "role": "coach"}, format="json"
    )
    body = {"league": league.pk, "name": "Bob's Goblins", "roster": "goblin"}
    assert api_as(other_coach).post("/api/v1/teams/", body, format="json").status_code == 403

    accept(api_as(other_coach), invited)
    response = api_as(other_coach).post("/api/v1/teams/", body, format="json")

    assert response.status_code == 201, response.content


def test_members_list_is_public(api, league, team):
    response = api.get(f"{LEAGUES}{league.pk}/members/")

    assert response.status_code == 200, response.content
    assert {(m["username"], m["role"]) for m in response.json()} == {("commish", "commissioner"), ("alice", "coach")}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "nobody", "role": "coach"}, "username"),
        ({"role": "coach"}, "username"),
        ({"username": "bob", "role": "owner"}, "role"),
        ({"username": "bob", "role": ""}, "role"),
        ({"username": "bob"}, "role"),
    ],
    ids=["unknown-user", "no-username", "unknown-role", "blank-role", "no-role"],
)
def test_members_post_refuses_bad_input_naming_the_field(api_as, commissioner, league, other_coach, body, field):
    before = league_state(league)

    response = api_as(commissioner).post(f"{LEAGUES}{league.pk}/members/", body, format="json")

    assert_refused(response, 400, field)
    assert league_state(league) == before


def test_an_appointed_commissioner_can_then_patch_the_league_and_add_members(
    api, api_as, commissioner, league, stranger
):
    """Roles: commissioners are the creator plus any user the commissioner makes one."""
    newcomer = api_as(stranger)
    assert_refused(newcomer.patch(f"{LEAGUES}{league.pk}/", {"name": "Stolen Cup"}, format="json"), 403)

    appointed = api_as(commissioner).post(
        f"{LEAGUES}{league.pk}/members/", {"username": "stranger", "role": "commissioner"}, format="json"
    )
    assert appointed.status_code == 201, appointed.content
    assert_refused(newcomer.patch(f"{LEAGUES}{league.pk}/", {"name": "Stolen Cup"}, format="json"), 403)
    assert accept(newcomer, appointed).status_code == 201

    response = newcomer.patch(f"{LEAGUES}{league.pk}/", {"house_rules": {"max_roster": 12}}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["house_rules"]["max_roster"] == 12
    assert (
        newcomer.post(
            f"{LEAGUES}{league.pk}/members/", {"username": "commish", "role": "coach"}, format="json"
        ).status_code
        == 201
    )
    assert api.get(f"{LEAGUES}{league.pk}/").json()["commissioners"] == ["commish", "stranger"]


def test_inviting_the_same_user_twice_is_one_invitation_and_one_membership(api_as, commissioner, league, other_coach):
    client = api_as(commissioner)
    first = client.post(f"{LEAGUES}{league.pk}/members/", {"username": "bob", "role": "coach"}, format="json")
    second = client.post(f"{LEAGUES}{league.pk}/members/", {"username": "bob", "role": "coach"}, format="json")

    assert (first.status_code, second.status_code) == (201, 201)
    assert first.json()["id"] == second.json()["id"]
    accept(api_as(other_coach), first)
    assert Membership.objects.filter(league=league, user=other_coach).count() == 1


# --- join --------------------------------------------------------------------------------------


def test_a_signed_in_user_joins_an_open_league_as_coach(api_as, league, stranger):
    response = api_as(stranger).post(f"{LEAGUES}{league.pk}/join/")

    assert response.status_code == 201, response.content
    assert (response.json()["username"], response.json()["role"]) == ("stranger", "coach")
    assert Membership.objects.filter(league=league, user=stranger, role="coach").count() == 1


def test_joining_twice_keeps_one_membership(api_as, league, stranger):
    client = api_as(stranger)
    client.post(f"{LEAGUES}{league.pk}/join/")
    client.post(f"{LEAGUES}{league.pk}/join/")

    assert Membership.objects.filter(league=league, user=stranger).count() == 1


def test_joining_an_invite_only_league_is_refused(api_as, commissioner, stranger):
    league = LeagueFactory(created_by=commissioner)
    api_as(commissioner).patch(f"{LEAGUES}{league.pk}/", {"open_registration": False}, format="json")

    response = api_as(stranger).post(f"{LEAGUES}{league.pk}/join/")

    assert_refused(response, 400)
    assert not Membership.objects.filter(league=league, user=stranger).exists()


def test_joining_needs_a_signed_in_user(api, league):
    assert_refused(api.post(f"{LEAGUES}{league.pk}/join/"), 401)


def test_joining_an_unknown_league_is_404(api_as, stranger):
    assert_refused(api_as(stranger).post(f"{LEAGUES}999999/join/"), 404)


# --- stadiums ----------------------------------------------------------------------------------


def test_commissioner_adds_a_stadium_201(api, api_as, commissioner, league):
    response = api_as(commissioner).post(
        f"{LEAGUES}{league.pk}/stadiums/", {"name": "The Pit", "special_attribute": "Astrogranite"}, format="json"
    )

    assert response.status_code == 201, response.content
    assert response.json()["name"] == "The Pit"
    assert Stadium.objects.filter(league=league, name="The Pit", special_attribute="Astrogranite").exists()
    assert [s["name"] for s in api.get(f"{LEAGUES}{league.pk}/stadiums/").json()] == ["The Pit"]


@pytest.mark.parametrize("name", ["The Pit", "the pit", ""], ids=["same", "other-case", "blank"])
def test_a_stadium_name_must_be_new_and_not_blank(api_as, commissioner, league, name):
    Stadium.objects.create(league=league, name="The Pit")

    response = api_as(commissioner).post(f"{LEAGUES}{league.pk}/stadiums/", {"name": name}, format="json")

    assert_refused(response, 400, "name")
    assert Stadium.objects.filter(league=league).count() == 1


def test_league_writes_never_create_teams(api_as, commissioner, league):
    """League settings and members are the commissioner's; teams are the coaches' (no side effects)."""
    client = api_as(commissioner)
    client.patch(f"{LEAGUES}{league.pk}/", {"house_rules": {"coach_may_run_several_teams": True}}, format="json")
    client.post(f"{LEAGUES}{league.pk}/stadiums/", {"name": "Dome"}, format="json")

    assert not Team.objects.filter(league=league).exists()
