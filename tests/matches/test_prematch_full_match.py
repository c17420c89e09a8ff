"""One Blitz Bowl league match end to end, through the public API only, every die entered by hand: the pre-match
sequence (weather, fans and FAME, both shopping turns), the result (without `fame`), its confirmation and both
post-match sequences. Every number asserted is worked out by hand in the comments (rules:
../shared/rules/blitzbowl.md; house defaults: campaigns/rulesets/blitzbowl/data/house_rules.json), in the manner
of test_golden_season.py.

    Harbour Hawks (Hume, hal)  2–1  Gutter Gobbos (Goblin, gus)     no stadium
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.invites import invite_and_accept

pytestmark = pytest.mark.django_db

PASSWORD = "Prematch-Full-Pass-3"
POSTMATCH = ["improvements", "team_stats", "fortune", "hire_fire", "prepare"]


class League:
    def __init__(self):
        self.public = APIClient()
        self.clients: dict[str, APIClient] = {}

    def register(self, username: str) -> None:
        r = self.public.post("/api/v1/auth/register/", {"username": username, "password": PASSWORD}, format="json")
        assert r.status_code == 201, r.json()
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {r.json()['token']}")
        self.clients[username] = client

    def post(self, who: str, url: str, body=None, status=201):
        r = self.clients[who].post(url, body or {}, format="json")
        assert r.status_code == status, (url, r.status_code, r.json())
        return r.json()

    def delete(self, who: str, url: str, status=204) -> None:
        r = self.clients[who].delete(url)
        assert r.status_code == status, (url, r.status_code, r.content)

    def get(self, url: str):
        r = self.public.get(url)
        assert r.status_code == 200, (url, r.status_code)
        return r.json()

    def team(self, team_id: int) -> dict:
        return self.get(f"/api/v1/teams/{team_id}/")

    def ids(self, team_id: int) -> dict[int, int]:
        return {p["number"]: p["id"] for p in self.team(team_id)["players"]}

    def ledger(self, team_id: int) -> list[tuple[int, str]]:
        return [(e["amount"], e["kind"]) for e in self.get(f"/api/v1/teams/{team_id}/ledger/")]

    def prematch(self, who: str, mid: int, step: str, choices=None, rolls=None) -> dict:
        body = {"step": step, "choices": choices or {}, "rolls": rolls or {}}
        return self.post(who, f"/api/v1/matches/{mid}/prematch/", body, status=200)

    def buy(self, who: str, mid: int, team_id: int, item: str, quantity: int = 1, **kw) -> dict:
        body = {"item": item, "quantity": quantity, **kw}
        return self.post(who, f"/api/v1/matches/{mid}/inducements/{team_id}/", body)

    def walk(self, who: str, mid: int, team_id: int, **steps) -> dict:
        """All five post-match steps; `steps[name] = (choices, rolls)`. No step may pause."""
        state = None
        for name in POSTMATCH:
            choices, rolls = steps.get(name, ({}, {}))
            state = self.post(
                who,
                f"/api/v1/matches/{mid}/aftermath/{team_id}/",
                {"step": name, "choices": choices, "rolls": rolls},
                status=200,
            )
            assert state["pending"] is None, (name, state["pending"])
        assert state["complete"] is True
        return state


def lines(state: dict, step: str) -> list[str]:
    return next(e["lines"] for e in state["log"] if e["step"] == step)


def test_a_blitz_bowl_match_from_weather_to_standings_lands_on_hand_worked_numbers():
    s = League()
    for name in ("commish", "hal", "gus"):
        s.register(name)
    league = s.post("commish", "/api/v1/leagues/", {"name": "Pre-match Cup", "ruleset": "blitzbowl"})["id"]
    for coach in ("hal", "gus"):
        invite_and_accept(s, commissioner="commish", league=league, who=coach)

    # --- the teams, in creation ---------------------------------------------------------------------------------
    # Hawks: 11 Hume linemen × 5,000 = 55,000; Fan Factor 2 × 1,000 (H: creation only) → treasury 43,000,
    #   TV 55,000 + FF 2,000 = 57,000.
    # Gobbos: 11 Goblins × 4,000 = 44,000; a re-roll at its base 6,000 (H: in creation) → treasury 50,000,
    #   TV 44,000 + 6,000 = 50,000.
    H = s.post("hal", "/api/v1/teams/", {"league": league, "name": "Harbour Hawks", "roster": "hume"})["id"]
    G = s.post("gus", "/api/v1/teams/", {"league": league, "name": "Gutter Gobbos", "roster": "goblin"})["id"]
    for who, team_id, position, short in (("hal", H, "lineman", "H"), ("gus", G, "goblin", "G")):
        for number in range(1, 12):
            s.post(
                who,
                f"/api/v1/teams/{team_id}/players/",
                {"position": position, "name": f"{short}{number}", "number": number},
            )
    s.post("hal", f"/api/v1/teams/{H}/purchases/", {"item": "fan_factor", "quantity": 2})
    s.post("gus", f"/api/v1/teams/{G}/purchases/", {"item": "reroll", "quantity": 1})
    assert [(t["treasury"], t["team_value"], t["fan_factor"]) for t in (s.team(H), s.team(G))] == [
        (43_000, 57_000, 2),
        (50_000, 50_000, 0),
    ]
    h, g = s.ids(H), s.ids(G)
    mid = s.post("commish", "/api/v1/matches/", {"league": league, "teams": [H, G], "kind": "league"})["id"]

    # === Pre-match ===============================================================================================
    # 1. Weather (H, 2d6): 5 + 6 = 11 → Pouring Rain. Rolled by the home coach.
    state = s.prematch("hal", mid, "weather", rolls={"weather": [5, 6]})
    assert (state["weather"], state["step"]) == ("pouring_rain", "fans")
    # Fans (H): Hawks (5 + 6 + FF 2) × 1,000 = 13,000; Gobbos (3 + 3 + FF 0) × 1,000 = 6,000; gate 19,000.
    #   FAME: Hawks 13,000 ≥ 2 × 6,000 → 2; Gobbos 6,000 ≤ 13,000 → 0. Rolled by the away coach.
    # Budgets (R): TV 57,000 against 50,000 → the Gobbos are the underdog and receive 7,000 inducement gil;
    #   no stadium, no +5,000. The Hawks shop first, from their treasury only.
    state = s.prematch("gus", mid, "fans", rolls={"fans": {str(H): [5, 6], str(G): [3, 3]}})
    assert state["fans"] == {str(H): 13_000, str(G): 6_000}
    assert (state["gate"], state["fame"]) == (19_000, {str(H): 2, str(G): 0})
    assert state["team_values"] == {str(H): 57_000, str(G): 50_000}
    assert (state["superior"], state["underdog"], state["shopping"]) == (H, G, H)
    assert state["budgets"] == {
        str(H): {"induced": 0, "treasury_spent": 0, "remaining": 0},
        str(G): {"induced": 7_000, "treasury_spent": 0, "remaining": 7_000},
    }

    # 2. Inducements. Hawks: a keg 5,000 + a mercenary Blitzer with Tackle (9,000 + 3,000 + 5,000 = 17,000)
    #   = 22,000, all from the treasury when the turn closes: 43,000 − 22,000 = 21,000.
    assert s.buy("hal", mid, H, "keg")["price"] == 5_000
    merc = s.buy("hal", mid, H, "mercenary", position="blitzer", skill="Tackle")
    assert (merc["position"], merc["skill"], merc["price"]) == ("blitzer", "Tackle", 17_000)
    assert s.team(H)["treasury"] == 43_000  # nothing moves before the turn closes
    state = s.prematch("hal", mid, "inducements_superior", choices={"done": True})
    assert lines(state, "inducements_superior")[-1] == "22,000 gil of it comes from the treasury."
    assert state["shopping"] == G
    assert s.team(H)["treasury"] == 21_000
    # Gobbos: a chef (30,000) bought and given back; 2 bribes at the Goblin price 2 × 5,000 = 10,000 and
    #   Gizzik Quickfingers 10,000 = 20,000: 7,000 of inducement gil, 13,000 from the treasury → 37,000.
    chef = s.buy("gus", mid, G, "chef")
    s.delete("gus", f"/api/v1/matches/{mid}/inducements/{G}/{chef['id']}/")
    assert s.buy("gus", mid, G, "bribe", 2)["price"] == 10_000
    assert s.buy("gus", mid, G, "star_player", star="gizzik_quickfingers")["price"] == 10_000
    state = s.prematch("gus", mid, "inducements_underdog", choices={"done": True})
    assert (state["complete"], state["step"], state["shared_stars"]) == (True, None, [])
    assert state["budgets"] == {
        str(H): {"induced": 0, "treasury_spent": 22_000, "remaining": 0},
        str(G): {"induced": 7_000, "treasury_spent": 13_000, "remaining": 0},
    }
    assert {k: [(i["item"], i["quantity"], i["price"]) for i in v] for k, v in state["inducements"].items()} == {
        str(H): [("keg", 1, 5_000), ("mercenary", 1, 17_000)],
        str(G): [("bribe", 2, 10_000), ("star_player", 1, 10_000)],
    }
    assert (s.team(H)["treasury"], s.team(G)["treasury"]) == (21_000, 37_000)

    # === The match ===============================================================================================
    # Hawks 2–1 Gobbos, no `fame` in the result: H1, H2 one touchdown each (3 SPP), H4 a casualty (2 SPP), MVP H3
    #   (5 SPP); G5 a touchdown (3 SPP), MVP G6 (5 SPP). Nobody reaches 6 SPP: no improvement rolls.
    result = {
        "teams": [
            {"team": H, "score": 2, "casualties_inflicted": 1, "mvp": h[3]},
            {"team": G, "score": 1, "casualties_inflicted": 0, "mvp": g[6]},
        ],
        "players": [
            {"player": h[1], "touchdowns": 1},
            {"player": h[2], "touchdowns": 1},
            {"player": h[4], "casualties": 1},
            {"player": g[5], "touchdowns": 1},
        ],
    }
    assert s.post("hal", f"/api/v1/matches/{mid}/result/", result)["status"] == "submitted"
    assert s.post("gus", f"/api/v1/matches/{mid}/confirm/", status=200)["status"] == "final"
    # The FAME of the fans step is the match's.
    sides = s.get(f"/api/v1/matches/{mid}/")["sides"]
    assert [(side["team"], side["fame"], side["league_points"]) for side in sides] == [(H, 2, 3), (G, 0, 0)]

    # === Post-match ==============================================================================================
    # Hawks (won, FAME 2): winnings 4, not re-rolled: 4 × 1,000 + FAME 2 × 1,000 + win 1,000 = 7,000.
    #   Fan Factor: won, 3d6 1 + 1 + 1 = 3 > 2 → FF 3. Treasury 21,000 + 7,000 = 28,000.
    #   Prepare: bracket 20,000–29,999, d6 3 → averted. TV: 11 × 5,000 + FF 3 × 1,000 = 58,000 (the mercenary
    #   was for this match only).
    state = s.walk(
        "hal",
        mid,
        H,
        fortune=(
            {"reroll_winnings": False, "seek_sponsor": False},
            {"winnings": [4], "fan_factor": [1, 1, 1]},
        ),
        prepare=({}, {"expensive_mistakes": [3]}),
    )
    assert "Winnings: 4 × 1,000 + FAME 2 × 1,000 + win 1,000 = 7,000 gil." in lines(state, "fortune")
    assert lines(state, "prepare")[-1] == "Team Value recorded: 58,000 gil."
    # Gobbos (lost, FAME 0): winnings 2 × 1,000 = 2,000. Fan Factor: lost, 2d6 1 + 1 = 2 is not below FF 0 → 0.
    #   Treasury 37,000 + 2,000 = 39,000. Prepare: bracket 30,000–39,999, d6 4 → averted.
    #   TV: 11 × 4,000 + re-roll 6,000 = 50,000.
    state = s.walk(
        "gus",
        mid,
        G,
        fortune=({"seek_sponsor": False}, {"winnings": [2], "fan_factor": [1, 1]}),
        prepare=({}, {"expensive_mistakes": [4]}),
    )
    assert "Winnings: 2 × 1,000 + FAME 0 × 1,000 = 2,000 gil." in lines(state, "fortune")
    assert lines(state, "prepare")[-1] == "Team Value recorded: 50,000 gil."

    # === The end =================================================================================================
    hawks, gobbos = s.team(H), s.team(G)
    assert [(t["treasury"], t["fan_factor"], t["team_value"], len(t["players"])) for t in (hawks, gobbos)] == [
        (28_000, 3, 58_000, 11),
        (39_000, 0, 50_000, 11),
    ]
    # Hawks: 100,000 − 11 × 5,000 − 2,000 FF − 22,000 inducements + 7,000 winnings = 28,000.
    # Gobbos: 100,000 − 11 × 4,000 − 6,000 re-roll − 13,000 inducements + 2,000 winnings = 39,000.
    ledger_h, ledger_g = s.ledger(H), s.ledger(G)
    assert [a for a, _ in ledger_h] == [100_000, *[-5_000] * 11, -2_000, -22_000, 7_000]
    assert [a for a, _ in ledger_g] == [100_000, *[-4_000] * 11, -6_000, -13_000, 2_000]
    assert [k for _, k in ledger_h[-2:]] == [k for _, k in ledger_g[-2:]] == ["inducements", "winnings"]
    inducement_entries = [e for e in s.get(f"/api/v1/teams/{H}/ledger/") if e["kind"] == "inducements"]
    assert [(e["match"], e["balance_after"]) for e in inducement_entries] == [(mid, 21_000)]
    spp = {p["number"]: p["spp"] for p in hawks["players"]}
    assert (spp[1], spp[2], spp[3], spp[4], sum(spp.values())) == (3, 3, 5, 2, 13)
    assert sum(p["spp"] for p in gobbos["players"]) == 8

    # Every die was entered at the table: the pre-match's first, then each post-match sequence's.
    rolls = s.get(f"/api/v1/matches/{mid}/rolls/")
    assert all(r["entered"] for r in rolls)
    assert [(r["step"], r["team"], r["key"], r["values"]) for r in rolls[:3]] == [
        ("weather", None, "weather", [5, 6]),
        ("fans", H, "fans", [5, 6]),
        ("fans", G, "fans", [3, 3]),
    ]
    assert {r["key"] for r in rolls[3:]} == {"winnings", "fan_factor", "expensive_mistakes"}

    standings = s.get(f"/api/v1/leagues/{league}/standings/")
    columns = ("position", "team", "played", "won", "drawn", "lost", "points", "scored", "conceded")
    rows = [tuple(r[c] for c in (*columns, "casualties_inflicted")) for r in standings["rows"]]
    assert rows == [(1, H, 1, 1, 0, 0, 3, 2, 1, 1), (2, G, 1, 0, 0, 1, 0, 1, 2, 0)]
