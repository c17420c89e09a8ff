"""Shared by the Bone Cruncher API tests (test_bonecruncher_season.py, test_bonecruncher_properties.py): one
authenticated client per persona, team building, results and post-match walks — all through the public API
(api-v1 "Teams", "Matches", "Post-match sequence"; rules: ../shared/rules/bonecruncher.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rest_framework.test import APIClient

from teams import services as team_services
from tests.factories import TeamFactory, hire

PASSWORD = "Bone-Cruncher-Pass-9"
STEPS = ("wounds", "veterans", "team_stats")
AREAS = ("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg")

#: R: the advanced health templates of the rulebook (rules/bonecruncher.md), written out by hand:
#: (rulebook total, head, torso, each leg, each arm, protection).
TEMPLATES = {
    "amazons": (33, 5, 9, 5, 4, 4),
    "humans_barbarians": (35, 5, 10, 6, 4, 2),
    "elves": (36, 5, 9, 6, 5, 3),
    "dwarves": (34, 6, 12, 4, 4, 4),
    "halflings": (27, 3, 8, 5, 3, 2),
    "orcs_goblins": (39, 5, 12, 6, 5, 3),
    "lizardmen": (34, 4, 10, 6, 4, 4),
    "undead_zombies": (25, 3, 6, 4, 4, 1),
}
#: R: the Critical Wound Chart's wounds per d6 result (1 stunned arm … 6 severed arm).
CHART_WOUNDS = {1: 2, 2: 2, 3: 2, 4: 3, 5: 2, 6: 4}


def area_squares(race: str) -> dict[str, int]:
    _, head, torso, leg, arm, _ = TEMPLATES[race]
    return {"head": head, "torso": torso, "left_arm": arm, "right_arm": arm, "left_leg": leg, "right_leg": leg}


def advanced_limit(race: str) -> int:
    """I: death at min(rulebook total, sum of the areas)."""
    return min(TEMPLATES[race][0], sum(area_squares(race).values()))


def armour_capacity(*, race: str, role: str, elite: bool, advanced: bool) -> int:
    """R basic: Captain 2, Goalie 1, Elite +1; R advanced: the race's protection, Goalie +3, Elite +2."""
    if advanced:
        return TEMPLATES[race][5] + (3 if role == "goalie" else 0) + (2 if elite else 0)
    return {"captain": 2, "goalie": 1}.get(role, 0) + (1 if elite else 0)


def wound_limit(race: str, *, advanced: bool) -> int:
    return advanced_limit(race) if advanced else 10


def marked(areas: Mapping[str, int] | None) -> dict[str, int]:
    """Wound areas without the empty ones (a sheet may list zeros or leave them out)."""
    return {a: n for a, n in (areas or {}).items() if n}


def condition_set(player: Mapping) -> set[tuple[str, str]]:
    return {(c["key"], c.get("side") or "") for c in player.get("conditions") or []}


def blames(refusal: Mapping, *words: str) -> bool:
    """A 400 body (`{"field": ["message"]}`) names a field containing every one of `words`."""
    return any(all(w in key for w in words) for key in refusal)


def offered_ids(players: Any) -> set[int]:
    """The player ids of a pending step's `players` option (an object keyed by id, or a list of rows)."""
    if isinstance(players, Mapping):
        return {int(k) for k in players}
    return {int(row["player"]) if isinstance(row, Mapping) else int(row) for row in players}


def squad_team(league, coach, name: str, roster: str, *, trainers: int = 0) -> tuple[int, dict[int, int]]:
    """Twelve players through the services (#1 the Great Captain, #2 the Goalie), `trainers` Trainers, declared
    ready. Returns (team id, shirt number → player id)."""
    team = TeamFactory(league=league, coach=coach, name=name, roster=roster)
    ids = {
        n: hire(team, "player", name=f"{name} {n}", number=n, role={1: "captain", 2: "goalie"}.get(n, "")).pk
        for n in range(1, 13)
    }
    if trainers:
        team_services.team_purchase(team_id=team.pk, user=coach, item="trainer", quantity=trainers)
    team_services.team_close_creation(team_id=team.pk, user=coach)
    return team.pk, ids


class BoneCruncher:
    """A Bone Cruncher league driven through the API, one authenticated client per persona name."""

    def __init__(self, clients: Mapping[str, APIClient] | None = None):
        self.public = APIClient()
        self.clients: dict[str, APIClient] = dict(clients or {})

    # --- plumbing ---------------------------------------------------------------------------------------------
    def register(self, username: str) -> APIClient:
        r = self.public.post("/api/v1/auth/register/", {"username": username, "password": PASSWORD}, format="json")
        assert r.status_code == 201, r.json()
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {r.json()['token']}")
        self.clients[username] = client
        return client

    def call(self, who: str, method: str, url: str, body: Any = None, status: int = 200) -> Any:
        r = getattr(self.clients[who], method)(url, body if body is not None else {}, format="json")
        payload = r.json() if r.content else None
        assert r.status_code == status, (method, url, r.status_code, payload)
        return payload

    def post(self, who: str, url: str, body: Any = None, status: int = 201) -> Any:
        return self.call(who, "post", url, body, status)

    def get(self, url: str) -> Any:
        r = self.public.get(url)
        assert r.status_code == 200, (url, r.status_code)
        return r.json()

    # --- teams --------------------------------------------------------------------------------------------------
    def team(self, team_id: int) -> dict:
        return self.get(f"/api/v1/teams/{team_id}/")

    def players(self, team_id: int) -> dict[int, dict]:
        """Player id → the player as the team sheet shows him (the living players on the roster)."""
        return {p["id"]: p for p in self.team(team_id)["players"]}

    def by_number(self, team_id: int) -> dict[int, dict]:
        return {p["number"]: p for p in self.team(team_id)["players"]}

    def build_team(
        self, who: str, league: int, name: str, roster: str, *, staff: Mapping[str, int] | None = None, n: int = 12
    ) -> tuple[int, dict[int, int]]:
        """A squad of `n` players numbered 1..n — #1 the Great Captain, #2 the Goalie — with its support staff,
        declared ready. Returns (team id, shirt number → player id)."""
        team = self.post(who, "/api/v1/teams/", {"league": league, "name": name, "roster": roster})["id"]
        ids = {}
        for number in range(1, n + 1):
            body = {"position": "player", "name": f"{name.split()[0]} {number}", "number": number}
            if number in (1, 2):
                body["role"] = "captain" if number == 1 else "goalie"
            ids[number] = self.post(who, f"/api/v1/teams/{team}/players/", body)["id"]
        for item, quantity in (staff or {}).items():
            self.post(who, f"/api/v1/teams/{team}/purchases/", {"item": item, "quantity": quantity})
        self.post(who, f"/api/v1/teams/{team}/ready/", status=200)
        return team, ids

    # --- matches ------------------------------------------------------------------------------------------------
    def schedule(self, who: str, league: int, teams: list[int], event: str) -> int:
        body = {"league": league, "teams": teams, "event": event, "kind": "league"}
        match = self.post(who, "/api/v1/matches/", body)
        assert match["status"] == "scheduled"
        return match["id"]

    def submit(self, who: str, match_id: int, body: Mapping, status: int = 201) -> Any:
        return self.post(who, f"/api/v1/matches/{match_id}/result/", body, status=status)

    def confirm(self, who: str, match_id: int) -> None:
        assert self.post(who, f"/api/v1/matches/{match_id}/confirm/", status=200)["status"] == "final"

    def play(
        self, scheduler: str, league: int, teams: list[int], event: str, body: Mapping, submitter: str, confirmer: str
    ) -> int:
        match_id = self.schedule(scheduler, league, teams, event)
        assert self.submit(submitter, match_id, body)["status"] == "submitted"
        self.confirm(confirmer, match_id)
        return match_id

    def match(self, match_id: int) -> dict:
        return self.get(f"/api/v1/matches/{match_id}/")

    def league_points(self, match_id: int) -> list[tuple[int, int]]:
        return [(side["team"], side["league_points"]) for side in self.match(match_id)["sides"]]

    # --- the post-match sequence --------------------------------------------------------------------------------
    def aftermath_url(self, match_id: int, team_id: int) -> str:
        return f"/api/v1/matches/{match_id}/aftermath/{team_id}/"

    def state(self, match_id: int, team_id: int) -> dict:
        return self.get(self.aftermath_url(match_id, team_id))

    def step(self, who: str, match_id: int, team_id: int, step: str, choices: Any = None, status: int = 200) -> dict:
        body: dict[str, Any] = {"step": step}
        if choices is not None:
            body["choices"] = choices
        return self.post(who, self.aftermath_url(match_id, team_id), body, status=status)

    def walk(self, who: str, match_id: int, team_id: int, **answers: tuple[str, Any]) -> dict[str, Any]:
        """All three steps in order. A step named in `answers` (step=(decision, answer)) must stop with that decision
        pending; the answer is then posted under the decision's name. Every other step must not stop.
        Returns the options offered, by step."""
        offered: dict[str, Any] = {}
        state: dict = {}
        for step in STEPS:
            state = self.step(who, match_id, team_id, step)
            if step in answers:
                decision, answer = answers[step]
                offered[step] = self.pending(state, step, decision)
                state = self.step(who, match_id, team_id, step, {decision: answer})
            assert state["pending"] is None, (step, state["pending"])
        assert state["complete"] is True and state["step"] is None, state
        return offered

    @staticmethod
    def pending(state: Mapping, step: str, decision: str) -> Any:
        pending = state["pending"]
        assert pending is not None, f"{step} did not stop for {decision}"
        assert (pending["step"], pending["decision"]) == (step, decision), pending
        assert state["step"] == step
        return pending["options"]

    # --- the league ---------------------------------------------------------------------------------------------
    def standings(self, league: int) -> list[tuple]:
        rows = self.get(f"/api/v1/leagues/{league}/standings/")["rows"]
        return [
            (
                r["position"],
                r["team"],
                r["played"],
                r["won"],
                r["drawn"],
                r["lost"],
                r["points"],
                r["scored"],
                r["conceded"],
                r["casualties_inflicted"],
            )
            for r in rows
        ]

    def memorial(self, league: int) -> list[dict]:
        return self.get(f"/api/v1/leagues/{league}/memorial/")


def wounds_view(players: Iterable[Mapping]) -> dict[int, tuple]:
    """Player id → (wounds, armour_used, matches_survived, elite): the numbers a season asserts."""
    return {p["id"]: (p["wounds"], p["armour_used"], p["matches_survived"], p["elite"]) for p in players}
