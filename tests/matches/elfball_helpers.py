"""Helpers shared by the ElfBall campaign tests (rules: ../shared/rules/elfball.md; API: ../shared/docs/api-v1.md)."""

from __future__ import annotations

from rest_framework.test import APIClient

PASSWORD = "Elf-Season-Pass-9"
STEPS = ["goal_points", "abilities", "injuries", "team_stats"]


def goals(team: int, on_field: list[int], n: int = 1) -> list[dict]:
    """`n` goals of `team`, each scored with the same players on the field (one goal wins one Test)."""
    return [{"team": team, "on_field": list(on_field)} for _ in range(n)]


def last_line(state: dict) -> str:
    return state["log"][-1]["lines"][-1]


def step_lines(state: dict, step: str) -> list[str]:
    return next(e["lines"] for e in state["log"] if e["step"] == step)


class ElfSeason:
    """A league played through the public API only: users register, the commissioner runs the league."""

    def __init__(self):
        self.public = APIClient()
        self.clients: dict[str, APIClient] = {}

    def register(self, username: str) -> APIClient:
        r = self.public.post("/api/v1/auth/register/", {"username": username, "password": PASSWORD}, format="json")
        assert r.status_code == 201, r.json()
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {r.json()['token']}")
        self.clients[username] = client
        return client

    def post(self, who: str, url: str, body=None, status=201) -> dict:
        r = self.clients[who].post(url, body or {}, format="json")
        assert r.status_code == status, (url, r.status_code, r.json())
        return r.json()

    def delete(self, who: str, url: str, status=204):
        r = self.clients[who].delete(url)
        assert r.status_code == status, (url, r.status_code, r.content)
        return r

    def get(self, url: str) -> dict | list:
        r = self.public.get(url)
        assert r.status_code == 200, (url, r.status_code)
        return r.json()

    def team(self, team_id: int) -> dict:
        return self.get(f"/api/v1/teams/{team_id}/")

    def ids(self, team_id: int) -> dict[int, int]:
        """Shirt number → player id (players on the roster)."""
        return {p["number"]: p["id"] for p in self.team(team_id)["players"]}

    def by_number(self, team_id: int) -> dict[int, dict]:
        return {p["number"]: p for p in self.team(team_id)["players"]}

    def build(self, who: str, league: int, name: str, roster: str, positions: list[str]) -> int:
        """Create a team and hire one rookie per listed position, shirts 1, 2, …"""
        team = self.post(who, "/api/v1/teams/", {"league": league, "name": name, "roster": roster})
        for number, position in enumerate(positions, start=1):
            self.post(
                who,
                f"/api/v1/teams/{team['id']}/players/",
                {"position": position, "name": f"{name[0]}{number}", "number": number},
            )
        return team["id"]

    def schedule(self, who: str, league: int, home: int, away: int, tests_to_win: int | None = None) -> int:
        body = {"league": league, "teams": [home, away]}
        if tests_to_win is not None:
            body["tests_to_win"] = tests_to_win
        return self.post(who, "/api/v1/matches/", body)["id"]

    def submit(self, who: str, mid: int, result: dict, status=201) -> dict:
        return self.post(who, f"/api/v1/matches/{mid}/result/", result, status=status)

    def confirm(self, who: str, mid: int) -> dict:
        answer = self.post(who, f"/api/v1/matches/{mid}/confirm/", status=200)
        assert answer["status"] == "final"
        return answer

    def step(self, who: str, mid: int, team_id: int, name: str, choices=None, status=200) -> dict:
        body = {"step": name}
        if choices is not None:
            body["choices"] = choices
        return self.post(who, f"/api/v1/matches/{mid}/aftermath/{team_id}/", body, status=status)

    def walk(self, who: str, mid: int, team_id: int, **choices) -> dict:
        """All four steps in order; `choices[step]` answers a step up front. No step may pause."""
        state = None
        for name in STEPS:
            state = self.step(who, mid, team_id, name, choices.get(name))
            assert state["pending"] is None, (name, state["pending"])
        assert state["complete"] is True
        return state


def refused(response, status: int, *fields: str) -> dict:
    """A refusal: the status, and a JSON body that says in words what is wrong (`detail` or the field at fault);
    each of `fields` must be named."""
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    assert isinstance(body, dict) and body, body
    assert all(field in body for field in fields), body
    for message in body.values():
        text = " ".join(message) if isinstance(message, list) else message
        assert isinstance(text, str) and text.strip(), body
    return body
