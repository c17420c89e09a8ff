"""A golden Blitz Bowl season, through the public API only, every result and every die entered by hand.

Four coaches register, the commissioner creates the league, adds them and a stadium with a special attribute;
each coach creates a Hume team of eleven linemen (5,000 gil each) and makes creation purchases. Two rounds:

    round 1   M1  Zeal Zebras 2–1 Amber Aardvarks          (no stadium)
              M2  Crimson Crows 1–1 Dusk Dingos              (The Lava Pit, "Lava moat")
    round 2   M3  Crimson Crows 1–0 Zeal Zebras, conceded    (The Lava Pit, by then the Crows' home)
              M4  Amber Aardvarks 1–0 Dusk Dingos            (no stadium)

Both teams of every match walk all five steps. Every number asserted at the end is worked out by hand in the
comments (rules: ../shared/rules/blitzbowl.md; house defaults: campaigns/rulesets/blitzbowl/data/house_rules.json).
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.invites import invite_and_accept

pytestmark = pytest.mark.django_db

PASSWORD = "Golden-Season-Pass-7"
STEPS = ["improvements", "team_stats", "fortune", "hire_fire", "prepare"]


class Season:
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

    def get(self, url: str) -> dict | list:
        r = self.public.get(url)
        assert r.status_code == 200, (url, r.status_code)
        return r.json()

    def team(self, team_id: int) -> dict:
        return self.get(f"/api/v1/teams/{team_id}/")

    def ids(self, team_id: int) -> dict[int, int]:
        """Shirt number → player id."""
        return {p["number"]: p["id"] for p in self.team(team_id)["players"] if p["number"] is not None}

    def journeymen(self, team_id: int) -> list[int]:
        return [p["id"] for p in self.team(team_id)["players"] if p["status"] == "journeyman"]

    def play(self, who_schedules, league, home, away, result, submitter, confirmer, stadium=None) -> int:
        body = {"league": league, "teams": [home, away], "kind": "league"}
        if stadium:
            body["stadium"] = stadium
        mid = self.post(who_schedules, "/api/v1/matches/", body)["id"]
        assert self.post(submitter, f"/api/v1/matches/{mid}/result/", result)["status"] == "submitted"
        assert self.post(confirmer, f"/api/v1/matches/{mid}/confirm/", status=200)["status"] == "final"
        return mid

    def walk(self, who: str, mid: int, team_id: int, **steps) -> dict:
        """All five steps in order; `steps[name] = (choices, rolls)`. No step may pause."""
        state = None
        for name in STEPS:
            choices, rolls = steps.get(name, ({}, {}))
            state = self._step(who, mid, team_id, name, choices, rolls)
        assert state["complete"] is True
        return state

    def _step(self, who, mid, team_id, name, choices, rolls) -> dict:
        r = self.clients[who].post(
            f"/api/v1/matches/{mid}/aftermath/{team_id}/",
            {"step": name, "choices": choices, "rolls": rolls},
            format="json",
        )
        assert r.status_code == 200, (name, r.json())
        assert r.json()["pending"] is None, (name, r.json()["pending"])
        return r.json()

    def ledger(self, team_id: int, account: str = "treasury") -> list[int]:
        return [e["amount"] for e in self.get(f"/api/v1/teams/{team_id}/ledger/?account={account}")]


def last_line(state: dict) -> str:
    return state["log"][-1]["lines"][-1]


def step_lines(state: dict, step: str) -> list[str]:
    return next(e["lines"] for e in state["log"] if e["step"] == step)


def test_a_four_team_season_of_two_rounds_lands_on_hand_worked_numbers():
    s = Season()

    # --- the league, through the API ------------------------------------------------------------------------
    for name in ("commish", "zoe", "abe", "cal", "dot"):
        s.register(name)
    league = s.post("commish", "/api/v1/leagues/", {"name": "Golden Cup", "ruleset": "blitzbowl"})["id"]
    for coach in ("zoe", "abe", "cal", "dot"):
        invite_and_accept(s, commissioner="commish", league=league, who=coach)
    lava = s.post(
        "commish", f"/api/v1/leagues/{league}/stadiums/", {"name": "The Lava Pit", "special_attribute": "Lava moat"}
    )["id"]

    teams = {}
    for coach, name, short in (
        ("zoe", "Zeal Zebras", "Z"),
        ("abe", "Amber Aardvarks", "A"),
        ("cal", "Crimson Crows", "C"),
        ("dot", "Dusk Dingos", "D"),
    ):
        team = s.post(coach, "/api/v1/teams/", {"league": league, "name": name, "roster": "hume"})
        assert (team["treasury"], team["fan_factor"]) == (100_000, 0)
        for number in range(1, 12):
            s.post(
                coach,
                f"/api/v1/teams/{team['id']}/players/",
                {"position": "lineman", "name": f"{short}{number}", "number": number},
            )
        teams[short] = team["id"]
    Z, A, C, D = teams["Z"], teams["A"], teams["C"], teams["D"]
    # In creation: FF costs 1,000 a point; a re-roll costs its base 5,000 (H).
    s.post("zoe", f"/api/v1/teams/{Z}/purchases/", {"item": "fan_factor", "quantity": 3})
    s.post("cal", f"/api/v1/teams/{C}/purchases/", {"item": "fan_factor", "quantity": 2})
    s.post("dot", f"/api/v1/teams/{D}/purchases/", {"item": "reroll", "quantity": 1})

    # Zebras:    100,000 − 11 × 5,000 linemen − 3 × 1,000 FF = 42,000; TV 55,000 + FF 3,000 = 58,000
    # Aardvarks: 100,000 − 55,000 = 45,000;                          TV 55,000
    # Crows:     100,000 − 55,000 − 2 × 1,000 FF = 43,000;           TV 55,000 + FF 2,000 = 57,000
    # Dingos:    100,000 − 55,000 − 5,000 re-roll = 40,000;          TV 55,000 + re-roll 5,000 = 60,000
    start = {Z: (42_000, 3, 58_000), A: (45_000, 0, 55_000), C: (43_000, 2, 57_000), D: (40_000, 0, 60_000)}
    for team_id, expected in start.items():
        team = s.team(team_id)
        assert (team["treasury"], team["fan_factor"], team["team_value"]) == expected
    z, a, c, d = s.ids(Z), s.ids(A), s.ids(C), s.ids(D)

    # === Round 1 ==============================================================================================
    # --- M1: Zebras 2–1 Aardvarks. Zebras' FAME 1. Z1: 2 TD (6 SPP) + MVP (5) = 11 SPP; Z2: 1 casualty = 2 SPP;
    #     A5: 1 TD = 3 SPP; A7: MVP = 5 SPP. A9 is hurt: misses the next match.
    m1 = s.play(
        "commish",
        league,
        Z,
        A,
        {
            "teams": [
                {"team": Z, "score": 2, "casualties_inflicted": 1, "mvp": z[1], "fame": 1},
                {"team": A, "score": 1, "casualties_inflicted": 0, "mvp": a[7], "fame": 0},
            ],
            "players": [
                {"player": z[1], "touchdowns": 2},
                {"player": z[2], "casualties": 1},
                {"player": a[5], "touchdowns": 1},
                {"player": a[9], "injury": "miss_next_match"},
            ],
        },
        "zoe",
        "abe",
    )
    # Zebras: Z1 0 → 11 SPP passes the level at 6: improvement 5 + 6 = 11 → +AG (value +4,000: 9,000).
    #   Fortune: winnings 1, re-rolled to 5 (kept): 5 × 1,000 + FAME 1 × 1,000 + win 1,000 = 7,000.
    #   Fan Factor: won, 3d6 2 + 3 + 4 = 9 > 3 → FF 4.
    #   Sponsor: d20 19 + FF 4 (after the change) + won 2 = 25 → Ongoing Sponsorship (margin 1, 1 casualty: no more).
    #   Treasury 42,000 + 7,000 = 49,000. Prepare: bracket 40,000–49,999, d6 4 → minor, d3 2 → −2,000 = 47,000.
    #   TV: Z1 9,000 + 10 × 5,000 + FF 4 × 1,000 = 63,000.
    state = s.walk(
        "zoe",
        m1,
        Z,
        improvements=({"improvements": {str(z[1]): ["ag"]}}, {"improvement": [5, 6]}),
        fortune=(
            {"reroll_winnings": True, "seek_sponsor": True},
            {"winnings": [1], "winnings_reroll": [5], "fan_factor": [2, 3, 4], "sponsorship": [19]},
        ),
        prepare=({}, {"expensive_mistakes": [4], "expensive_mistakes_amount": [2]}),
    )
    assert "Sponsorship: d20 19 +4 Fan Factor +2 won = 25: Ongoing Sponsorship (25 or more)." in step_lines(
        state, "fortune"
    )
    assert last_line(state) == "Team Value recorded: 63,000 gil."
    # Aardvarks: no level (A5 3, A7 5 SPP). Winnings 3 × 1,000 = 3,000 (lost: no bonus; FAME 0).
    #   Fan Factor: lost, 2d6 3 + 3 = 6 is not below FF 0 → 0. Treasury 45,000 + 3,000 = 48,000.
    #   Prepare: bracket 40,000–49,999, d6 5 → averted. A9 misses M4: 10 can play → 1 journeyman (5,000, Loner).
    #   TV: 10 × 5,000 + journeyman 5,000 + FF 0 = 55,000 (A9 does not count).
    state = s.walk(
        "abe",
        m1,
        A,
        fortune=({"seek_sponsor": False}, {"winnings": [3], "fan_factor": [3, 3]}),
        prepare=({}, {"expensive_mistakes": [5]}),
    )
    assert last_line(state) == "Team Value recorded: 55,000 gil."
    (aj,) = s.journeymen(A)

    # --- M2: Crows 1–1 Dingos at The Lava Pit (special attribute, nobody's home yet). C1, D1: 1 TD = 3 SPP each;
    #     MVPs C2, D2: 5 SPP each.
    m2 = s.play(
        "commish",
        league,
        C,
        D,
        {
            "teams": [
                {"team": C, "score": 1, "casualties_inflicted": 0, "mvp": c[2]},
                {"team": D, "score": 1, "casualties_inflicted": 0, "mvp": d[2]},
            ],
            "players": [{"player": c[1], "touchdowns": 1}, {"player": d[1], "touchdowns": 1}],
        },
        "cal",
        "dot",
        stadium=lava,
    )
    # Dingos walk first. Winnings 5 × 1,000 + draw 1,000 = 6,000. Residency attempt: d6 2 + 0 (drawn) = 2 ≤ 5 →
    #   rejected. Fan Factor: drawn, 2d6 2 + 2 = 4 > 0 → FF 1. Treasury 40,000 + 6,000 = 46,000.
    #   Prepare: bracket 40,000–49,999, d6 6 → averted. TV 55,000 + re-roll 5,000 + FF 1,000 = 61,000.
    state = s.walk(
        "dot",
        m2,
        D,
        fortune=(
            {"residency": "attempt", "seek_sponsor": False},
            {"winnings": [5], "residency": [2], "fan_factor": [2, 2]},
        ),
        prepare=({}, {"expensive_mistakes": [6]}),
    )
    assert "Residency: d6 2 = 2: Rejected! No deal." in step_lines(state, "fortune")
    assert last_line(state) == "Team Value recorded: 61,000 gil."
    # Crows. Winnings 3 × 1,000 + draw 1,000 = 4,000. Residency: d6 6 + 0 = 6 → "It'll cost you": accepted, all
    #   4,000 of this match's winnings paid → The Lava Pit is the Crows' home. Fan Factor: drawn, 1 + 1 = 2 = FF 2 →
    #   no change. Treasury 43,000 + 4,000 − 4,000 = 43,000. Hire and fire: 1 Stadium Fund payment: −7,000
    #   (36,000), +5,000 in the fund. Prepare: bracket 30,000–39,999, d6 4 → averted. TV 55,000 + FF 2,000 = 57,000.
    state = s.walk(
        "cal",
        m2,
        C,
        fortune=(
            {"residency": "accept_cost", "seek_sponsor": False},
            {"winnings": [3], "residency": [6], "fan_factor": [1, 1]},
        ),
        hire_fire=({"stadium_fund_payments": 1}, {}),
        prepare=({}, {"expensive_mistakes": [4]}),
    )
    assert "Paid this match's winnings (4,000 gil): The Lava Pit is home." in step_lines(state, "fortune")
    assert last_line(state) == "Team Value recorded: 57,000 gil."
    crows = s.team(C)
    assert (crows["home_stadium"], crows["owns_stadium"], crows["stadium_fund"]) == (lava, False, 5_000)

    # === Round 2 ==============================================================================================
    # --- M3: Crows 1–0 Zebras at The Lava Pit, the Zebras concede. Crows' FAME 1. C3: 1 TD = 3 SPP.
    #     R: the winner gains the conceder's MVP: C2 (Crows' MVP) gets 5 + 5 = 10 SPP (5 → 15); Z4, the MVP the
    #     Zebras named, gets nothing.
    m3 = s.play(
        "commish",
        league,
        C,
        Z,
        {
            "teams": [
                {"team": C, "score": 1, "casualties_inflicted": 0, "mvp": c[2], "fame": 1},
                {"team": Z, "score": 0, "casualties_inflicted": 0, "mvp": z[4], "conceded": True},
            ],
            "players": [{"player": c[3], "touchdowns": 1}],
        },
        "cal",
        "zoe",
        stadium=lava,
    )
    # Crows: C2 5 → 15 passes 6: improvement 3 + 3 = 6, a double → Dodge (Agility, double access: +3,000 → 8,000).
    #   Fortune: own winnings 2, re-rolled to 1 — the worse second die must be kept: 1 × 1,000 + FAME 1 × 1,000
    #   + win 1,000 = 3,000; plus the conceder's winnings: 6 × 1,000 + FAME 0 = 6,000 → 9,000.
    #   Its own home stadium: no residency deal; not owned: no stadium bonus.
    #   Fan Factor: won, 3d6 1 + 1 + 1 = 3 > 2 → FF 3. Treasury 36,000 + 9,000 = 45,000.
    #   Hire and fire: 1 more fund payment: −7,000 (38,000), fund 10,000; buy The Lava Pit for 25,000:
    #   10,000 from the fund + 15,000 from the treasury → 23,000, fund 0, owned.
    #   Prepare: bracket 20,000–29,999, d6 3 → averted. TV: C2 8,000 + 10 × 5,000 + FF 3,000 = 61,000.
    state = s.walk(
        "cal",
        m3,
        C,
        improvements=({"improvements": {str(c[2]): ["Dodge"]}}, {"improvement": [3, 3]}),
        fortune=(
            {"reroll_winnings": True, "seek_sponsor": False},
            {"winnings": [2, 6], "winnings_reroll": [1], "fan_factor": [1, 1, 1]},
        ),
        hire_fire=({"stadium_fund_payments": 1, "buy_stadium": True}, {}),
        prepare=({}, {"expensive_mistakes": [3]}),
    )
    assert step_lines(state, "fortune")[:5] == [
        "Re-rolled the winnings die: 2 → 1 (the second result stands).",
        "Winnings: 1 × 1,000 + FAME 1 × 1,000 + win 1,000 = 3,000 gil.",
        "The opponent conceded: its winnings are ours.",
        "Winnings: 6 × 1,000 + FAME 0 × 1,000 = 6,000 gil.",
        "Winnings paid into the treasury: +9,000 gil.",
    ]
    assert "Bought The Lava Pit for 25,000 gil (10,000 gil from the Stadium Fund)." in step_lines(state, "hire_fire")
    assert last_line(state) == "Team Value recorded: 61,000 gil."
    # Zebras (conceded): no improvements; nobody has 51 SPP, so nobody rolls to leave. No winnings. No residency
    #   deal (the Crows' home). FF 4 − 1 = 3 without rolling. The Ongoing Sponsorship gained in M1 pays now
    #   (I: from the next match): d3 3 → +3,000; its risk d6 1 → random player 1d11 = 5 → Z5 misses the next match.
    #   Kept (end none). Treasury 47,000 + 3,000 = 50,000. Prepare: bracket 50,000–59,999, d6 6 → averted.
    #   Z5 missing: 10 can play → 1 journeyman. TV: Z1 9,000 + 9 × 5,000 + journeyman 5,000 + FF 3,000 = 62,000.
    state = s.walk(
        "zoe",
        m3,
        Z,
        fortune=(
            {"seek_sponsor": False, "end_sponsorships": []},
            {"ongoing_amount": [3], "ongoing_risk": [1], "random_player": [5]},
        ),
        prepare=({}, {"expensive_mistakes": [6]}),
    )
    assert step_lines(state, "fortune") == [
        "Conceded: no winnings (they go to the opponent).",
        "Conceded: Fan Factor −1 automatically, without rolling (4 → 3).",
        "Ongoing Sponsorship: 3 × 1,000 = 3,000 gil; risk roll 1: a random player misses the next match.",
        "Random player (1d11 = 5): Z5 misses the next match.",
    ]
    assert last_line(state) == "Team Value recorded: 62,000 gil."

    # --- M4: Aardvarks 1–0 Dingos. A9 sits out (he missed it); the journeyman plays and is MVP (5 SPP).
    #     A6: 1 TD + 1 casualty = 3 + 2 = 5 SPP. Dingos' MVP D3: 5 SPP.
    m4 = s.play(
        "commish",
        league,
        A,
        D,
        {
            "teams": [
                {"team": A, "score": 1, "casualties_inflicted": 1, "mvp": aj},
                {"team": D, "score": 0, "casualties_inflicted": 0, "mvp": d[3]},
            ],
            "players": [{"player": a[6], "touchdowns": 1, "casualties": 1}],
        },
        "abe",
        "dot",
    )
    # Aardvarks: winnings 4 × 1,000 + win 1,000 = 5,000 (no re-roll). Fan Factor: won, 6 + 6 + 6 = 18 > 0 → FF 1.
    #   Sponsor: d20 10 + FF 1 + won 2 = 13 → none. Treasury 48,000 + 5,000 = 53,000.
    #   Hire and fire: hire the journeyman at rookie cost −5,000 → 48,000 (he loses Loner, keeps his 5 SPP).
    #   Prepare: bracket 40,000–49,999, d6 1 → major: half of 48,000 = 24,000 (already a multiple of 500) → 24,000.
    #   TV: 12 × 5,000 (A9 is back) + FF 1,000 = 61,000.
    state = s.walk(
        "abe",
        m4,
        A,
        fortune=(
            {"reroll_winnings": False, "seek_sponsor": True},
            {"winnings": [4], "fan_factor": [6, 6, 6], "sponsorship": [10]},
        ),
        hire_fire=({"hire_journeymen": [aj]}, {}),
        prepare=({}, {"expensive_mistakes": [1]}),
    )
    assert "Sponsorship: d20 10 +1 Fan Factor +2 won = 13: no sponsor (below 20)." in step_lines(state, "fortune")
    assert last_line(state) == "Team Value recorded: 61,000 gil."
    # Dingos: winnings 2 × 1,000 = 2,000. Fan Factor: lost, 1 + 2 = 3 is not below FF 1 → 1.
    #   Treasury 46,000 + 2,000 = 48,000. Prepare: d6 5 → averted. TV 55,000 + 5,000 + 1,000 = 61,000.
    state = s.walk(
        "dot",
        m4,
        D,
        fortune=({"seek_sponsor": False}, {"winnings": [2], "fan_factor": [1, 2]}),
        prepare=({}, {"expensive_mistakes": [5]}),
    )
    assert last_line(state) == "Team Value recorded: 61,000 gil."

    # === The end of the season ==================================================================================
    # Every die of every match was entered at the table; every sequence is complete.
    for mid in (m1, m2, m3, m4):
        rolls = s.get(f"/api/v1/matches/{mid}/rolls/")
        assert rolls and all(r["entered"] for r in rolls), [r for r in rolls if not r["entered"]]
        assert all(a["complete"] for a in s.get(f"/api/v1/matches/{mid}/")["aftermath"])

    # Treasuries, Fan Factor, Team Value, stadiums, sponsorships.
    zebras, aardvarks, crows, dingos = s.team(Z), s.team(A), s.team(C), s.team(D)
    # Zebras:    42,000 + 7,000 winnings − 2,000 minor mistake + 3,000 sponsorship = 50,000; FF 3 + 1 − 1 = 3.
    # Aardvarks: 45,000 + 3,000 + 5,000 winnings − 5,000 journeyman − 24,000 major mistake = 24,000; FF 1.
    # Crows:     43,000 + 4,000 − 4,000 residency − 7,000 fund + 9,000 − 7,000 fund − 15,000 purchase = 23,000;
    #            FF 2 + 0 + 1 = 3.
    # Dingos:    40,000 + 6,000 + 2,000 winnings = 48,000; FF 0 + 1 + 0 = 1.
    assert [(t["treasury"], t["fan_factor"], t["team_value"]) for t in (zebras, aardvarks, crows, dingos)] == [
        (50_000, 3, 62_000),
        (24_000, 1, 61_000),
        (23_000, 3, 61_000),
        (48_000, 1, 61_000),
    ]
    hires = [100_000] + [-5_000] * 11
    assert s.ledger(Z) == [*hires, -3_000, 7_000, -2_000, 3_000]
    assert s.ledger(A) == [*hires, 3_000, 5_000, -5_000, -24_000]
    assert s.ledger(C) == [*hires, -2_000, 4_000, -4_000, -7_000, 9_000, -7_000, -15_000]
    assert s.ledger(D) == [*hires, -5_000, 6_000, 2_000]
    assert s.ledger(C, "stadium_fund") == [5_000, 5_000, -10_000]
    assert [(t["home_stadium"], t["owns_stadium"], t["stadium_fund"]) for t in (zebras, aardvarks, crows, dingos)] == [
        (None, False, 0),
        (None, False, 0),
        (lava, True, 0),
        (None, False, 0),
    ]
    assert [sp["name"] for sp in zebras["sponsorships"]] == [f"Sponsor of match #{m1}"]
    assert aardvarks["sponsorships"] == crows["sponsorships"] == dingos["sponsorships"] == []

    # Players: SPP, value, skills, attributes, status.
    def sheet(team: dict) -> dict:
        return {p["name"]: p for p in team["players"]}

    zs, as_, cs, ds = sheet(zebras), sheet(aardvarks), sheet(crows), sheet(dingos)
    assert (zs["Z1"]["spp"], zs["Z1"]["value"], zs["Z1"]["attributes"]["ag"]) == (11, 9_000, 4)
    assert (zs["Z2"]["spp"], zs["Z4"]["spp"], zs["Z5"]["status"]) == (2, 0, "miss_next_match")
    assert [(p["status"], p["skills"], p["value"]) for p in zebras["players"] if p["number"] is None] == [
        ("journeyman", ["Loner"], 5_000)
    ]
    assert (cs["C1"]["spp"], cs["C2"]["spp"], cs["C3"]["spp"]) == (3, 15, 3)
    assert (cs["C2"]["skills"], cs["C2"]["value"]) == (["Dodge"], 8_000)
    hired = next(p for p in aardvarks["players"] if p["id"] == aj)
    assert (hired["status"], hired["skills"], hired["spp"], hired["value"]) == ("active", [], 5, 5_000)
    assert (as_["A5"]["spp"], as_["A6"]["spp"], as_["A7"]["spp"], as_["A9"]["status"]) == (3, 5, 5, "active")
    assert len(aardvarks["players"]) == 12
    assert (ds["D1"]["spp"], ds["D2"]["spp"], ds["D3"]["spp"]) == (3, 5, 5)
    assert sum(p["spp"] for p in dingos["players"]) == 13

    # League points per match: M1 3/0, M2 1/1, M3 3/0 (the concession is a loss), M4 3/0.
    points = {
        mid: [(side["team"], side["league_points"]) for side in s.get(f"/api/v1/matches/{mid}/")["sides"]]
        for mid in (m1, m2, m3, m4)
    }
    assert points == {m1: [(Z, 3), (A, 0)], m2: [(C, 1), (D, 1)], m3: [(C, 3), (Z, 0)], m4: [(A, 3), (D, 0)]}

    # Standings. Crows: D + W = 4 pts. Zebras and Aardvarks: 3 pts each, touchdown difference (2−2 = 0 each) and
    # casualties inflicted (1 each) tie too, so head-to-head decides: the Zebras beat the Aardvarks in M1 (3 − 0)
    # — ahead of them although "Amber" comes before "Zeal" by name. Dingos: D + L = 1 pt.
    standings = s.get(f"/api/v1/leagues/{league}/standings/")
    assert standings["league"] == league
    rows = [
        (
            r["position"],
            r["name"],
            r["played"],
            r["won"],
            r["drawn"],
            r["lost"],
            r["points"],
            r["scored"],
            r["conceded"],
            r["casualties_inflicted"],
        )
        for r in standings["rows"]
    ]
    assert rows == [
        (1, "Crimson Crows", 2, 1, 1, 0, 4, 2, 1, 0),
        (2, "Zeal Zebras", 2, 1, 0, 1, 3, 2, 2, 1),
        (3, "Amber Aardvarks", 2, 1, 0, 1, 3, 2, 2, 1),
        (4, "Dusk Dingos", 2, 0, 1, 1, 1, 1, 2, 0),
    ]
    assert [r["team"] for r in standings["rows"]] == [C, Z, A, D]
