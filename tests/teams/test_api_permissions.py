"""Who may write what (api-v1 "Roles"): a matrix of personas × every write of the league and team API.

- anonymous → 401 for every write (every write needs auth);
- the league's commissioner → 2xx for league writes, 403 on a coach's team (he does not run it);
- the team's own coach → 2xx on his team, 403 on league writes (he is a coach, not a commissioner);
- another coach of the league → 403 everywhere.
Creating a team is for a coach member of the league: in a league where alice is a member without a team
(and bob is not a member), alice → 201; bob and the commissioner (not a coach member) are refused.

Every refused cell is checked to change nothing at all; every allowed cell to change something.
Reads of public data need no auth.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from league.models import Invitation, League, Membership, Stadium
from teams.models import LedgerEntry, Player, Team
from tests.factories import LeagueFactory, TeamFactory, hire

pytestmark = pytest.mark.django_db


@dataclass
class World:
    league: League
    second_league: League  # alice is a coach member without a team; bob is no member
    team: Team  # alice's, in `league`
    other_team: Team  # bob's, in `league`
    player: Player  # on alice's team


@pytest.fixture
def world(commissioner, coach, other_coach, stranger, league, team, other_team) -> World:
    """`league` (alice's and bob's teams, one player on alice's); `stranger` exists but belongs to no league."""
    second = LeagueFactory(created_by=commissioner, name="Second Cup")
    Membership.objects.create(league=second, user=coach, role=Membership.Role.COACH)
    player = hire(team, "lineman", name="Rookie", number=1)
    return World(league=league, second_league=second, team=team, other_team=other_team, player=player)


def full_squad(world: World) -> None:
    """R: a Blitz Bowl team needs 11 players able to play before it may leave creation."""
    for number in range(2, 12):
        hire(world.team, "lineman", name=f"Lineman {number}", number=number)


@dataclass(frozen=True)
class Write:
    method: str
    path: Callable[[World], str]
    body: Callable[[World], dict | None]
    ok: int
    prepare: Callable[[World], None] | None = None


LEAGUE_WRITES = {
    "league-patch": Write(
        "patch", lambda w: f"/api/v1/leagues/{w.league.pk}/", lambda w: {"house_rules": {"max_roster": 12}}, 200
    ),
    "members-post": Write(
        "post",
        lambda w: f"/api/v1/leagues/{w.league.pk}/members/",
        lambda w: {"username": "stranger", "role": "coach"},
        201,
    ),
    "stadiums-post": Write(
        "post", lambda w: f"/api/v1/leagues/{w.league.pk}/stadiums/", lambda w: {"name": "The Pit"}, 201
    ),
}
TEAM_CREATE = Write(
    "post", lambda w: "/api/v1/teams/", lambda w: {"league": w.second_league.pk, "name": "New", "roster": "hume"}, 201
)
TEAM_WRITES = {
    "hire": Write(
        "post", lambda w: f"/api/v1/teams/{w.team.pk}/players/", lambda w: {"position": "lineman", "name": "Extra"}, 201
    ),
    "player-patch": Write(
        "patch",
        lambda w: f"/api/v1/teams/{w.team.pk}/players/{w.player.pk}/",
        lambda w: {"name": "Renamed", "number": 9},
        200,
    ),
    "fire": Write("delete", lambda w: f"/api/v1/teams/{w.team.pk}/players/{w.player.pk}/", lambda w: None, 204),
    "purchase": Write(
        "post", lambda w: f"/api/v1/teams/{w.team.pk}/purchases/", lambda w: {"item": "reroll", "quantity": 1}, 201
    ),
    "ready": Write("post", lambda w: f"/api/v1/teams/{w.team.pk}/ready/", lambda w: None, 200, prepare=full_squad),
}
WRITES = {**LEAGUE_WRITES, "team-create": TEAM_CREATE, **TEAM_WRITES}

REFUSED_TEAM_CREATE = (400, 403)  # api-v1: a non-member is refused (400 naming `league`, or 403)
EXPECTED = {
    "anonymous": dict.fromkeys(WRITES, 401),
    "other_coach": {**dict.fromkeys(LEAGUE_WRITES, 403), "team-create": REFUSED_TEAM_CREATE,
                    **dict.fromkeys(TEAM_WRITES, 403)},
    "own_coach": {**dict.fromkeys(LEAGUE_WRITES, 403), "team-create": 201,
                  **{name: write.ok for name, write in TEAM_WRITES.items()}},
    "commissioner": {**{name: write.ok for name, write in LEAGUE_WRITES.items()}, "team-create": REFUSED_TEAM_CREATE,
                     **dict.fromkeys(TEAM_WRITES, 403)},
}  # fmt: skip
CELLS = [(persona, write) for persona in EXPECTED for write in WRITES]


def snapshot(world: World) -> dict:
    """The league's settings, memberships and stadiums; every team, player, ledger row, re-roll and staff."""
    leagues = [world.league, world.second_league]
    return {
        "leagues": list(
            League.objects.filter(pk__in=[lg.pk for lg in leagues])
            .order_by("pk")
            .values_list("pk", "name", "house_rules_overrides", "open_registration")
        ),
        "memberships": sorted(Membership.objects.values_list("league_id", "user_id", "role")),
        "invitations": sorted(Invitation.objects.values_list("league_id", "user_id", "role", "state")),
        "stadiums": sorted(Stadium.objects.values_list("league_id", "name")),
        "teams": list(
            Team.objects.order_by("pk").values_list(
                "pk", "league_id", "coach_id", "name", "rerolls", "fan_factor", "staff", "creation_closed_at"
            )
        ),
        "players": list(
            Player.objects.order_by("pk").values_list("pk", "team_id", "name", "number", "role", "status", "left_at")
        ),
        "ledger": list(LedgerEntry.objects.order_by("pk").values_list("pk", "team_id", "amount", "balance_after")),
    }


def client_for(persona: str, api, api_as, users: dict):
    return api if persona == "anonymous" else api_as(users[persona])


@pytest.mark.parametrize(("persona", "write_name"), CELLS, ids=[f"{p}-{w}" for p, w in CELLS])
def test_permission_matrix(api, api_as, commissioner, coach, other_coach, world, persona, write_name):
    write = WRITES[write_name]
    expected = EXPECTED[persona][write_name]
    if write.prepare:
        write.prepare(world)
    client = client_for(
        persona, api, api_as, {"commissioner": commissioner, "own_coach": coach, "other_coach": other_coach}
    )
    before = snapshot(world)

    body = write.body(world)
    kwargs = {"format": "json"} if body is not None else {}
    response = getattr(client, write.method)(write.path(world), body, **kwargs)

    allowed = expected if isinstance(expected, tuple) else (expected,)
    assert response.status_code in allowed, (persona, write_name, response.status_code, response.content)
    if response.status_code < 300:
        assert snapshot(world) != before, "an allowed write changed nothing"
        return
    # Refused: a JSON message in words, and nothing changed anywhere.
    assert response["Content-Type"].startswith("application/json")
    payload = response.json()
    message = payload.get("detail") or next(iter(payload.values()))
    assert (" ".join(message) if isinstance(message, list) else message).strip(), payload
    assert snapshot(world) == before


def test_the_matrix_covers_every_persona_and_write():
    """Keep the table honest: one expected status per (persona, write) cell."""
    assert set(EXPECTED) == {"anonymous", "other_coach", "own_coach", "commissioner"}
    assert all(set(row) == set(WRITES) for row in EXPECTED.values())
    assert len(WRITES) == 9


@pytest.mark.parametrize(
    "path",
    [
        lambda w: "/api/v1/rulesets/",
        lambda w: "/api/v1/rulesets/blitzbowl/rosters/",
        lambda w: "/api/v1/rulesets/elfball/rosters/",
        lambda w: "/api/v1/rulesets/bonecruncher/rosters/",
        lambda w: "/api/v1/rulesets/blitzbowl/house-rules/",
        lambda w: "/api/v1/leagues/",
        lambda w: f"/api/v1/leagues/{w.league.pk}/",
        lambda w: f"/api/v1/leagues/{w.league.pk}/members/",
        lambda w: f"/api/v1/leagues/{w.league.pk}/stadiums/",
        lambda w: "/api/v1/teams/",
        lambda w: f"/api/v1/teams/{w.team.pk}/",
        lambda w: f"/api/v1/teams/{w.team.pk}/ledger/",
    ],
    ids=[
        "rulesets",
        "blitzbowl-rosters",
        "elfball-rosters",
        "bonecruncher-rosters",
        "house-rules",
        "leagues",
        "league",
        "members",
        "stadiums",
        "teams",
        "team",
        "ledger",
    ],
)
def test_reads_of_public_data_need_no_auth(api, world, path):
    """api-v1: reads of public data need no auth."""
    response = api.get(path(world))

    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/json")


def test_a_signed_in_stranger_cannot_write_to_a_league_or_team(api_as, stranger, world):
    """A signed-in user with no role in the league is refused every league and team write (403)."""
    client = api_as(stranger)
    before = snapshot(world)

    for name, write in {**LEAGUE_WRITES, **TEAM_WRITES}.items():
        body = write.body(world)
        response = getattr(client, write.method)(write.path(world), body, **({"format": "json"} if body else {}))
        assert response.status_code == 403, (name, response.content)
        assert response.json()["detail"]
    assert snapshot(world) == before


def test_a_commissioner_who_also_coaches_still_cannot_touch_another_coachs_team(api_as, commissioner, world):
    """The commissioner's powers are the league's, not his coaches' teams (his own team is his)."""
    Membership.objects.create(league=world.league, user=commissioner, role=Membership.Role.COACH)
    own = TeamFactory(league=world.league, coach=commissioner, name="Commish XI", roster="orc")
    client = api_as(commissioner)
    before = snapshot(world)

    refused = client.post(f"/api/v1/teams/{world.team.pk}/purchases/", {"item": "reroll", "quantity": 1}, format="json")
    assert refused.status_code == 403, refused.content
    assert snapshot(world) == before

    allowed = client.post(f"/api/v1/teams/{own.pk}/purchases/", {"item": "reroll", "quantity": 1}, format="json")
    assert allowed.status_code == 201, allowed.content
