"""An ElfBall campaign end to end, through the public API: a golden season with hand-worked numbers, then one
focused test per rule. Marks as in ../shared/rules/elfball.md: R rulebook, I interpretation, H house default.

The golden season — four teams, a single round robin (league default 2 Tests to win, some matches agreed longer):

    round 1   M1  Ash Widows 9–4 Bog Razorbacks        (9 Tests to win; B4 career-ending)
              M2  Cinder Winds 2–1 Dune Dogs           (C1 lasting injury, four attributes tied; D3 potion 2)
    round 2   M3  Ash Widows 3–1 Cinder Winds          (1–1 in Tests, the Winds concede: the Widows' score is 3)
              M4  Bog Razorbacks 2–1 Dune Dogs         (D5 potion 1: dies)
    round 3   M5  Ash Widows 9–2 Dune Dogs             (9 Tests to win; the Widows' striker A7 reaches 20 GP)
              M6  Bog Razorbacks 1–1 Cinder Winds      (neither team can face off: a tie)

Every team walks the four ElfBall post-match steps after each match (goal_points, abilities, injuries,
team_stats). Every number asserted is worked out by hand in the comments.
"""

from __future__ import annotations

import pytest

from matches.models import Match, Roll
from teams.models import Player
from tests.factories import LeagueFactory, TeamFactory, hire
from tests.invites import invite_and_accept

from .elfball_helpers import ElfSeason, goals, last_line, refused

pytestmark = pytest.mark.django_db

WIDOWS = ["hunter", "hunter", "midfielder", "midfielder", "midfielder", "midfielder", "striker", "striker", "striker"]
RAZORBACKS = ["hunter"] * 4 + ["midfielder"] * 4
DIVINE_WIND = ["defender", "defender", "hunter", "hunter"] + ["midfielder"] * 4
DESERT_DOGS = ["defender"] + ["midfielder"] * 5 + ["safety"] * 2
BASICS = ["push", "buff", "grapple", "nimble", "agile", "resilient"]


def test_an_elfball_season_of_three_rounds_lands_on_hand_worked_numbers():
    s = ElfSeason()

    # --- the league and four teams, through the API --------------------------------------------------------
    for name in ("commish", "ann", "ben", "cat", "dan"):
        s.register(name)
    league = s.post("commish", "/api/v1/leagues/", {"name": "Elf Cup", "ruleset": "elfball"})["id"]
    for coach in ("ann", "ben", "cat", "dan"):
        invite_and_accept(s, commissioner="commish", league=league, who=coach)
    lists = {r["key"]: r for r in s.get("/api/v1/rulesets/elfball/rosters/")}
    widows = {p["key"]: p for p in lists["black_widows"]["positions"]}
    assert set(widows) == {"hunter", "midfielder", "striker"}
    assert {p["cost"] for p in widows.values()} == {15}  # R: a rookie costs 15 points

    # R: 15 points a rookie; team support 5 (potion, beauty, cheerleader) or 20 (wizard) points each.
    A = s.build("ann", league, "Ash Widows", "black_widows", WIDOWS)  # 9 × 15 = 135
    B = s.build("ben", league, "Bog Razorbacks", "razorbacks", RAZORBACKS)  # 8 × 15 = 120
    C = s.build("cat", league, "Cinder Winds", "divine_wind", DIVINE_WIND)  # 8 × 15 = 120
    D = s.build("dan", league, "Dune Dogs", "desert_dogs", DESERT_DOGS)  # 8 × 15 = 120
    s.post("ann", f"/api/v1/teams/{A}/purchases/", {"item": "beer_garden_beauty", "quantity": 1})  # 135 + 5
    s.post("ben", f"/api/v1/teams/{B}/purchases/", {"item": "cheerleader", "quantity": 2})  # 120 + 10
    s.post("cat", f"/api/v1/teams/{C}/purchases/", {"item": "hired_gun_wizard", "quantity": 1})  # 120 + 20
    s.post("dan", f"/api/v1/teams/{D}/purchases/", {"item": "magic_potion", "quantity": 2})  # 120 + 10
    start = {A: (140, 9), B: (130, 8), C: (140, 8), D: (130, 8)}
    for team_id, (points, players) in start.items():
        team = s.team(team_id)
        assert (team["points_value"], team["points_budget"], len(team["players"])) == (points, 150, players)
    assert s.team(D)["staff"]["magic_potion"] == 2
    a, b, c, d = s.ids(A), s.ids(B), s.ids(C), s.ids(D)
    star = a[7]  # A7, a Black Widows Striker (Jog 5 Might 3 Tackle 2 Dodge 4 Skill 4 Grit 2)

    # === Round 1 ==============================================================================================
    # --- M1: Widows 9–4 Razorbacks, 9 Tests to win (agreed before the match, R). Each goal wins one Test.
    #     Widows' goals 1–5 with A7, A1, A2, A3 on the field; goals 6–9 with A7, A4, A5, A6, A8:
    #       A7 9 GP; A1, A2, A3 5 GP; A4, A5, A6, A8 4 GP; A9 0.
    #     Razorbacks' 4 goals with B1–B5 on the field: 4 GP each. B4 flops his Grit Challenge: career-ending.
    m1 = s.schedule("ann", league, A, B, tests_to_win=9)
    s.submit(
        "ann",
        m1,
        {
            "teams": [{"team": A, "score": 9}, {"team": B, "score": 4}],
            "goals": [
                *goals(A, [star, a[1], a[2], a[3]], 5),
                *goals(A, [star, a[4], a[5], a[6], a[8]], 4),
                *goals(B, [b[1], b[2], b[3], b[4], b[5]], 4),
            ],
            "players": [{"player": b[4], "injury": "career_ending"}],
        },
    )
    # Goal Points land when the result becomes final, not when it is submitted.
    assert s.by_number(A)[7]["goal_points"] == 0
    s.confirm("ben", m1)
    assert [s.by_number(A)[n]["goal_points"] for n in range(1, 10)] == [5, 5, 5, 4, 4, 4, 9, 4, 0]
    assert [s.by_number(B)[n]["goal_points"] for n in range(1, 9)] == [4, 4, 4, 4, 4, 0, 0, 0]
    sides = {x["team"]: x for x in s.get(f"/api/v1/matches/{m1}/")["sides"]}
    assert (sides[A]["score"], sides[A]["league_points"], sides[B]["score"], sides[B]["league_points"]) == (9, 3, 4, 0)

    # Razorbacks: nobody has 10 GP (no ability); B4 is removed at the injuries step: 7 × 15 + 10 = 115.
    state = s.get(f"/api/v1/matches/{m1}/aftermath/{B}/")
    assert (state["step"], state["steps"], state["complete"]) == (
        "goal_points",
        ["goal_points", "abilities", "injuries", "team_stats"],
        False,
    )
    state = s.walk("ben", m1, B)
    assert last_line(state) == "Team Value recorded: 115."
    razorbacks = s.team(B)
    assert (razorbacks["points_value"], len(razorbacks["players"])) == (115, 7)
    assert b[4] not in [p["id"] for p in razorbacks["players"]]

    # --- M2: Winds 2–1 Dogs (league default: 2 Tests to win). Winds' 2 goals with C1, C2, C3, C5 on the field
    #     (2 GP each); the Dogs' goal with D2, D3, D5, D7 (1 GP each).
    #     C1, a Defender (Jog 4 Might 4 Tackle 4 Dodge 2 Skill 2 Grit 4), scores 0 successes on his Grit
    #     Challenge: a lasting injury to his highest attribute — four tie, the result names none.
    #     D3, a Midfielder (Jog 5, the rest 3), drinks a Magic Potion: D12 2, a seizure (lasting injury, Jog alone
    #     highest: 5 → 4). The Dogs' stock 2 → 1.
    m2 = s.schedule("cat", league, C, D)
    s.submit(
        "dan",
        m2,
        {
            "teams": [{"team": C, "score": 2}, {"team": D, "score": 1}],
            "goals": [*goals(C, [c[1], c[2], c[3], c[5]], 2), *goals(D, [d[2], d[3], d[5], d[7]])],
            "players": [{"player": c[1], "injury": "lasting_injury"}],
            "potions": [{"player": d[3], "roll": 2}],
        },
    )
    s.confirm("cat", m2)
    assert [(r["key"], r["values"]) for r in s.get(f"/api/v1/matches/{m2}/rolls/") if r["key"] == "potion"] == [
        ("potion", [2])
    ]
    # Winds: the injuries step asks which of the tied attributes C1 loses (R: the coach chooses): Might, 4 → 3.
    for name in ("goal_points", "abilities"):
        s.step("cat", m2, C, name)
    state = s.step("cat", m2, C, "injuries")
    assert state["step"] == "injuries"
    assert (state["pending"]["decision"], state["pending"]["options"]) == (
        "lasting_injury",
        {str(c[1]): ["jog", "might", "tackle", "grit"]},
    )
    assert s.by_number(C)[1]["attributes"]["might"] == 4  # nothing applied while the step waits
    s.step("cat", m2, C, "team_stats", status=409)  # R: steps run in order
    state = s.step("cat", m2, C, "injuries", {"lasting_injury": {str(c[1]): "might"}})
    assert (state["step"], state["pending"]) == ("team_stats", None)
    state = s.step("cat", m2, C, "team_stats")
    assert state["complete"] and last_line(state) == "Team Value recorded: 140."  # no value lost
    c1 = s.by_number(C)[1]
    assert c1["attributes"] == {"jog": 4, "might": 3, "tackle": 4, "dodge": 2, "skill": 2, "grit": 4, "base": 25}
    assert [(i["match"], i["injury"]) for i in c1["injuries"]] == [(m2, "lasting_injury")]
    # Dogs: the potion is struck off (5 points less: 8 × 15 + 5 = 125); D3's Jog 5 → 4 without a question.
    state = s.walk("dan", m2, D)
    assert last_line(state) == "Team Value recorded: 125."
    dogs = s.team(D)
    assert (dogs["staff"]["magic_potion"], dogs["points_value"]) == (1, 125)
    assert s.by_number(D)[3]["attributes"] == {
        "jog": 4,
        "might": 3,
        "tackle": 3,
        "dodge": 3,
        "skill": 3,
        "grit": 3,
        "base": 25,
    }

    # === Round 2 ==============================================================================================
    # --- M3: Widows v Winds. A result for the Widows waits until their M1 sequence is complete.
    m3 = s.schedule("commish", league, A, C)
    m3_result = {
        "teams": [{"team": A, "score": 1}, {"team": C, "score": 1, "conceded": True}],
        "goals": [*goals(A, [star, a[1], a[4], a[9]]), *goals(C, [c[2], c[3], c[5], c[6]])],
        "players": [{"player": a[8], "injury": "out_for_game"}],
    }
    s.submit("cat", m3, m3_result, status=400)
    # Widows, M1: A7 has 9 GP, nobody 10: no ability; no injury. 140 points.
    state = s.walk("ann", m1, A)
    assert last_line(state) == "Team Value recorded: 140."

    # One Test each, then the Winds concede (R): they lose; the Widows' score becomes 3 goals; each Widow able to
    # play and not in the Infirmary gets 1 Goal Point — A8 (out for the game: Infirmary, I) does not.
    #   A7 9 + 1 goal + 1 = 11 (an ability at 10);  A1 5 + 1 + 1 = 7;  A2, A3 5 + 1 = 6;  A4 4 + 1 + 1 = 6;
    #   A5, A6 4 + 1 = 5;  A8 4;  A9 0 + 1 + 1 = 2.  Winds: C2, C3, C5 2 + 1 = 3; C6 1.
    s.submit("cat", m3, m3_result)
    s.confirm("ann", m3)
    sides = {x["team"]: x for x in s.get(f"/api/v1/matches/{m3}/")["sides"]}
    assert [(sides[t]["score"], sides[t]["outcome"], sides[t]["league_points"]) for t in (A, C)] == [
        (3, "win", 3),
        (1, "loss", 0),
    ]
    assert [s.by_number(A)[n]["goal_points"] for n in range(1, 10)] == [7, 6, 6, 6, 5, 5, 11, 4, 2]
    # Widows: the abilities step asks about A7 (11 GP, 1 entitlement, any Basic ability); he learns Push (Jog):
    # +5 points → 145.
    s.step("ann", m3, A, "goal_points")
    state = s.step("ann", m3, A, "abilities")
    assert state["pending"]["decision"] == "abilities"
    option = state["pending"]["options"][str(star)]
    assert (option["name"], option["entitlements"], option["learnable"]) == ("A7", 1, BASICS)
    assert list(state["pending"]["options"]) == [str(star)]
    state = s.step("ann", m3, A, "abilities", {"abilities": {str(star): ["push"]}})
    assert state["step"] == "injuries"
    state = s.step("ann", m3, A, "injuries")  # A8: out for the game, no lasting effect
    state = s.step("ann", m3, A, "team_stats")
    assert state["complete"] and last_line(state) == "Team Value recorded: 145."
    seven = s.by_number(A)[7]
    assert (seven["abilities"], seven["value"], seven["entitlements"]) == (["push"], 20, 0)
    state = s.walk("cat", m3, C)
    assert last_line(state) == "Team Value recorded: 140."
    # The Widows take on a cheerleader: 145 + 5 = 150, the whole budget.
    assert s.post("ann", f"/api/v1/teams/{A}/purchases/", {"item": "cheerleader", "quantity": 1})["points_value"] == 150

    # --- M4: Razorbacks 2–1 Dogs. Razorbacks' 2 goals with B1, B2, B5, B6 (B1, B2, B5 4 + 2 = 6; B6 2); the
    #     Dogs' goal with D2, D5, D6, D7 (D2, D5, D7 1 + 1 = 2; D6 1). D5 then drinks the Dogs' last potion:
    #     D12 1, he dies (memorial). Dogs: stock 1 → 0, 7 players: 7 × 15 = 105.
    m4 = s.schedule("ben", league, B, D)
    s.submit(
        "ben",
        m4,
        {
            "teams": [{"team": B, "score": 2}, {"team": D, "score": 1}],
            "goals": [*goals(B, [b[1], b[2], b[5], b[6]], 2), *goals(D, [d[2], d[5], d[6], d[7]])],
            "potions": [{"player": d[5], "roll": 1}],
        },
    )
    s.confirm("dan", m4)
    state = s.walk("ben", m4, B)
    assert last_line(state) == "Team Value recorded: 115."
    state = s.walk("dan", m4, D)
    assert last_line(state) == "Team Value recorded: 105."
    dogs = s.team(D)
    assert (dogs["staff"]["magic_potion"], dogs["points_value"], len(dogs["players"])) == (0, 105, 7)

    # === Round 3 ==============================================================================================
    # --- M5: Widows 9–2 Dogs, 9 Tests to win. Widows' goals 1–2 with A7, A1, A2; 3–5 with A7, A3, A4, A5;
    #     6–9 with A7, A6, A8, A9:  A7 11 + 9 = 20 (a second ability);  A1 7 + 2 = 9;  A2 6 + 2 = 8;
    #     A3, A4 6 + 3 = 9;  A5 5 + 3 = 8;  A6 5 + 4 = 9;  A8 4 + 4 = 8;  A9 2 + 4 = 6 — nobody else reaches 10.
    #     Dogs' 2 goals with D2, D3, D6, D7: D2 2 + 2 = 4; D3 1 + 2 = 3; D6 1 + 2 = 3; D7 2 + 2 = 4.
    m5 = s.schedule("dan", league, A, D, tests_to_win=9)
    s.submit(
        "dan",
        m5,
        {
            "teams": [{"team": A, "score": 9}, {"team": D, "score": 2}],
            "goals": [
                *goals(A, [star, a[1], a[2]], 2),
                *goals(A, [star, a[3], a[4], a[5]], 3),
                *goals(A, [star, a[6], a[8], a[9]], 4),
                *goals(D, [d[2], d[3], d[6], d[7]], 2),
            ],
        },
    )
    s.confirm("ann", m5)
    # Widows: A7 (20 GP, Push learned) has one unused entitlement: Sprinter (the Advanced Jog ability, Push held)
    # or any Basic but Push. At 150 points an ability would take the team to 155: the step refuses it (cut first);
    # the coach answers {} to learn later (R: learning is optional, at any later time).
    s.step("ann", m5, A, "goal_points")
    state = s.step("ann", m5, A, "abilities")
    option = state["pending"]["options"][str(star)]
    assert (option["entitlements"], option["learnable"]) == (1, ["sprinter", *BASICS[1:]])
    refusal = s.step("ann", m5, A, "abilities", {"abilities": {str(star): ["sprinter"]}}, status=400)
    assert "cut" in str(refusal).lower()
    state = s.step("ann", m5, A, "abilities", {"abilities": {}})
    assert state["step"] == "injuries"
    for name in ("injuries", "team_stats"):
        state = s.step("ann", m5, A, name)
    assert state["complete"] and last_line(state) == "Team Value recorded: 150."
    seven = s.by_number(A)[7]
    assert (seven["goal_points"], seven["abilities"], seven["entitlements"]) == (20, ["push"], 1)
    assert "sprinter" in seven["learnable"]
    state = s.walk("dan", m5, D)
    assert last_line(state) == "Team Value recorded: 105."

    # Later, at the team sheet: Sprinter would make 155 > 150 → refused, "cut something or someone first" (R).
    learn = f"/api/v1/teams/{A}/players/{star}/abilities/"
    refusal = s.post("ann", learn, {"ability": "sprinter"}, status=400)
    assert "cut" in str(refusal).lower() and "first" in str(refusal).lower()
    assert s.team(A)["points_value"] == 150  # nothing changed
    # Cut A2 (a Hunter, 15 points; 9 → 8 players, never below 6): 135. Then Sprinter: 135 + 5 = 140.
    s.delete("ann", f"/api/v1/teams/{A}/players/{a[2]}/")
    assert s.team(A)["points_value"] == 135
    seven = s.post("ann", learn, {"ability": "sprinter"})
    assert (seven["abilities"], seven["value"]) == (["push", "sprinter"], 25)

    # --- M6: Razorbacks 1–1 Winds: one Test each, then neither team can set up a face-off player: a tie (R/I),
    #     1 league point each (H). Razorbacks' goal with B1, B2, B3 (B1, B2 6 + 1 = 7; B3 4 + 1 = 5); the Winds'
    #     with C1, C2, C3 (C1 2 + 1 = 3; C2, C3 3 + 1 = 4).
    m6 = s.schedule("commish", league, B, C)
    s.submit(
        "cat",
        m6,
        {
            "teams": [{"team": B, "score": 1, "no_face_off": True}, {"team": C, "score": 1, "no_face_off": True}],
            "goals": [*goals(B, [b[1], b[2], b[3]]), *goals(C, [c[1], c[2], c[3]])],
        },
    )
    s.confirm("ben", m6)
    sides = {x["team"]: x for x in s.get(f"/api/v1/matches/{m6}/")["sides"]}
    assert [(sides[t]["outcome"], sides[t]["league_points"]) for t in (B, C)] == [("draw", 1), ("draw", 1)]
    assert last_line(s.walk("ben", m6, B)) == "Team Value recorded: 115."
    assert last_line(s.walk("cat", m6, C)) == "Team Value recorded: 140."

    # === The end of the season ==================================================================================
    for mid in (m1, m2, m3, m4, m5, m6):
        assert all(x["complete"] for x in s.get(f"/api/v1/matches/{mid}/")["aftermath"])

    # Points: Widows 135 + 5 beauty + 5 Push + 5 cheerleader − 15 A2 + 5 Sprinter = 140 (7 rookies 105 + A7 25
    #   + support 10); Razorbacks 130 − 15 B4 = 115; Winds 140; Dogs 130 − 5 − 5 potions − 15 D5 = 105.
    teams = {t: s.team(t) for t in (A, B, C, D)}
    assert [(teams[t]["points_value"], len(teams[t]["players"])) for t in (A, B, C, D)] == [
        (140, 8),
        (115, 7),
        (140, 8),
        (105, 7),
    ]
    assert teams[A]["staff"] == {"beer_garden_beauty": 1, "cheerleader": 1}
    assert (teams[B]["staff"], teams[C]["staff"]) == ({"cheerleader": 2}, {"hired_gun_wizard": 1})
    assert teams[D]["staff"].get("magic_potion", 0) == 0

    def goal_points(team_id: int) -> dict[int, int]:
        return {p["number"]: p["goal_points"] for p in teams[team_id]["players"]}

    assert goal_points(A) == {1: 9, 3: 9, 4: 9, 5: 8, 6: 9, 7: 20, 8: 8, 9: 6}
    assert goal_points(B) == {1: 7, 2: 7, 3: 5, 5: 6, 6: 2, 7: 0, 8: 0}
    assert goal_points(C) == {1: 3, 2: 4, 3: 4, 4: 0, 5: 3, 6: 1, 7: 0, 8: 0}
    assert goal_points(D) == {1: 0, 2: 4, 3: 3, 4: 0, 6: 3, 7: 4, 8: 0}
    # Only A7 ever held an ability; every rookie is still worth 15.
    abilities = {(t, p["number"]): p["abilities"] for t in (A, B, C, D) for p in teams[t]["players"] if p["abilities"]}
    assert abilities == {(A, 7): ["push", "sprinter"]}
    assert {p["value"] for t in (A, B, C, D) for p in teams[t]["players"] if p["id"] != star} == {15}
    eight = next(p for p in teams[A]["players"] if p["number"] == 8)
    assert [(i["match"], i["injury"]) for i in eight["injuries"]] == [(m3, "out_for_game")]

    # The memorial: D5 (died of a potion in M4, 2 GP), then B4 (career-ending in M1, 4 GP) — latest first.
    memorial = s.get(f"/api/v1/leagues/{league}/memorial/")
    assert [(m["player"], m["name"], m["cause"], m["goal_points"]) for m in memorial] == [
        (d[5], "D5", "dead", 2),
        (b[4], "B4", "career_ending", 4),
    ]

    # League points per match: M1 3/0, M2 3/0, M3 3/0 (the concession is a loss), M4 3/0, M5 3/0, M6 1/1.
    # Standings (scored = the match scores, M3's adjusted 3 included):
    #   Widows    W W W  9 pts  scored 9 + 3 + 9 = 21   conceded 4 + 1 + 2 = 7
    #   Winds     W L D  4 pts  scored 2 + 1 + 1 = 4    conceded 1 + 3 + 1 = 5    difference −1
    #   Razorbacks L W D 4 pts  scored 4 + 2 + 1 = 7    conceded 9 + 1 + 1 = 11   difference −4
    #   Dogs      L L L  0 pts  scored 1 + 1 + 2 = 4    conceded 2 + 2 + 9 = 13
    # Winds and Razorbacks tie on points: goal difference (H tie-breakers) puts the Winds ahead.
    standings = s.get(f"/api/v1/leagues/{league}/standings/")
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
        )
        for r in standings["rows"]
    ]
    assert rows == [
        (1, "Ash Widows", 3, 3, 0, 0, 9, 21, 7),
        (2, "Cinder Winds", 3, 1, 1, 1, 4, 4, 5),
        (3, "Bog Razorbacks", 3, 1, 1, 1, 4, 7, 11),
        (4, "Dune Dogs", 3, 0, 0, 3, 0, 4, 13),
    ]
    assert [r["team"] for r in standings["rows"]] == [A, C, B, D]


# === Focused tests, one rule each ===============================================================================

TEN_WIDOWS = ["hunter"] * 2 + ["midfielder"] * 4 + ["striker"] * 4


@pytest.fixture
def elf_league(commissioner):
    return LeagueFactory(created_by=commissioner, name="Elf Cup", ruleset="elfball")


def squad(league, coach, name: str, roster: str, positions: list[str]):
    team = TeamFactory(league=league, coach=coach, name=name, roster=roster)
    for number, position in enumerate(positions, start=1):
        hire(team, position, name=f"{name[0]}{number}", number=number)
    return team


@pytest.fixture
def widows(elf_league, coach):
    """Alice's Black Widows: 2 Hunters, 4 Midfielders, 2 Strikers (8 × 15 = 120 points), shirts 1–8."""
    return squad(elf_league, coach, "Widows", "black_widows", TEN_WIDOWS[:8])


@pytest.fixture
def hogs(elf_league, other_coach):
    """Bob's Razorbacks: 4 Hunters, 4 Midfielders (120 points), shirts 1–8."""
    return squad(elf_league, other_coach, "Hogs", "razorbacks", RAZORBACKS)


def numbered(team) -> dict[int, int]:
    return dict(Player.objects.filter(team=team, left_at__isnull=True).values_list("number", "pk"))


def sheet(api, team) -> dict:
    response = api.get(f"/api/v1/teams/{team.pk}/")
    assert response.status_code == 200
    return response.json()


def player_sheet(api, team, player_id: int) -> dict:
    return next(p for p in sheet(api, team)["players"] if p["id"] == player_id)


@pytest.fixture
def elf(api_as, commissioner, coach, other_coach, elf_league):
    """Schedule (the commissioner), submit (the commissioner) and confirm (alice) an ElfBall match; walk steps."""

    class Elf:
        def schedule(self, home, away, tests_to_win=None) -> int:
            body = {"league": elf_league.pk, "teams": [home.pk, away.pk]}
            if tests_to_win is not None:
                body["tests_to_win"] = tests_to_win
            response = api_as(commissioner).post("/api/v1/matches/", body, format="json")
            assert response.status_code == 201, response.json()
            return response.json()["id"]

        def submit(self, match_id, body):
            return api_as(commissioner).post(f"/api/v1/matches/{match_id}/result/", body, format="json")

        def confirm(self, match_id):
            response = api_as(coach).post(f"/api/v1/matches/{match_id}/confirm/")
            assert response.status_code == 200, response.json()

        def play(self, home, away, body, tests_to_win=None) -> int:
            match_id = self.schedule(home, away, tests_to_win)
            response = self.submit(match_id, body)
            assert response.status_code == 201, response.json()
            self.confirm(match_id)
            return match_id

        def step(self, match_id, team, step, choices=None):
            user = coach if team.coach_id == coach.pk else other_coach
            body = {"step": step} if choices is None else {"step": step, "choices": choices}
            return api_as(user).post(f"/api/v1/matches/{match_id}/aftermath/{team.pk}/", body, format="json")

        def walk(self, match_id, team, **choices) -> dict:
            for name in ("goal_points", "abilities", "injuries", "team_stats"):
                response = self.step(match_id, team, name, choices.get(name))
                assert response.status_code == 200, (name, response.json())
                assert response.json()["pending"] is None, (name, response.json()["pending"])
            return response.json()

    return Elf()


def plain_win(home, away, scorer: int) -> dict:
    """Home 2–0 (2 Tests to win), `scorer` on the field for both goals."""
    return {
        "teams": [{"team": home.pk, "score": 2}, {"team": away.pk, "score": 0}],
        "goals": goals(home.pk, [scorer], 2),
    }


def test_steps_run_in_order_and_a_step_that_is_not_current_is_409(api, api_as, coach, elf, widows, hogs):
    """api-v1 "Post-match sequence": ElfBall steps goal_points, abilities, injuries, team_stats, in order; a POST
    for another step than the current one is 409 and changes nothing."""
    w = numbered(widows)
    match_id = elf.play(widows, hogs, plain_win(widows, hogs, w[1]))
    url = f"/api/v1/matches/{match_id}/aftermath/{widows.pk}/"
    before = api.get(url).json()
    assert (before["step"], before["steps"], before["complete"], before["pending"]) == (
        "goal_points",
        ["goal_points", "abilities", "injuries", "team_stats"],
        False,
        None,
    )

    for wrong in ("abilities", "injuries", "team_stats", "improvements"):
        refused(elf.step(match_id, widows, wrong), 409)
    assert api.get(url).json() == before

    assert elf.step(match_id, widows, "goal_points").json()["step"] == "abilities"
    refused(elf.step(match_id, widows, "goal_points"), 409)  # a step runs once
    for name in ("abilities", "injuries", "team_stats"):
        state = elf.step(match_id, widows, name).json()
    assert (state["step"], state["complete"]) == (None, True)
    refused(elf.step(match_id, widows, "team_stats"), 409)  # nothing left to run


def test_i_a_tie_only_when_neither_team_can_set_up_a_face_off(api, elf, elf_league, widows, hogs):
    """I: an ElfBall match is drawn only when neither team can set up a face-off player (R: tie); H: 1 league
    point each."""
    w, h = numbered(widows), numbered(hogs)
    match_id = elf.play(
        widows,
        hogs,
        {
            "teams": [
                {"team": widows.pk, "score": 1, "no_face_off": True},
                {"team": hogs.pk, "score": 1, "no_face_off": True},
            ],
            "goals": [*goals(widows.pk, [w[1]]), *goals(hogs.pk, [h[1]])],
        },
    )

    sides = {s["team"]: s for s in api.get(f"/api/v1/matches/{match_id}/").json()["sides"]}
    assert [(sides[t.pk]["outcome"], sides[t.pk]["league_points"]) for t in (widows, hogs)] == [
        ("draw", 1),
        ("draw", 1),
    ]
    rows = api.get(f"/api/v1/leagues/{elf_league.pk}/standings/").json()["rows"]
    assert sorted((r["name"], r["drawn"], r["points"], r["scored"], r["conceded"]) for r in rows) == [
        ("Hogs", 1, 1, 1, 1),
        ("Widows", 1, 1, 1, 1),
    ]


def test_r_a_team_that_alone_cannot_face_off_loses(api, elf, widows, hogs):
    """R (Beginning a Test): a team that cannot set up a face-off player loses, even ahead in Tests (H
    `no_face_off_player_loses`): 0 league points, the opponent 3."""
    w = numbered(widows)
    match_id = elf.play(
        widows,
        hogs,
        {
            "teams": [{"team": widows.pk, "score": 1, "no_face_off": True}, {"team": hogs.pk, "score": 0}],
            "goals": goals(widows.pk, [w[1]]),
        },
    )

    sides = {s["team"]: s for s in api.get(f"/api/v1/matches/{match_id}/").json()["sides"]}
    assert [(sides[t.pk]["outcome"], sides[t.pk]["league_points"]) for t in (widows, hogs)] == [
        ("loss", 0),
        ("win", 3),
    ]
    assert player_sheet(api, widows, w[1])["goal_points"] == 1  # his goal still counts (R)


def _bodies(widows, hogs, w, h) -> dict[str, tuple[dict, str]]:
    """Results that do not add up, and the field a 400 must name (its prefix)."""
    win = [{"team": widows.pk, "score": 2}, {"team": hogs.pk, "score": 0}]
    two = goals(widows.pk, [w[1], w[2]], 2)
    return {
        # R: the first team to win N Tests wins (N = 2 here): somebody must have won exactly 2 …
        "nobody won 2 Tests": (
            {
                "teams": [{"team": widows.pk, "score": 1}, {"team": hogs.pk, "score": 0}],
                "goals": goals(widows.pk, [w[1]]),
            },
            "teams",
        ),
        "both won 2 Tests": (
            {
                "teams": [{"team": widows.pk, "score": 2}, {"team": hogs.pk, "score": 2}],
                "goals": [*two, *goals(hogs.pk, [h[1]], 2)],
            },
            "teams",
        ),
        "3 Tests of 2": (
            {
                "teams": [{"team": widows.pk, "score": 3}, {"team": hogs.pk, "score": 0}],
                "goals": goals(widows.pk, [w[1]], 3),
            },
            "teams",
        ),
        # R: each goal wins a Test: one goal listed per Test won.
        "goals do not match the Tests": ({"teams": win, "goals": goals(widows.pk, [w[1]])}, "goals"),
        # R: the players on the field for a goal are the scoring team's.
        "an opponent on the field": (
            {"teams": win, "goals": [*goals(widows.pk, [w[1]]), *goals(widows.pk, [h[1]])]},
            "goals",
        ),
        # R: a potion is consumed from the team's stock (the Widows hold 1).
        "potions over the stock": (
            {"teams": win, "goals": two, "potions": [{"player": w[3], "roll": 9}, {"player": w[4], "roll": 10}]},
            "potions",
        ),
        # R: a player may take only one potion per game.
        "two potions for one player": (
            {"teams": win, "goals": two, "potions": [{"player": w[3], "roll": 9}, {"player": w[3], "roll": 10}]},
            "potions",
        ),
    }


@pytest.mark.parametrize(
    "case",
    [
        "nobody won 2 Tests",
        "both won 2 Tests",
        "3 Tests of 2",
        "goals do not match the Tests",
        "an opponent on the field",
        "potions over the stock",
        "two potions for one player",
    ],
)
def test_r_a_result_that_does_not_add_up_is_400_and_changes_nothing(api_as, coach, elf, widows, hogs, case):
    api_as(coach).post(f"/api/v1/teams/{widows.pk}/purchases/", {"item": "magic_potion", "quantity": 1}, format="json")
    w, h = numbered(widows), numbered(hogs)
    body, field = _bodies(widows, hogs, w, h)[case]
    match_id = elf.schedule(widows, hogs)

    response = elf.submit(match_id, body)

    refusal = refused(response, 400)
    assert any(key.startswith(field) for key in refusal), refusal
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.result) == ("scheduled", {})
    widows.refresh_from_db()
    assert widows.staff == {"magic_potion": 1}
    assert not Player.objects.filter(team__in=[widows, hogs], goal_points__gt=0).exists()


def test_r_abilities_need_an_entitlement_basic_before_advanced_each_once(api, api_as, coach, widows):
    """R: every full 10 Goal Points entitle a player to one ability, learned at any later time; the Advanced
    ability of an attribute needs its Basic; each ability once; each adds 5 points to the team."""
    star = numbered(widows)[7]
    learn = f"/api/v1/teams/{widows.pk}/players/{star}/abilities/"
    alice = api_as(coach)

    Player.objects.filter(pk=star).update(goal_points=9)
    refused(alice.post(learn, {"ability": "push"}, format="json"), 400, "ability")  # 9 GP: none yet
    assert (player_sheet(api, widows, star)["entitlements"], player_sheet(api, widows, star)["learnable"]) == (0, [])

    Player.objects.filter(pk=star).update(goal_points=10)
    assert player_sheet(api, widows, star)["learnable"] == BASICS  # no Advanced before its Basic
    refused(alice.post(learn, {"ability": "sprinter"}, format="json"), 400, "ability")  # Advanced Jog first
    refused(alice.post(learn, {"ability": "fireball"}, format="json"), 400, "ability")  # no such ability
    response = alice.post(learn, {"ability": "push"}, format="json")
    assert response.status_code == 201, response.json()
    assert (response.json()["abilities"], response.json()["value"]) == (["push"], 20)
    assert sheet(api, widows)["points_value"] == 125  # 8 × 15 + 5
    refused(alice.post(learn, {"ability": "buff"}, format="json"), 400, "ability")  # one per 10 GP

    Player.objects.filter(pk=star).update(goal_points=25)  # a second entitlement (20), not a third (30)
    refused(alice.post(learn, {"ability": "push"}, format="json"), 400, "ability")  # each ability once
    response = alice.post(learn, {"ability": "sprinter"}, format="json")
    assert response.status_code == 201, response.json()
    assert (response.json()["abilities"], response.json()["value"]) == (["push", "sprinter"], 25)
    refused(alice.post(learn, {"ability": "buff"}, format="json"), 400, "ability")
    assert Player.objects.get(pk=star).abilities == ["push", "sprinter"]
    assert sheet(api, widows)["points_value"] == 130


def test_r_an_ability_over_150_points_needs_a_cut_first(api, api_as, coach, elf_league):
    """R: if learning an ability would take the team above 150 points, the coach must cut something or someone
    first (never below 6 players)."""
    full = squad(elf_league, coach, "Full Widows", "black_widows", TEN_WIDOWS)  # 10 × 15 = 150
    ids = numbered(full)
    Player.objects.filter(pk=ids[7]).update(goal_points=10)
    alice = api_as(coach)
    learn = f"/api/v1/teams/{full.pk}/players/{ids[7]}/abilities/"

    refusal = refused(alice.post(learn, {"ability": "nimble"}, format="json"), 400)
    text = str(refusal).lower()
    assert "cut" in text and "first" in text, refusal
    assert Player.objects.get(pk=ids[7]).abilities == []
    assert sheet(api, full)["points_value"] == 150

    assert alice.delete(f"/api/v1/teams/{full.pk}/players/{ids[10]}/").status_code == 204  # 135
    response = alice.post(learn, {"ability": "nimble"}, format="json")
    assert response.status_code == 201, response.json()
    assert sheet(api, full)["points_value"] == 140


def test_r_a_team_is_never_cut_below_six_players(api, api_as, coach, elf_league):
    """R: a team may never be cut below 6 players (once out of creation)."""
    team = squad(elf_league, coach, "Few Widows", "black_widows", ["midfielder"] * 4 + ["striker"] * 3)
    alice = api_as(coach)
    assert alice.post(f"/api/v1/teams/{team.pk}/ready/").status_code == 200
    ids = numbered(team)

    assert alice.delete(f"/api/v1/teams/{team.pk}/players/{ids[7]}/").status_code == 204  # 7 → 6
    refused(alice.delete(f"/api/v1/teams/{team.pk}/players/{ids[6]}/"), 400)  # 6 → 5: refused

    assert len(sheet(api, team)["players"]) == 6
    assert Player.objects.get(pk=ids[6]).left_at is None


def test_r_a_transfer_never_takes_a_team_below_six_players(api, api_as, commissioner, coach, other_coach, elf_league):
    """R: "you may never cut your team to less than 6 players" — a player sold away leaves like a cut one."""
    seller = squad(elf_league, coach, "Six Widows", "black_widows", ["midfielder"] * 4 + ["striker"] * 2)
    buyer = squad(elf_league, other_coach, "Rich Widows", "black_widows", ["midfielder"] * 4 + ["striker"] * 2)
    assert api_as(coach).post(f"/api/v1/teams/{seller.pk}/ready/").status_code == 200
    sold = numbered(seller)[5]  # a Striker (the buyer has 2 of 4)

    proposed = api_as(coach).post("/api/v1/transfers/", {"player": sold, "to_team": buyer.pk}, format="json")
    assert proposed.status_code == 201, proposed.json()
    transfer = proposed.json()["id"]
    assert api_as(other_coach).post(f"/api/v1/transfers/{transfer}/accept/").status_code == 200
    approved = api_as(commissioner).post(f"/api/v1/transfers/{transfer}/approve/")

    refused(approved, 400)
    assert len(sheet(api, seller)["players"]) == 6


def test_r_the_150_point_budget_and_the_support_maxima(api, api_as, coach, elf_league):
    """R: the team's value never exceeds 150; Magic Potion max 3, Beer Garden Beauty 2, Cheerleader 4, Hired Gun
    Wizard 1 (5/5/5/20 points)."""
    team = squad(elf_league, coach, "Rich Widows", "black_widows", TEN_WIDOWS[:8])  # 120
    alice = api_as(coach)
    buy = f"/api/v1/teams/{team.pk}/purchases/"

    refused(alice.post(buy, {"item": "magic_potion", "quantity": 4}, format="json"), 400)  # max 3
    refused(alice.post(buy, {"item": "hired_gun_wizard", "quantity": 2}, format="json"), 400)  # max 1
    refused(alice.post(buy, {"item": "beer_garden_beauty", "quantity": 3}, format="json"), 400)  # max 2
    assert alice.post(buy, {"item": "hired_gun_wizard", "quantity": 1}, format="json").status_code == 201  # 140
    refused(alice.post(buy, {"item": "cheerleader", "quantity": 3}, format="json"), 400)  # 155
    assert alice.post(buy, {"item": "cheerleader", "quantity": 2}, format="json").status_code == 201  # 150
    hire_one = {"position": "striker", "name": "One too many", "number": 9}
    refused(alice.post(f"/api/v1/teams/{team.pk}/players/", hire_one, format="json"), 400)  # 165

    body = sheet(api, team)
    assert (body["points_value"], body["staff"], len(body["players"])) == (
        150,
        {"hired_gun_wizard": 1, "cheerleader": 2},
        8,
    )


def test_r_goal_points_for_players_on_the_field_when_the_result_is_final(api, api_as, coach, elf, widows, hogs):
    """R: each goal gives every player of the scoring team on the field 1 Goal Point (added when the result
    becomes final); a player who was not on the field gets none."""
    w = numbered(widows)
    match_id = elf.schedule(widows, hogs)
    body = {
        "teams": [{"team": widows.pk, "score": 2}, {"team": hogs.pk, "score": 0}],
        "goals": [*goals(widows.pk, [w[1], w[2]]), *goals(widows.pk, [w[1], w[3]])],
    }
    assert elf.submit(match_id, body).status_code == 201
    assert player_sheet(api, widows, w[1])["goal_points"] == 0  # submitted, not yet final

    assert api_as(coach).post(f"/api/v1/matches/{match_id}/confirm/").status_code == 200

    assert [player_sheet(api, widows, w[n])["goal_points"] for n in (1, 2, 3, 4)] == [2, 1, 1, 0]


def test_r_a_teams_next_result_waits_for_its_post_match_sequence(elf, widows, hogs):
    """api-v1: a player's (a team's) next result waits until the previous post-match sequence is complete."""
    w = numbered(widows)
    first = elf.play(widows, hogs, plain_win(widows, hogs, w[1]))
    second = elf.schedule(hogs, widows)

    refused(elf.submit(second, plain_win(hogs, widows, numbered(hogs)[1])), 400)

    elf.walk(first, widows)
    refused(elf.submit(second, plain_win(hogs, widows, numbered(hogs)[1])), 400)  # the Hogs still owe
    elf.walk(first, hogs)
    assert elf.submit(second, plain_win(hogs, widows, numbered(hogs)[1])).status_code == 201


@pytest.mark.parametrize(
    ("roll", "status", "attributes", "stays"),
    [
        (1, "dead", None, False),  # dies: removed, memorial
        (2, "active", {"jog": 4}, True),  # seizure: lasting injury, Jog (5, alone highest) → 4
        (3, "active", {}, True),  # light coma: misses the rest of the game only
        (4, "active", {}, True),  # woozy
        (7, "active", {}, True),  # a Basic ability for this game only: not kept
        (8, "active", {}, True),  # 8–12 are not in the rulebook: no effect (H)
        (12, "active", {}, True),
    ],
)
def test_r_the_magic_potion_table(api, elf, elf_league, coach, api_as, widows, hogs, roll, status, attributes, stays):
    """R (D12): 1 dies · 2 seizure (lasting injury) · 3 light coma · 4 woozy · 7 a Basic ability this game only;
    I/H 8–12 no effect. The potion is consumed (5 points less)."""
    api_as(coach).post(f"/api/v1/teams/{widows.pk}/purchases/", {"item": "magic_potion", "quantity": 2}, format="json")
    w = numbered(widows)
    drinker = w[3]  # a Midfielder: Jog 5, the rest 3
    potion = {"player": drinker, "roll": roll, **({"ability": "nimble"} if roll == 7 else {})}
    match_id = elf.play(widows, hogs, {**plain_win(widows, hogs, w[1]), "potions": [potion]})

    elf.walk(match_id, widows)

    team = sheet(api, widows)
    assert team["staff"]["magic_potion"] == 1
    base = {"jog": 5, "might": 3, "tackle": 3, "dodge": 3, "skill": 3, "grit": 3, "base": 25}
    player = Player.objects.get(pk=drinker)
    assert player.status == status
    assert (player.left_at is None) is stays
    assert player.abilities == []
    if stays:
        assert player.attributes == {**base, **attributes}
        assert team["points_value"] == 8 * 15 + 5
    else:
        assert team["points_value"] == 7 * 15 + 5
        memorial = api.get(f"/api/v1/leagues/{elf_league.pk}/memorial/").json()
        assert [(m["player"], m["cause"]) for m in memorial] == [(drinker, "dead")]
    assert Roll.objects.filter(match_id=match_id, key="potion", values=[roll]).exists()


@pytest.mark.parametrize("roll", [5, 6, 7])
def test_r_potions_5_6_7_cure_the_games_injury(api, api_as, coach, elf, elf_league, widows, hogs, roll):
    """R: Magic Potion 5, 6, 7 — the player is cured of any injury suffered this game: a career-ending injury
    leaves no lasting effect, and he stays."""
    api_as(coach).post(f"/api/v1/teams/{widows.pk}/purchases/", {"item": "magic_potion", "quantity": 1}, format="json")
    w = numbered(widows)
    potion = {"player": w[3], "roll": roll, **({"ability": "buff"} if roll == 7 else {})}
    body = {
        **plain_win(widows, hogs, w[1]),
        "players": [{"player": w[3], "injury": "career_ending"}],
        "potions": [potion],
    }
    match_id = elf.play(widows, hogs, body)

    elf.walk(match_id, widows)

    player = Player.objects.get(pk=w[3])
    assert (player.status, player.left_at, player.abilities) == ("active", None, [])
    assert api.get(f"/api/v1/leagues/{elf_league.pk}/memorial/").json() == []
    assert sheet(api, widows)["staff"]["magic_potion"] == 0


def test_r_a_lasting_injury_tie_is_the_coachs_choice(api, elf, elf_league, other_coach, widows):
    """R: a lasting injury lowers the highest attribute; the coach chooses among ties (pending decision
    `lasting_injury`); given in the result, the attribute must be one of the tied highest. Base never counts (I)."""
    winds = squad(elf_league, other_coach, "Winds", "divine_wind", DIVINE_WIND)
    defender, other = numbered(winds)[1], numbered(winds)[2]  # Jog 4 Might 4 Tackle 4 Dodge 2 Skill 2 Grit 4
    w = numbered(widows)
    match_id = elf.schedule(widows, winds)
    wrong = {
        **plain_win(widows, winds, w[1]),
        "players": [{"player": defender, "injury": "lasting_injury", "attribute": "dodge"}],
    }
    refused(elf.submit(match_id, wrong), 400)  # Dodge 2 is not a highest attribute
    body = {
        **plain_win(widows, winds, w[1]),
        "players": [
            {"player": defender, "injury": "lasting_injury"},
            {"player": other, "injury": "lasting_injury", "attribute": "grit"},
        ],
    }
    assert elf.submit(match_id, body).status_code == 201
    elf.confirm(match_id)

    elf.step(match_id, winds, "goal_points")
    elf.step(match_id, winds, "abilities")
    state = elf.step(match_id, winds, "injuries").json()
    assert (state["pending"]["decision"], state["pending"]["options"]) == (
        "lasting_injury",
        {str(defender): ["jog", "might", "tackle", "grit"]},
    )
    refused(elf.step(match_id, winds, "injuries", {"lasting_injury": {str(defender): "dodge"}}), 400)
    state = elf.step(match_id, winds, "injuries", {"lasting_injury": {str(defender): "tackle"}}).json()
    assert (state["step"], state["pending"]) == ("team_stats", None)

    assert Player.objects.get(pk=defender).attributes["tackle"] == 3
    assert Player.objects.get(pk=other).attributes["grit"] == 3  # given in the result: no question
    assert sheet(api, winds)["points_value"] == 8 * 15
    assert player_sheet(api, winds, other)["injuries"] == [
        {"match": match_id, "injury": "lasting_injury", "detail": "grit"}
    ]


def test_the_attribute_chosen_for_a_tied_lasting_injury_is_on_the_players_injuries(
    api, elf, elf_league, other_coach, widows
):
    """R: a lasting injury lowers the highest attribute, the coach choosing among ties. The player's injuries
    (api-v1 `injuries: [{match, injury, detail}]`, like Blitz Bowl's stat_loss "av") name the attribute lost, however
    the tie was resolved."""
    winds = squad(elf_league, other_coach, "Winds", "divine_wind", DIVINE_WIND)
    defender = numbered(winds)[1]  # Jog Might Tackle Grit 4, tied
    body = {
        **plain_win(widows, winds, numbered(widows)[1]),
        "players": [{"player": defender, "injury": "lasting_injury"}],
    }
    match_id = elf.play(widows, winds, body)

    elf.walk(match_id, winds, injuries={"lasting_injury": {str(defender): "tackle"}})

    assert player_sheet(api, winds, defender)["attributes"]["tackle"] == 3
    assert player_sheet(api, winds, defender)["injuries"] == [
        {"match": match_id, "injury": "lasting_injury", "detail": "tackle"}
    ]


@pytest.mark.parametrize(
    ("dice", "threshold", "rolls", "expected"),
    [
        # "Skill 4, Threshold 3: 1, 2, 6, 6; the 6s again: 3, 6; once more: 5" → 5 successes.
        (4, 3, [1, 2, 6, 6, 3, 6, 5], {"successes": 5, "flops": 1, "sixes": 3, "flopped": False}),
        # "Skill 3, Threshold 3: 1, 2, 6; the 6 again: 1" → 1 success, 2 flops: flopped.
        (3, 3, [1, 2, 6, 1], {"successes": 1, "flops": 2, "sixes": 1, "flopped": True}),
        # "Skill 3, Threshold 7: 1, 6, 6; again 3, 4" → two 6s less one 1 = 1 success; not flopped (1 = 1).
        (3, 7, [1, 6, 6, 3, 4], {"successes": 1, "flops": 1, "sixes": 2, "flopped": False}),
    ],
)
def test_r_the_challenge_roller_scores_the_rulebook_examples(
    api_as, coach, elf_league, dice, threshold, rolls, expected
):
    """R ("Challenges"): dice ≥ threshold succeed, 6s are rolled again and added, 1s are flops, more flops than
    successes is a flop; threshold 7+: successes = 6s − flops. Entered dice are scored and logged (key
    `challenge`)."""
    from league.models import Membership

    Membership.objects.get_or_create(league=elf_league, user=coach, role=Membership.Role.COACH)
    response = api_as(coach).post(
        f"/api/v1/leagues/{elf_league.pk}/challenge/",
        {"dice": dice, "threshold": threshold, "rolls": rolls},
        format="json",
    )

    assert response.status_code == 201, response.json()
    body = response.json()
    assert {k: body[k] for k in expected} == expected
    assert (body["dice"], body["entered"]) == (rolls, True)
    (roll,) = Roll.objects.filter(league=elf_league, key="challenge")
    assert (roll.values, roll.entered, roll.rolled_by_id) == (rolls, True, coach.pk)


def test_the_challenge_roller_rolls_for_the_table_and_logs_it(api_as, commissioner, elf_league):
    """R/service: without entered dice the server rolls (every 6 rolled again) and logs the roll."""
    response = api_as(commissioner).post(
        f"/api/v1/leagues/{elf_league.pk}/challenge/", {"dice": 5, "threshold": 4}, format="json"
    )

    assert response.status_code == 201, response.json()
    body = response.json()
    dice = body["dice"]
    assert len(dice) == 5 + dice.count(6) and all(1 <= v <= 6 for v in dice)
    assert body["successes"] == sum(1 for v in dice if v >= 4) and body["flops"] == dice.count(1)
    assert body["entered"] is False
    assert Roll.objects.filter(league=elf_league, key="challenge", values=dice, entered=False).count() == 1


def test_a_stranger_cannot_roll_a_challenge(api, api_as, stranger, elf_league):
    """Only the league's coaches and commissioners roll in it: a stranger gets 403, nothing is logged."""
    body = {"dice": 3, "threshold": 3, "rolls": [2, 3, 4]}
    refused(api_as(stranger).post(f"/api/v1/leagues/{elf_league.pk}/challenge/", body, format="json"), 403)
    assert api.post(f"/api/v1/leagues/{elf_league.pk}/challenge/", body, format="json").status_code in (401, 403)
    assert not Roll.objects.filter(key="challenge").exists()


def test_entered_challenge_dice_that_do_not_fit_are_400(api_as, commissioner, elf_league):
    """R: a Challenge of 3 dice with one 6 has exactly 4 dice; a 7 is no face of a d6."""
    url = f"/api/v1/leagues/{elf_league.pk}/challenge/"
    client = api_as(commissioner)
    for rolls in ([1, 2, 6], [1, 2, 3, 4], [1, 2, 7]):
        refused(client.post(url, {"dice": 3, "threshold": 3, "rolls": rolls}, format="json"), 400)
    assert not Roll.objects.filter(key="challenge").exists()
