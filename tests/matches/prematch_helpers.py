"""Shared by the pre-match API tests (test_prematch_api.py, test_prematch_full_match.py): teams built through the
services, and the pre-match sequence driven through the public API (api-v1 "Matches"; rules:
../shared/rules/blitzbowl.md "Pre-match sequence", ../shared/rules/bonecruncher.md "Pre-game").

Blitz Bowl teams as shipped (campaigns/rulesets/blitzbowl/data/rosters.json), 100,000 gil to start:

    Hume      11 linemen × 5,000 = 55,000 TV, treasury 45,000
    Goblin    11 goblins × 4,000 = 44,000 TV, treasury 56,000
    Allstar 9 11 linemen × 3,000 = 33,000 TV, treasury 67,000
    Undead    11 zombies × 4,000 = 44,000 TV, treasury 56,000
"""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from teams.models import Player, Team
from tests.assertions import assert_refused
from tests.factories import TeamFactory, hire, token_for

BLITZBOWL_STEPS = ["weather", "fans", "inducements_superior", "inducements_underdog"]
BONECRUNCHER_STEPS = ["aggressor", "terrain"]

#: The first position of each shipped Blitz Bowl roster a plain squad is made of, and its price.
LINE = {"hume": ("lineman", 5_000), "goblin": ("goblin", 4_000), "allstar9": ("lineman", 3_000)}
LINE |= {"undead": ("zombie", 4_000), "orc": ("lineman", 5_000), "dwarf": ("blocker", 7_000)}


def squad(league, coach, name: str, roster: str = "hume", n: int = 11, extra: tuple[str, ...] = ()) -> Team:
    """`n` players of the roster's line position (numbered 1..n) and then one of each position in `extra`."""
    team = TeamFactory(league=league, coach=coach, name=name, roster=roster)
    position = LINE[roster][0]
    for number in range(1, n + 1):
        hire(team, position, name=f"{name} {number}", number=number)
    for offset, extra_position in enumerate(extra, start=n + 1):
        hire(team, extra_position, name=f"{name} {offset}", number=offset)
    return team


def injure(team: Team, *numbers: int) -> None:
    """Mark players as missing the next match (the state a `miss_next_match` injury leaves them in)."""
    Player.objects.filter(team=team, number__in=numbers).update(status="miss_next_match")


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def refused(response, status, *fields: str) -> dict:
    """`assert_refused`, naming the body's own fields when the test names none (a 400 names the bad field)."""
    if not fields and response["Content-Type"].startswith("application/json"):
        fields = tuple(response.json())
    return assert_refused(response, status, *fields)


class Flow:
    """One league's pre-match sequences through the API; `who` is a user (None: anonymous)."""

    def __init__(self, commissioner):
        self.commissioner = commissioner
        self.public = APIClient()

    # --- plumbing ---------------------------------------------------------------------------------------------
    def call(self, who, method: str, url: str, body: Any = None, status: int | tuple | None = None, **headers):
        client = client_for(who)
        if method == "delete":
            response = client.delete(url, **headers)
        else:
            response = getattr(client, method)(url, body if body is not None else {}, format="json", **headers)
        if status is not None:
            expected = status if isinstance(status, tuple) else (status,)
            payload = response.json() if response.content else None
            assert response.status_code in expected, (method, url, response.status_code, payload)
        return response

    def get(self, url: str) -> Any:
        response = self.public.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return response.json()

    # --- matches ----------------------------------------------------------------------------------------------
    def schedule(self, league, *teams: Team, stadium=None) -> int:
        body = {"league": league.pk, "teams": [t.pk for t in teams], "kind": "league"}
        if stadium is not None:
            body["stadium"] = stadium.pk
        return self.call(self.commissioner, "post", "/api/v1/matches/", body, status=201).json()["id"]

    def state(self, mid: int) -> dict:
        return self.get(f"/api/v1/matches/{mid}/prematch/")

    def rolls(self, mid: int) -> list[dict]:
        return self.get(f"/api/v1/matches/{mid}/rolls/")

    def step(self, who, mid: int, step: str, *, choices=None, rolls=None, status=None, **headers):
        body: dict[str, Any] = {"step": step}
        if choices is not None:
            body["choices"] = choices
        if rolls is not None:
            body["rolls"] = rolls
        return self.call(who, "post", f"/api/v1/matches/{mid}/prematch/", body, status=status, **headers)

    def run(self, who, mid: int, step: str, *, choices=None, rolls=None) -> dict:
        """A step that must succeed: the new state."""
        return self.step(who, mid, step, choices=choices, rolls=rolls, status=200).json()

    def weather(self, mid: int, dice=(3, 4), who=None) -> dict:
        return self.run(who or self.commissioner, mid, "weather", rolls={"weather": list(dice)})

    def fans(self, mid: int, dice: dict[Team, tuple[int, int]], who=None) -> dict:
        rolls = {"fans": {str(team.pk): list(d) for team, d in dice.items()}}
        return self.run(who or self.commissioner, mid, "fans", rolls=rolls)

    def to_shopping(self, mid: int, home: Team, away: Team, *, weather=(3, 4), fans=((3, 4), (3, 4))) -> dict:
        """Weather and fans with entered dice (default 7 and 7 fans each: FAME 0/0): the superior's turn is open."""
        self.weather(mid, weather)
        state = self.fans(mid, {home: fans[0], away: fans[1]})
        assert state["step"] == "inducements_superior", state["step"]
        return state

    def open_turn(self, mid: int, home: Team, away: Team, team: Team) -> dict:
        """Run the sequence up to `team`'s shopping turn (closing the superior's turn, empty, if need be)."""
        state = self.to_shopping(mid, home, away)
        if state["shopping"] != team.pk:
            state = self.close(mid, "inducements_superior")
        assert state["shopping"] == team.pk, state
        return state

    def close(self, mid: int, step: str, who=None) -> dict:
        return self.run(who or self.commissioner, mid, step, choices={"done": True})

    def finish(self, mid: int) -> dict:
        """Run the steps still to run: weather 3 + 4, fans 3 + 4 each, shopping turns closed as they stand."""
        state = self.state(mid)
        while not state["complete"]:
            if state["step"] == "weather":
                state = self.weather(mid)
            elif state["step"] == "fans":
                state = self.run(self.commissioner, mid, "fans", rolls={"fans": [3, 4, 3, 4]})
            else:
                state = self.close(mid, state["step"])
        return state

    # --- inducements ------------------------------------------------------------------------------------------
    def inducements_url(self, mid: int, team: Team | int) -> str:
        return f"/api/v1/matches/{mid}/inducements/{getattr(team, 'pk', team)}/"

    def buy_response(self, who, mid: int, team: Team, item: str, quantity: int = 1, **kw):
        body = {"item": item, "quantity": quantity, **kw}
        return self.call(who, "post", self.inducements_url(mid, team), body)

    def buy(self, mid: int, team: Team, item: str, quantity: int = 1, who=None, **kw) -> dict:
        """A purchase that must succeed (201), by the team's coach unless `who` says otherwise."""
        response = self.buy_response(who or team.coach, mid, team, item, quantity, **kw)
        assert response.status_code == 201, (item, quantity, kw, response.status_code, response.json())
        return response.json()

    def bought(self, mid: int, team: Team) -> list[dict]:
        return self.get(self.inducements_url(mid, team))

    def remove(self, who, mid: int, team: Team, inducement_id: int, status=None):
        return self.call(who, "delete", f"{self.inducements_url(mid, team)}{inducement_id}/", status=status)

    # --- teams ------------------------------------------------------------------------------------------------
    def team(self, team: Team | int) -> dict:
        return self.get(f"/api/v1/teams/{getattr(team, 'pk', team)}/")

    def treasury(self, team: Team | int) -> int:
        return self.team(team)["treasury"]

    def ledger(self, team: Team | int) -> list[dict]:
        return self.get(f"/api/v1/teams/{getattr(team, 'pk', team)}/ledger/")

    def snapshot(self, mid: int, *teams: Team) -> tuple:
        """Everything a refused request must leave unchanged."""
        return (
            self.state(mid),
            self.rolls(mid),
            [self.ledger(t) for t in teams],
            [self.bought(mid, t) for t in teams],
        )
