"""The Blitz Bowl post-match sequence, one rule at a time, through the API with entered dice.

Each test plays a match between the `home` and `away` fixtures (two Hume teams of eleven 5,000-gil linemen,
shirt numbers 1–11, so each treasury starts at 100,000 − 55,000 = 45,000 gil and each Team Value at
55,000 gil), then walks a team's steps with `POST /api/v1/matches/{id}/aftermath/{team_id}/` giving the
dice in `rolls`, and reads the effects back through the public API (team sheet, ledger, roll log, match).
Rule references (R/I/H) point to ../shared/rules/blitzbowl.md. Set-up that the API cannot do (a stadium
owned, a Fan Factor, a sponsorship, a treasury balance) is written straight to the database.
"""

from __future__ import annotations

import pytest

from teams.models import Player, Sponsorship, Team
from teams.services import ledger_post
from tests.assertions import assert_refused
from tests.factories import StadiumFactory, TeamFactory, UserFactory

START = 45_000  # 100,000 starting treasury − 11 × 5,000 linemen
TV = 55_000  # 11 × 5,000
GENERAL = [
    "Block",
    "Dauntless",
    "Dirty Player",
    "Fend",
    "Frenzy",
    "Kick",
    "Kick-Off Return",
    "Pass Block",
    "Pro",
    "Shadowing",
    "Strip Ball",
    "Sure Hands",
    "Tackle",
    "Wrestle",
]

# --- helpers ------------------------------------------------------------------------------------------------


class Flow:
    """Plays matches between `home` (alice) and `away` (bob) and walks their post-match sequences."""

    def __init__(self, api_as, league, home, away, coach, other_coach, play):
        self.api_as, self.league, self.home, self.away = api_as, league, home, away
        self.coach, self.other_coach, self._play = coach, other_coach, play
        self.coaches = {home.pk: coach, away.pk: other_coach}
        self.public = api_as(None)

    # set-up
    def pid(self, team, number: int) -> int:
        return Player.objects.get(team=team, number=number).pk

    def schedule(self, *, kind="league", stadium=None, teams=None) -> int:
        teams = teams or (self.home, self.away)
        body = {"league": self.league.pk, "teams": [t.pk for t in teams], "kind": kind}
        if stadium is not None:
            body["stadium"] = stadium.pk
        r = self.api_as(self.coach).post("/api/v1/matches/", body, format="json")
        assert r.status_code == 201, r.json()
        return r.json()["id"]

    def line(self, team, score, extra) -> dict:
        return {"team": team.pk, "score": score, "casualties_inflicted": 0, **extra}

    def body(self, hs, as_, *, home=None, away=None, players=(), auto_tds=True) -> dict:
        """A result: touchdowns go one each to shirt numbers 11, 10, … (3 SPP apiece, no level-up)."""
        rows = list(players)
        if auto_tds:
            for team, score in ((self.home, hs), (self.away, as_)):
                rows += [{"player": self.pid(team, 11 - i), "touchdowns": 1} for i in range(score)]
        return {
            "teams": [self.line(self.home, hs, home or {}), self.line(self.away, as_, away or {})],
            "players": rows,
        }

    def match(self, hs=0, as_=0, *, kind="league", stadium=None, **body) -> int:
        mid = self.schedule(kind=kind, stadium=stadium)
        self._play(mid, self.body(hs, as_, **body), self.coach, self.other_coach)
        return mid

    # the sequence
    def post(self, mid, team, step, choices=None, rolls=None, **headers):
        body = {"step": step}
        if choices is not None:
            body["choices"] = choices
        if rolls is not None:
            body["rolls"] = rolls
        client = self.api_as(self.coaches[team.pk])
        return client.post(f"/api/v1/matches/{mid}/aftermath/{team.pk}/", body, format="json", **headers)

    def step(self, mid, team, step, choices=None, rolls=None) -> dict:
        r = self.post(mid, team, step, choices, rolls)
        assert r.status_code == 200, r.json()
        return r.json()

    def done(self, mid, team, step, choices=None, rolls=None) -> dict:
        """Run a step that must finish (no pending decision)."""
        state = self.step(mid, team, step, choices, rolls)
        assert state["pending"] is None, state["pending"]
        return state

    def walk(self, mid, team, *, until="", **steps) -> dict:
        """Run the steps in order up to (not including) `until`, with `steps[name] = (choices, rolls)`."""
        defaults = {
            "improvements": (None, None),
            "team_stats": (None, None),
            "fortune": ({"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [1], "fan_factor": [1, 1, 1]}),
            "hire_fire": (None, None),
            "prepare": (None, {"expensive_mistakes": [6], "expensive_mistakes_amount": [1]}),
        }
        state = None
        for name, default in defaults.items():
            if name == until:
                break
            choices, rolls = steps.get(name, default)
            state = self.done(mid, team, name, choices, rolls)
        return state

    def state(self, mid, team) -> dict:
        return self.public.get(f"/api/v1/matches/{mid}/aftermath/{team.pk}/").json()

    # reads
    def team(self, team) -> dict:
        r = self.public.get(f"/api/v1/teams/{team.pk}/")
        assert r.status_code == 200
        return r.json()

    def player(self, team, number) -> dict | None:
        return next((p for p in self.team(team)["players"] if p["number"] == number), None)

    def ledger(self, team, account="treasury") -> list[dict]:
        return self.public.get(f"/api/v1/teams/{team.pk}/ledger/?account={account}").json()

    def rolls(self, mid, team=None, step=None) -> list[dict]:
        rows = self.public.get(f"/api/v1/matches/{mid}/rolls/").json()
        return [r for r in rows if (team is None or r["team"] == team.pk) and (step is None or r["step"] == step)]

    def keys(self, mid, team=None, step=None) -> list[tuple[str, list[int], bool]]:
        return [(r["key"], r["values"], r["entered"]) for r in self.rolls(mid, team, step)]

    def match_json(self, mid) -> dict:
        return self.public.get(f"/api/v1/matches/{mid}/").json()

    def set_treasury(self, team, amount: int) -> None:
        delta = amount - self.team(team)["treasury"]
        if delta:
            ledger_post(team=Team.objects.get(pk=team.pk), amount=delta, kind="adjustment", reason="Test set-up")


def lines(state: dict, step: str) -> list[str]:
    return next(entry["lines"] for entry in state["log"] if entry["step"] == step)


def text(state: dict, step: str) -> str:
    return "\n".join(lines(state, step))


def set_ff(team, ff: int) -> None:
    Team.objects.filter(pk=team.pk).update(fan_factor=ff)


def own_stadium(team, stadium, *, owned=True) -> None:
    Team.objects.filter(pk=team.pk).update(home_stadium=stadium, owns_stadium=owned)


@pytest.fixture
def flow(api_as, league, home, away, coach, other_coach, play):
    return Flow(api_as, league, home, away, coach, other_coach, play)


@pytest.fixture
def stadium(league):
    """A stadium with a special attribute (residency deals are possible there)."""
    return StadiumFactory(league=league, name="The Lava Pit", special_attribute="Lava moat")


@pytest.fixture
def plain_stadium(league):
    return StadiumFactory(league=league, name="Mudbank Field", special_attribute="")


# --- 1. Improvements -----------------------------------------------------------------------------------------


def test_spp_are_earned_per_event_and_the_mvp_gets_five(flow):
    """H ("1. Improvements"): completion 1, touchdown 3, casualty 2, interception 2, MVP 5."""
    home = flow.home
    mid = flow.match(
        1,
        0,
        home={"mvp": flow.pid(home, 5)},
        players=[
            {"player": flow.pid(home, 1), "completions": 1},
            {"player": flow.pid(home, 2), "touchdowns": 1},
            {"player": flow.pid(home, 3), "casualties": 1},
            {"player": flow.pid(home, 4), "interceptions": 1},
        ],
        auto_tds=False,
    )
    assert {n: flow.player(home, n)["spp"] for n in range(1, 7)} == {1: 1, 2: 3, 3: 2, 4: 2, 5: 5, 6: 0}
    state = flow.done(mid, home, "improvements")
    assert state["step"] == "team_stats"
    assert "Home 2 earned 3 SPP (0 → 3)." in lines(state, "improvements")
    assert "Home 5 earned 5 SPP (0 → 5)." in lines(state, "improvements")
    assert lines(state, "improvements")[-1] == "No player reached a new level."
    assert flow.keys(mid, home) == []


def test_a_level_up_waits_for_the_choice_and_resumes_with_the_same_dice(flow):
    """H ("1. Improvements"): 6 SPP reaches a level: one 2d6 `improvement` roll, then the coach's choice.
    api-v1: a missing decision answers `pending`; the next POST of the step answers it with the same dice."""
    home, p1 = flow.home, flow.pid(flow.home, 1)
    # #1: a touchdown (3) and the MVP (5) = 8 SPP, past the level at 6.
    mid = flow.match(1, 0, home={"mvp": p1}, players=[{"player": p1, "touchdowns": 1}], auto_tds=False)
    state = flow.step(mid, home, "improvements", rolls={"improvement": [3, 4]})
    assert state["step"] == "improvements"
    pending = state["pending"]
    assert pending["decision"] == "improvements"
    (option,) = pending["options"][str(p1)]
    assert option["dice"] == [3, 4] and option["total"] == 7 and option["double"] is False
    assert option["attributes"] == [] and option["skills"] == GENERAL  # normal access: General
    assert [(r["key"], r["values"], r["entered"]) for r in pending["rolls"]] == [("improvement", [3, 4], True)]
    assert flow.rolls(mid) == []  # the roll log gets the dice when the step completes

    # The 7 allows no attribute; new dice on the resume are ignored: the paused roll stands.
    r = flow.post(mid, home, "improvements", {"improvements": {str(p1): ["ma"]}}, {"improvement": [4, 6]})
    assert_refused(r, 400, f"choices.improvements.{p1}")
    assert flow.state(mid, home)["pending"]["decision"] == "improvements"
    state = flow.done(mid, home, "improvements", {"improvements": {str(p1): ["Block"]}}, {"improvement": [4, 6]})
    assert flow.player(home, 1)["skills"] == ["Block"]
    assert flow.player(home, 1)["value"] == 7_000  # 5,000 + normal skill 2,000
    assert flow.team(home)["team_value"] == TV + 2_000
    assert flow.keys(mid, home) == [("improvement", [3, 4], True)]
    assert (
        "Home 1: Improvement roll 3 + 4 = 7: the coach may take a normal skill. → Block (value +2,000 gil)."
        in lines(state, "improvements")
    )


@pytest.mark.parametrize(
    ("dice", "pick", "attributes", "value_added", "offered"),
    [
        pytest.param([3, 4], "Block", {}, 2_000, [], id="7-normal-skill-2000"),
        pytest.param([2, 2], "Dodge", {}, 3_000, [], id="double-double-access-skill-3000"),
        pytest.param([2, 2], "Block", {}, 2_000, [], id="double-normal-skill-instead-2000"),
        pytest.param([4, 6], "ma", {"ma": 7}, 3_000, ["ma", "av"], id="10-ma-3000"),
        pytest.param([4, 6], "av", {"av": 9}, 3_000, ["ma", "av"], id="10-av-3000"),
        pytest.param([5, 6], "ag", {"ag": 4}, 4_000, ["ag"], id="11-ag-4000"),
        pytest.param([6, 6], "st", {"st": 4}, 5_000, ["st"], id="12-st-5000"),
    ],
)
def test_improvement_roll_offers_by_the_table_and_adds_value(flow, dice, pick, attributes, value_added, offered):
    """H ("1. Improvements"): a double → a double-access skill; 10 → +MA or +AV; 11 → +AG; 12 → +ST; otherwise
    (and always) a normal skill. Value: normal +2,000; double +3,000; MA/AV +3,000; AG +4,000; ST +5,000."""
    home, p1 = flow.home, flow.pid(flow.home, 1)
    mid = flow.match(1, 0, home={"mvp": p1}, players=[{"player": p1, "touchdowns": 1}], auto_tds=False)
    state = flow.step(mid, home, "improvements", rolls={"improvement": dice})
    (option,) = state["pending"]["options"][str(p1)]
    assert option["attributes"] == offered
    double = dice[0] == dice[1]
    assert option["double"] is double
    # Lineman access: normal General; double Agility, Strength, Passing.
    assert ("Dodge" in option["skills"]) is double and ("Guard" in option["skills"]) is double
    assert set(GENERAL) <= set(option["skills"])
    flow.done(mid, home, "improvements", {"improvements": {str(p1): [pick]}})
    player = flow.player(home, 1)
    assert player["value"] == 5_000 + value_added
    assert player["attributes"] == {"ma": 6, "st": 3, "ag": 3, "av": 8, **attributes}
    assert player["skills"] == ([] if attributes else [pick])
    assert flow.team(home)["team_value"] == TV + value_added


def test_an_improvement_the_roll_does_not_allow_is_refused(flow):
    """H ("1. Improvements"): a 7 allows only a normal skill: no attribute, no double-access skill."""
    home, p1 = flow.home, flow.pid(flow.home, 1)
    mid = flow.match(1, 0, home={"mvp": p1}, players=[{"player": p1, "touchdowns": 1}], auto_tds=False)
    flow.step(mid, home, "improvements", rolls={"improvement": [3, 4]})
    for pick in (["st"], ["Dodge"], ["Block", "Tackle"], ["Not A Skill"]):
        r = flow.post(mid, home, "improvements", {"improvements": {str(p1): pick}})
        assert_refused(r, 400, f"choices.improvements.{p1}")
    assert flow.player(home, 1)["skills"] == [] and flow.state(mid, home)["step"] == "improvements"


def test_two_levels_in_one_match_give_two_rolls(flow):
    """H ("1. Improvements"): levels at 6 and 16 SPP: 0 → 17 SPP reaches two, so two rolls and two choices."""
    home, p1 = flow.home, flow.pid(flow.home, 1)
    # 4 touchdowns × 3 + MVP 5 = 17 SPP.
    mid = flow.match(4, 0, home={"mvp": p1}, players=[{"player": p1, "touchdowns": 4}], auto_tds=False)
    state = flow.step(mid, home, "improvements", rolls={"improvement": [3, 4, 4, 6]})
    assert [o["total"] for o in state["pending"]["options"][str(p1)]] == [7, 10]
    r = flow.post(mid, home, "improvements", {"improvements": {str(p1): ["Block"]}})
    assert_refused(r, 400, f"choices.improvements.{p1}")  # two levels need two choices
    flow.done(mid, home, "improvements", {"improvements": {str(p1): ["Block", "ma"]}})
    player = flow.player(home, 1)
    assert (player["spp"], player["skills"], player["attributes"]["ma"]) == (17, ["Block"], 7)
    assert player["value"] == 5_000 + 2_000 + 3_000
    assert flow.keys(mid, home) == [("improvement", [3, 4], True), ("improvement", [4, 6], True)]


# --- 2. Update team stats ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "hs", "as_", "points", "words"),
    [
        pytest.param("league", 2, 1, (3, 0), "Won 2–1 (league): 3 league point(s).", id="league-win"),
        pytest.param("league", 1, 1, (1, 1), "Drawn 1–1 (league): 1 league point(s).", id="league-draw"),
        pytest.param("league", 0, 1, (0, 3), "Lost 0–1 (league): 0 league point(s).", id="league-loss"),
        pytest.param("playoff", 1, 0, (3, 0), "Won 1–0 (playoff): 3 league point(s).", id="playoff-win"),
        pytest.param("friendly", 2, 1, (0, 0), "Won 2–1 (friendly): 0 league point(s).", id="friendly"),
    ],
)
def test_league_points_are_three_one_nothing_and_none_for_a_friendly(flow, kind, hs, as_, points, words):
    """R ("League", "2. Update team stats"): win 3, draw 1, loss 0; H: friendlies give no league points.
    I (code): the standings still count every final match — a friendly or a play-off too — as played, with its
    touchdowns and casualties (which feed the tie-breakers); only its points are 0."""
    mid = flow.match(hs, as_, kind=kind, home={"casualties_inflicted": 1})
    sides = {s["team"]: s["league_points"] for s in flow.match_json(mid)["sides"]}
    assert (sides[flow.home.pk], sides[flow.away.pk]) == points
    state = flow.walk(mid, flow.home, until="fortune")
    assert lines(state, "team_stats") == [words]
    standings = flow.public.get(f"/api/v1/leagues/{flow.league.pk}/standings/").json()["rows"]
    rows = {row["team"]: row for row in standings}
    assert (rows[flow.home.pk]["points"], rows[flow.away.pk]["points"]) == points
    home_row = rows[flow.home.pk]
    assert (home_row["played"], home_row["scored"], home_row["conceded"], home_row["casualties_inflicted"]) == (
        1,
        hs,
        as_,
        1,
    )


# --- 3. Fortune and FAME: winnings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hs", "as_", "fame", "d6", "amount", "words"),
    [
        pytest.param(1, 0, 1, 4, 6_000, "Winnings: 4 × 1,000 + FAME 1 × 1,000 + win 1,000 = 6,000 gil.", id="win"),
        pytest.param(1, 1, 0, 2, 3_000, "Winnings: 2 × 1,000 + FAME 0 × 1,000 + draw 1,000 = 3,000 gil.", id="draw"),
        pytest.param(0, 1, 2, 5, 7_000, "Winnings: 5 × 1,000 + FAME 2 × 1,000 = 7,000 gil.", id="loss"),
    ],
)
def test_winnings_are_d6_plus_fame_plus_a_thousand_for_a_win_or_draw(flow, hs, as_, fame, d6, amount, words):
    """R ("3. Fortune and FAME", Winnings): d6 × 1,000 + FAME × 1,000 + 1,000 if won + 1,000 if drawn."""
    home = flow.home
    mid = flow.match(hs, as_, home={"fame": fame})
    state = flow.walk(
        mid,
        home,
        until="hire_fire",
        fortune=({"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [d6], "fan_factor": [1, 1, 1]}),
    )
    assert words in lines(state, "fortune")
    assert flow.team(home)["treasury"] == START + amount
    last = flow.ledger(home)[-1]
    assert (last["amount"], last["balance_after"], last["match"]) == (amount, START + amount, mid)
    assert last["reason"] == f"Winnings, match #{mid}"


def test_the_winners_reroll_must_keep_the_second_result(flow):
    """R ("3. Fortune and FAME", Winnings): the winner may re-roll once and must keep the second result —
    the coach sees the first die (pending `reroll_winnings`), and a worse second die still stands."""
    home = flow.home
    mid = flow.match(1, 0)
    flow.walk(mid, home, until="fortune")
    state = flow.step(mid, home, "fortune", {"seek_sponsor": False}, {"winnings": [5], "fan_factor": [1, 1, 1]})
    assert state["pending"]["decision"] == "reroll_winnings"
    assert state["pending"]["options"] == {"rolled": 5}
    assert flow.team(home)["treasury"] == START
    # The Fan Factor dice entered before the pause are still the ones used.
    state = flow.done(mid, home, "fortune", {"reroll_winnings": True}, {"winnings_reroll": [2]})
    assert "Re-rolled the winnings die: 5 → 2 (the second result stands)." in lines(state, "fortune")
    assert flow.team(home)["treasury"] == START + 3_000  # 2 × 1,000 + win 1,000
    assert flow.keys(mid, home, "fortune") == [
        ("winnings", [5], True),
        ("winnings_reroll", [2], True),
        ("fan_factor", [1, 1, 1], True),
    ]


def test_a_loser_is_not_offered_the_reroll(flow):
    """R ("3. Fortune and FAME", Winnings): only the winner may re-roll; a loser's entered re-roll is ignored."""
    home = flow.home
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="fortune")
    flow.done(
        mid, home, "fortune", {"seek_sponsor": False}, {"winnings": [2], "winnings_reroll": [6], "fan_factor": [1, 1]}
    )
    assert flow.team(home)["treasury"] == START + 2_000
    assert [k for k, _, _ in flow.keys(mid, home)] == ["winnings", "fan_factor"]


@pytest.mark.parametrize(
    ("hs", "as_", "fame", "d6", "d3", "amount", "words"),
    [
        pytest.param(
            1, 0, 1, 3, 2, 8_000, "won at owned stadium: +(2 + 1) × 1,000 = +3,000 gil", id="win-plus-d3-and-fame"
        ),
        pytest.param(
            0, 1, 1, 4, 3, 3_000, "lost at owned stadium: −(3 − 1) × 1,000 = −2,000 gil", id="loss-minus-d3-less-fame"
        ),
        pytest.param(
            0,
            1,
            2,
            2,
            1,
            4_000,
            "lost at owned stadium: (1 − 2) is not positive, so nothing is deducted",
            id="loss-d3-below-fame",
        ),
        pytest.param(0, 1, 0, 1, 3, 0, "winnings never go below 0 gil", id="loss-never-below-zero"),
    ],
)
def test_winnings_at_an_owned_stadium(flow, plain_stadium, hs, as_, fame, d6, d3, amount, words):
    """R ("3. Fortune and FAME", Winnings): at a stadium the team owns, win → +(d3 + FAME) × 1,000; loss →
    −(d3 − FAME) × 1,000, I: only when positive, and winnings never below 0."""
    home = flow.home
    own_stadium(home, plain_stadium)
    mid = flow.match(hs, as_, stadium=plain_stadium, home={"fame": fame})
    flow.walk(mid, home, until="fortune")
    state = flow.done(
        mid,
        home,
        "fortune",
        {"reroll_winnings": False, "seek_sponsor": False},
        {"winnings": [d6], "stadium_bonus": [d3], "fan_factor": [1, 1, 1]},
    )
    assert words in text(state, "fortune")
    assert flow.team(home)["treasury"] == START + amount
    assert ("stadium_bonus", [d3], True) in flow.keys(mid, home)
    if not amount:
        assert [e["reason"] for e in flow.ledger(home) if e["match"] == mid] == []  # no 0-gil entry


def test_a_draw_at_an_owned_stadium_rolls_no_stadium_bonus(flow, plain_stadium):
    """R ("3. Fortune and FAME", Winnings): the owned-stadium d3 applies to a win or a loss only, so a draw needs
    no `stadium_bonus` die (the roll log should hold only dice that were needed)."""
    home = flow.home
    own_stadium(home, plain_stadium)
    mid = flow.match(1, 1, stadium=plain_stadium)
    flow.walk(mid, home, until="fortune")
    flow.done(mid, home, "fortune", {"seek_sponsor": False}, {"winnings": [2], "fan_factor": [1, 1]})
    assert flow.team(home)["treasury"] == START + 3_000
    assert [k for k, _, _ in flow.keys(mid, home)] == ["winnings", "fan_factor"]


# --- Conceding ---------------------------------------------------------------------------------------------


def test_a_conceding_team_gets_no_winnings_and_loses_one_fan_factor_without_rolling(flow):
    """R ("Conceding", "3. Fortune and FAME"): the conceding team gets no winnings and loses 1 FF without rolling."""
    away = flow.away
    set_ff(away, 2)
    mid = flow.match(1, 0, away={"conceded": True})
    flow.walk(mid, away, until="fortune")
    state = flow.done(mid, away, "fortune", {"seek_sponsor": False}, {"winnings": [6], "fan_factor": [1, 1]})
    assert lines(state, "fortune") == [
        "Conceded: no winnings (they go to the opponent).",
        "Conceded: Fan Factor −1 automatically, without rolling (2 → 1).",
    ]
    assert (flow.team(away)["treasury"], flow.team(away)["fan_factor"]) == (START, 1)
    assert flow.keys(mid, away) == []


def test_the_winner_of_a_concession_takes_both_winnings_rolled_in_its_own_step(flow):
    """R ("Conceding"): the winner gains the conceding team's winnings — rolled in the winner's step, with the
    conceder's FAME and no win bonus — on top of its own."""
    home = flow.home
    mid = flow.match(1, 0, home={"fame": 0}, away={"conceded": True, "fame": 1})
    flow.walk(mid, home, until="fortune")
    state = flow.done(
        mid,
        home,
        "fortune",
        {"reroll_winnings": False, "seek_sponsor": False},
        {"winnings": [4, 3], "fan_factor": [1, 1, 1]},
    )
    assert lines(state, "fortune")[:4] == [
        "Winnings: 4 × 1,000 + FAME 0 × 1,000 + win 1,000 = 5,000 gil.",
        "The opponent conceded: its winnings are ours.",
        "Winnings: 3 × 1,000 + FAME 1 × 1,000 = 4,000 gil.",
        "Winnings paid into the treasury: +9,000 gil.",
    ]
    assert flow.team(home)["treasury"] == START + 9_000
    assert flow.keys(mid, home)[:2] == [("winnings", [4], True), ("winnings", [3], True)]


def test_the_winners_mvp_also_gets_the_conceders_mvp_award(flow):
    """R ("Conceding"): the opponent gains the conceding team's MVP: the winner's MVP earns +5 twice and the MVP
    the conceder named earns nothing."""
    home, away = flow.home, flow.away
    mid = flow.match(1, 0, home={"mvp": flow.pid(home, 1)}, away={"conceded": True, "mvp": flow.pid(away, 1)})
    assert flow.player(home, 1)["spp"] == 10
    assert flow.player(away, 1)["spp"] == 0
    sides = {s["team"]: s for s in flow.match_json(mid)["sides"]}
    assert (sides[home.pk]["mvp"], sides[away.pk]["mvp"]) == (flow.pid(home, 1), None)
    assert (sides[home.pk]["outcome"], sides[away.pk]["outcome"]) == ("win", "loss")
    state = flow.step(mid, home, "improvements", rolls={"improvement": [3, 4]})
    assert state["pending"]["decision"] == "improvements"  # 10 SPP: the level at 6


def test_conceding_players_with_51_spp_leave_on_one_to_three(flow):
    """R ("Conceding"): every conceding player with ≥ 51 SPP rolls 1d6 `concede_leave`: 1–3 leaves the team."""
    away = flow.away
    for number, spp in ((1, 51), (2, 60), (3, 50)):
        Player.objects.filter(pk=flow.pid(away, number)).update(spp=spp)
    mid = flow.match(1, 0, away={"conceded": True})
    flow.done(mid, away, "improvements")
    state = flow.done(mid, away, "team_stats", rolls={"concede_leave": [3, 4]})
    assert lines(state, "team_stats") == [
        "Lost 0–1 (league): 0 league point(s).",
        "Conceded: Away 1 (51 SPP) rolls 3 and leaves the team.",
        "Conceded: Away 2 (60 SPP) rolls 4 and stays.",
    ]
    numbers = [p["number"] for p in flow.team(away)["players"]]
    assert 1 not in numbers and 2 in numbers and 3 in numbers
    assert flow.team(away)["team_value"] == TV - 5_000
    assert flow.keys(mid, away) == [("concede_leave", [3], True), ("concede_leave", [4], True)]


def test_an_early_concession_has_no_penalty(flow):
    """R ("Conceding"): conceding when only 2 or fewer players could be fielded carries no extra penalty: the
    conceder keeps its MVP and its winnings, rolls for Fan Factor, and nobody rolls to leave."""
    home, away = flow.home, flow.away
    set_ff(away, 2)
    Player.objects.filter(pk=flow.pid(away, 2)).update(spp=60)
    mid = flow.match(1, 0, home={"mvp": flow.pid(home, 1)}, away={"conceded_early": True, "mvp": flow.pid(away, 1)})
    sides = {s["team"]: s for s in flow.match_json(mid)["sides"]}
    assert (sides[away.pk]["conceded"], sides[away.pk]["conceded_early"], sides[away.pk]["outcome"]) == (
        True,
        True,
        "loss",
    )
    assert (sides[home.pk]["league_points"], sides[away.pk]["league_points"]) == (3, 0)
    assert (flow.player(home, 1)["spp"], flow.player(away, 1)["spp"]) == (5, 5)

    flow.walk(mid, away, until="fortune", team_stats=(None, {"concede_leave": [1]}))
    assert flow.keys(mid, away) == []  # no concede_leave roll
    state = flow.done(mid, away, "fortune", {"seek_sponsor": False}, {"winnings": [3], "fan_factor": [1, 2]})
    assert "Lost: 2d6 rolled 1 + 2 = 3 against Fan Factor 2: no change." in lines(state, "fortune")
    assert (flow.team(away)["treasury"], flow.team(away)["fan_factor"]) == (START + 3_000, 2)

    flow.walk(mid, home, until="fortune")
    flow.done(
        mid,
        home,
        "fortune",
        {"reroll_winnings": False, "seek_sponsor": False},
        {"winnings": [4, 6], "fan_factor": [1, 1, 1]},
    )
    assert flow.team(home)["treasury"] == START + 5_000  # its own winnings only
    assert [k for k, _, _ in flow.keys(mid, home)] == ["winnings", "fan_factor"]


def test_the_winnings_taken_from_a_conceder_at_its_owned_stadium_keep_the_stadium_cut(flow, plain_stadium):
    """R ("Conceding", Winnings): the winner gains *the conceding team's* winnings — for a conceder at a stadium it
    owns, a loss there costs −(d3 − FAME) × 1,000, rolled in the winner's step."""
    home, away = flow.home, flow.away
    own_stadium(away, plain_stadium)
    mid = flow.match(1, 0, stadium=plain_stadium, away={"conceded": True})
    flow.walk(mid, home, until="fortune")
    flow.done(
        mid,
        home,
        "fortune",
        {"reroll_winnings": False, "seek_sponsor": False},
        {"winnings": [3, 4], "stadium_bonus": [2], "fan_factor": [1, 1, 1]},
    )
    # Own: 3 × 1,000 + win 1,000 = 4,000; the conceder's: 4 × 1,000 − (2 − 0) × 1,000 = 2,000.
    assert flow.team(home)["treasury"] == START + 6_000


def test_entered_dice_given_before_a_pause_are_used_when_the_step_resumes(flow):
    """Dice and rolls ("a rule takes the value the coaches rolled at the table"); api-v1: the next POST of a paused
    step answers the decision. The concession winner entered both winnings dice; pausing on the re-roll
    decision must not turn the second one (the conceder's winnings) into a server roll."""
    home = flow.home
    mid = flow.match(1, 0, away={"conceded": True})
    flow.walk(mid, home, until="fortune")
    state = flow.step(mid, home, "fortune", {"seek_sponsor": False}, {"winnings": [4, 3], "fan_factor": [1, 1, 1]})
    assert state["pending"]["decision"] == "reroll_winnings"
    flow.done(mid, home, "fortune", {"reroll_winnings": False})
    assert flow.keys(mid, home) == [("winnings", [4], True), ("winnings", [3], True), ("fan_factor", [1, 1, 1], True)]
    assert flow.team(home)["treasury"] == START + 5_000 + 3_000


# --- 3. Fortune and FAME: residency ------------------------------------------------------------------------


def test_a_residency_total_of_five_or_less_is_rejected(flow, stadium):
    """R ("3. Fortune and FAME", Residency): 1d6 `residency` − 1 if lost; total ≤ 5: rejected."""
    home = flow.home
    mid = flow.match(0, 1, stadium=stadium)
    flow.walk(mid, home, until="fortune")
    state = flow.done(
        mid,
        home,
        "fortune",
        {"residency": "attempt", "seek_sponsor": False},
        {"winnings": [2], "residency": [6], "fan_factor": [1, 1]},
    )
    assert "Residency: d6 6 −1 lost = 5: Rejected! No deal." in lines(state, "fortune")
    team = flow.team(home)
    assert (team["home_stadium"], team["treasury"]) == (None, START + 2_000)


def test_a_costly_residency_accepted_pays_all_of_this_matchs_winnings(flow, stadium):
    """R ("3. Fortune and FAME", Residency): 6–8 "It'll cost you": accepting pays all this match's winnings and
    the stadium becomes the team's home (resident, not owner)."""
    home = flow.home
    mid = flow.match(1, 1, stadium=stadium)
    flow.walk(mid, home, until="fortune")
    state = flow.done(
        mid,
        home,
        "fortune",
        {"residency": "accept_cost", "seek_sponsor": False},
        {"winnings": [2], "residency": [6], "fan_factor": [1, 1]},
    )
    assert "Residency: d6 6 = 6: It'll cost you… pay all of this match's winnings to accept, or reject the offer." in (
        lines(state, "fortune")
    )
    assert "Paid this match's winnings (3,000 gil): The Lava Pit is home." in lines(state, "fortune")
    team = flow.team(home)
    assert (team["home_stadium"], team["owns_stadium"], team["treasury"]) == (stadium.pk, False, START)
    assert [(e["amount"], e["reason"]) for e in flow.ledger(home) if e["match"] == mid] == [
        (3_000, f"Winnings, match #{mid}"),
        (-3_000, "Residency at The Lava Pit: this match's winnings"),
    ]


@pytest.mark.parametrize(
    ("answer", "home_after", "treasury_after"), [("accept_cost", True, START), ("reject", False, START + 3_000)]
)
def test_an_attempted_residency_pauses_on_its_cost_and_resumes_with_the_same_die(
    flow, stadium, answer, home_after, treasury_after
):
    """R ("3. Fortune and FAME", Residency): on 6–8 the coach pays or rejects; api-v1: given only "attempt", the
    step is pending on `residency` with the two answers, and resumes with the die already rolled."""
    home = flow.home
    mid = flow.match(1, 1, stadium=stadium)
    flow.walk(mid, home, until="fortune")
    state = flow.step(
        mid,
        home,
        "fortune",
        {"residency": "attempt", "seek_sponsor": False},
        {"winnings": [2], "residency": [6], "fan_factor": [1, 1]},
    )
    pending = state["pending"]
    assert (pending["decision"], pending["options"]) == ("residency", ["accept_cost", "reject"])
    assert "It'll cost you: all of this match's winnings (3,000 gil)" in pending["message"]
    # A different residency die on the resume is ignored: the 6 already rolled stands.
    flow.done(mid, home, "fortune", {"residency": answer}, {"residency": [1], "fan_factor": [1, 1]})
    team = flow.team(home)
    assert (team["home_stadium"] == stadium.pk, team["treasury"]) == (home_after, treasury_after)
    assert ("residency", [6], True) in flow.keys(mid, home) and ("residency", [1], True) not in flow.keys(mid, home)


def test_a_residency_of_nine_or_more_makes_the_stadium_home_with_the_sponsorship_bonus(flow, stadium):
    """R ("3. Fortune and FAME", Residency): +1 won, +2 with an Ongoing Sponsorship; ≥ 9 unconditional: the
    stadium becomes the team's home at no cost."""
    home = flow.home
    Sponsorship.objects.create(team=home, name="Gil Brew")
    mid = flow.match(1, 0, stadium=stadium)
    flow.walk(mid, home, until="fortune")
    state = flow.done(
        mid,
        home,
        "fortune",
        {"reroll_winnings": False, "residency": "attempt", "seek_sponsor": False, "end_sponsorships": []},
        {"winnings": [1], "residency": [6], "fan_factor": [1, 1, 1], "ongoing_amount": [1], "ongoing_risk": [6]},
    )
    assert (
        "Residency: d6 6 +1 won +2 Ongoing Sponsorship = 9: Unconditional offer: the deal is made and the stadium "
        "becomes the team's home." in lines(state, "fortune")
    )
    team = flow.team(home)
    # 1 × 1,000 + win 1,000 winnings, + 1,000 ongoing sponsorship; nothing paid for the residency.
    assert (team["home_stadium"], team["owns_stadium"], team["treasury"]) == (stadium.pk, False, START + 3_000)


@pytest.mark.parametrize(
    ("ff", "d6", "words"),
    [
        pytest.param(8, 4, "Residency: d6 4 +2 Fan Factor 8 or more = 6", id="ff8-plus2"),
        pytest.param(13, 3, "Residency: d6 3 +4 Fan Factor 13 or more = 7", id="ff13-plus4-not-plus6"),
    ],
)
def test_the_residency_fan_factor_bonus_is_two_at_eight_and_four_not_six_at_thirteen(flow, stadium, ff, d6, words):
    """R/I ("3. Fortune and FAME", Residency): +2 if FF ≥ 8; I: +4 instead, not +6, if FF ≥ 13. Both totals here are
    "It'll cost you" (with +6 the second would be 9, unconditional and free). I (code): the Fan Factor before this
    phase's own Fan Factor roll."""
    home = flow.home
    set_ff(home, ff)
    mid = flow.match(1, 1, stadium=stadium)
    flow.walk(mid, home, until="fortune")
    state = flow.done(
        mid,
        home,
        "fortune",
        {"residency": "accept_cost", "seek_sponsor": False},
        {"winnings": [2], "residency": [d6], "fan_factor": [6, 6]},
    )
    assert any(line.startswith(words + ": It'll cost you") for line in lines(state, "fortune"))
    team = flow.team(home)
    assert (team["home_stadium"], team["treasury"]) == (stadium.pk, START)  # paid its 3,000 winnings


def test_rejecting_a_residency_up_front_rolls_nothing(flow, stadium):
    """R ("3. Fortune and FAME", Residency): the deal is the coach's choice; "reject" asks for no die."""
    home = flow.home
    mid = flow.match(1, 1, stadium=stadium)
    flow.walk(mid, home, until="fortune")
    flow.done(
        mid,
        home,
        "fortune",
        {"residency": "reject", "seek_sponsor": False},
        {"winnings": [2], "residency": [6], "fan_factor": [1, 1]},
    )
    assert flow.team(home)["home_stadium"] is None
    assert "residency" not in [k for k, _, _ in flow.keys(mid, home)]


@pytest.mark.parametrize("where", ["no special attribute", "the opponent's home"])
def test_no_residency_is_offered_without_a_special_attribute_or_at_the_opponents_home(
    flow, stadium, plain_stadium, where
):
    """R ("3. Fortune and FAME", Residency): only if the stadium has a special attribute and is not another
    team's home stadium."""
    home, away = flow.home, flow.away
    if where == "the opponent's home":
        own_stadium(away, stadium, owned=False)
        venue = stadium
    else:
        venue = plain_stadium
    mid = flow.match(1, 1, stadium=venue)
    flow.walk(mid, home, until="fortune")
    flow.done(mid, home, "fortune", {"seek_sponsor": False}, {"winnings": [2], "residency": [6], "fan_factor": [1, 1]})
    assert flow.team(home)["home_stadium"] is None
    assert "residency" not in [k for k, _, _ in flow.keys(mid, home)]


def test_no_residency_is_offered_at_a_third_teams_home(flow, stadium, league):
    """R ("3. Fortune and FAME", Residency): not at another team's home stadium — any team of the league, not just
    this match's opponent."""
    home = flow.home
    third = TeamFactory(league=league, coach=UserFactory(username="carol"), name="Third", roster="hume")
    own_stadium(third, stadium, owned=False)
    mid = flow.match(1, 1, stadium=stadium)
    flow.walk(mid, home, until="fortune")
    state = flow.step(
        mid, home, "fortune", {"seek_sponsor": False}, {"winnings": [2], "residency": [6], "fan_factor": [1, 1]}
    )
    assert state["pending"] is None, state["pending"]
    assert flow.team(home)["home_stadium"] is None


# --- 3. Fortune and FAME: fan factor -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hs", "as_", "ff", "dice", "after"),
    [
        pytest.param(1, 0, 3, [1, 1, 2], 4, id="win-3d6-4-above-3-up"),
        pytest.param(1, 0, 4, [1, 1, 2], 4, id="win-3d6-4-not-above-4"),
        pytest.param(1, 1, 5, [3, 3], 6, id="draw-2d6-6-above-5-up"),
        pytest.param(1, 1, 5, [2, 3], 5, id="draw-2d6-5-equal"),
        pytest.param(1, 1, 5, [1, 2], 4, id="draw-2d6-3-below-5-down"),
        pytest.param(0, 1, 5, [1, 2], 4, id="loss-2d6-3-below-5-down"),
        pytest.param(0, 1, 5, [6, 6], 5, id="loss-2d6-12-never-up"),
        pytest.param(0, 1, 0, [1, 1], 0, id="loss-ff0-stays"),
    ],
)
def test_fan_factor_moves_by_the_outcome_roll(flow, hs, as_, ff, dice, after):
    """R ("3. Fortune and FAME", Fan Factor): won 3d6 > FF → +1; drawn 2d6 > FF → +1, < FF → −1; lost 2d6 < FF → −1."""
    home = flow.home
    set_ff(home, ff)
    mid = flow.match(hs, as_)
    flow.walk(mid, home, until="fortune")
    state = flow.done(
        mid, home, "fortune", {"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [1], "fan_factor": dice}
    )
    team = flow.team(home)
    assert team["fan_factor"] == after
    assert team["team_value"] == TV + after * 1_000  # H: FF × 1,000 in TV
    assert ("fan_factor", dice, True) in flow.keys(mid, home)
    assert any(line.startswith(("Won: 3d6", "Drawn: 2d6", "Lost: 2d6")) for line in lines(state, "fortune"))


def test_a_fan_factor_never_goes_below_zero(flow):
    """H ("3. Fortune and FAME", Fan Factor): FF never below 0 — a conceding team at FF 0 stays at 0."""
    away = flow.away
    mid = flow.match(1, 0, away={"conceded": True})
    state = flow.walk(mid, away, until="hire_fire")
    assert (
        "Conceded: Fan Factor −1 automatically, without rolling, but Fan Factor never goes below 0 (stays at 0)."
        in lines(state, "fortune")
    )
    assert flow.team(away)["fan_factor"] == 0


# --- 3. Fortune and FAME: sponsorships ---------------------------------------------------------------------


def test_an_ongoing_sponsorship_pays_d3_thousand_and_then_the_coach_may_end_it(flow):
    """R/I ("3. Fortune and FAME", Sponsorship): each Ongoing Sponsorship pays 1d3 × 1,000 then rolls its 1d6 risk;
    R: after rolling, the coach may end any (pending `end_sponsorships` with the ids)."""
    home = flow.home
    sponsor = Sponsorship.objects.create(team=home, name="Gil Brew")
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="fortune")
    state = flow.step(
        mid,
        home,
        "fortune",
        {"seek_sponsor": False},
        {"winnings": [1], "fan_factor": [1, 1], "ongoing_amount": [2], "ongoing_risk": [3]},
    )
    assert (state["pending"]["decision"], state["pending"]["options"]) == ("end_sponsorships", [sponsor.pk])
    assert [s["id"] for s in flow.team(home)["sponsorships"]] == [sponsor.pk]
    r = flow.post(mid, home, "fortune", {"end_sponsorships": [sponsor.pk + 1000]})
    assert_refused(r, 400, "choices.end_sponsorships")
    state = flow.done(mid, home, "fortune", {"end_sponsorships": [sponsor.pk]})
    assert (
        "Ongoing Sponsorship: 2 × 1,000 = 2,000 gil; risk roll 3: no player misses the next match (only a 1 does that)."
        in lines(state, "fortune")
    )
    assert f"Ended ongoing sponsorship #{sponsor.pk}." in lines(state, "fortune")
    team = flow.team(home)
    assert (team["treasury"], team["sponsorships"]) == (START + 1_000 + 2_000, [])
    assert flow.ledger(home)[-1]["reason"] == "Ongoing sponsorship Gil Brew"


def test_the_ongoing_sponsorship_risk_sidelines_a_random_player_by_shirt_number(flow):
    """R/I ("3. Fortune and FAME", Sponsorship): each sponsorship's own 1d6 `ongoing_risk`: on 1 a random player
    (1dN `random_player` over the players in shirt-number order) misses the next match; no further effect on a
    player already missing it."""
    home = flow.home
    Sponsorship.objects.create(team=home, name="Gil Brew")
    Sponsorship.objects.create(team=home, name="Moogle Mart")
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="fortune")
    state = flow.done(
        mid,
        home,
        "fortune",
        {"seek_sponsor": False, "end_sponsorships": []},
        {
            "winnings": [1],
            "fan_factor": [1, 1],
            "ongoing_amount": [1, 3],
            "ongoing_risk": [1, 1],
            "random_player": [3, 3],
        },
    )
    assert "Random player (1d11 = 3): Home 3 misses the next match." in lines(state, "fortune")
    assert "Random player (1d11 = 3): Home 3, already missing the next match." in lines(state, "fortune")
    team = flow.team(home)
    assert [p["number"] for p in team["players"] if p["status"] == "miss_next_match"] == [3]
    assert team["treasury"] == START + 1_000 + 1_000 + 3_000
    assert team["team_value"] == TV - 5_000  # R: players missing the next match do not count
    assert len(team["sponsorships"]) == 2
    assert [(k, v) for k, v, _ in flow.keys(mid, home) if k == "random_player"] == [("random_player", [3])] * 2


def test_a_random_player_roll_above_the_number_of_players_is_refused(flow):
    """Dice and rolls: `random_player` is 1dN over the eligible players: a 12 among 11 is not a face of the die."""
    home = flow.home
    Sponsorship.objects.create(team=home, name="Gil Brew")
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="fortune")
    r = flow.post(
        mid,
        home,
        "fortune",
        {"seek_sponsor": False, "end_sponsorships": []},
        {"winnings": [1], "fan_factor": [1, 1], "ongoing_amount": [1], "ongoing_risk": [1], "random_player": [12]},
    )
    assert "12 is not a face of a d11" in assert_refused(r, 400, "rolls.random_player")["rolls.random_player"][0]
    assert (flow.state(mid, home)["step"], flow.team(home)["treasury"]) == ("fortune", START)


@pytest.mark.parametrize(
    ("kind", "hs", "as_", "cas", "owns", "d20", "result", "words"),
    [
        pytest.param(
            "league",
            3,
            0,
            0,
            False,
            16,
            "ongoing",
            "d20 16 +6 Fan Factor +2 won +1 scored 2+ more touchdowns = 25",
            id="25-ongoing",
        ),
        pytest.param(
            "league",
            3,
            0,
            0,
            False,
            15,
            "one_time",
            "d20 15 +6 Fan Factor +2 won +1 scored 2+ more touchdowns = 24",
            id="24-one-time",
        ),
        pytest.param("league", 1, 0, 0, False, 12, "one_time", "d20 12 +6 Fan Factor +2 won = 20", id="20-one-time"),
        pytest.param("league", 1, 0, 0, False, 11, "none", "d20 11 +6 Fan Factor +2 won = 19", id="19-none"),
        pytest.param(
            "league",
            0,
            1,
            5,
            False,
            11,
            "one_time",
            "d20 11 +6 Fan Factor +2 opponent suffered 3+ casualties +1 opponent suffered 5+ casualties = 20",
            id="opponent-suffered-5-casualties",
        ),
        pytest.param("league", 0, 1, 0, True, 12, "one_time", "d20 12 +6 Fan Factor +2 owns a stadium = 20", id="owns"),
        pytest.param(
            "playoff", 0, 1, 0, False, 11, "one_time", "d20 11 +6 Fan Factor +3 play-off match = 20", id="playoff"
        ),
        pytest.param(
            "final",
            0,
            1,
            0,
            False,
            17,
            "ongoing",
            "d20 17 +6 Fan Factor +3 play-off match +2 the final = 28",
            id="final",
        ),
    ],
)
def test_seeking_a_sponsor_adds_the_modifiers(flow, plain_stadium, kind, hs, as_, cas, owns, d20, result, words):
    """R ("3. Fortune and FAME", Sponsorship): 1d20 + FF, +2 owns a stadium, +2 won, +1 scored ≥ 2 more touchdowns,
    +2 opponent suffered ≥ 3 casualties, +1 more if ≥ 5, +3 play-off, +2 more the final; ≥ 25 Ongoing, else ≥ 20
    One-time (1d6 × 6,000)."""
    home = flow.home
    set_ff(home, 6)
    if owns:
        own_stadium(home, plain_stadium)
    # The opponent's casualties are its injured players (shirts 1, 2, …), however they were inflicted.
    injured = [{"player": flow.pid(flow.away, number), "injury": "badly_hurt"} for number in range(1, cas + 1)]
    mid = flow.match(hs, as_, kind=kind, home={"casualties_inflicted": cas}, players=injured)
    flow.walk(mid, home, until="fortune")
    # FF dice that change nothing: 3d6 3 is not above 6 after a win; 2d6 12 is not below 6 after a loss.
    ff_dice = [1, 1, 1] if hs > as_ else [6, 6]
    state = flow.done(
        mid,
        home,
        "fortune",
        {"reroll_winnings": False, "seek_sponsor": True},
        {"winnings": [1], "fan_factor": ff_dice, "sponsorship": [d20], "one_time_amount": [4], "one_time_risk": [2]},
    )
    assert any(line.startswith(f"Sponsorship: {words}: ") for line in lines(state, "fortune")), lines(state, "fortune")
    team = flow.team(home)
    winnings = 1_000 + (1_000 if hs > as_ else 0)
    if result == "ongoing":
        assert [s["name"] for s in team["sponsorships"]] == [f"Sponsor of match #{mid}"]
        assert team["treasury"] == START + winnings
    elif result == "one_time":
        assert team["sponsorships"] == []
        assert team["treasury"] == START + winnings + 24_000  # 4 × 6,000
        assert flow.ledger(home)[-1]["reason"] == "One-time sponsorship"
    else:
        assert team["sponsorships"] == [] and team["treasury"] == START + winnings


def seek_sponsor_lines(flow, mid, team, *, d20: int) -> list[str]:
    """The fortune step's lines after a loss, the coach seeking a sponsor (FF dice that change nothing)."""
    flow.walk(mid, team, until="fortune")
    state = flow.done(
        mid,
        team,
        "fortune",
        {"seek_sponsor": True},
        {"winnings": [1], "fan_factor": [6, 6], "sponsorship": [d20], "one_time_amount": [1], "one_time_risk": [2]},
    )
    return [line for line in lines(state, "fortune") if line.startswith("Sponsorship:")]


def test_the_sponsor_bonus_counts_the_casualties_the_other_team_suffered_however_inflicted(flow):
    """R ("3. Fortune and FAME", Sponsorship): "+2 if the other team suffered at least 3 casualties (however they
    were inflicted)", "+1 if … at least 5": three away players injured, though home inflicted none of them (the
    crowd, failed dodges) — home seeking a sponsor gets +2."""
    home, away = flow.home, flow.away
    injured = [{"player": flow.pid(away, number), "injury": "miss_next_match"} for number in (1, 2, 3)]
    mid = flow.match(0, 1, players=injured)

    assert seek_sponsor_lines(flow, mid, home, d20=18) == [
        "Sponsorship: d20 18 +0 Fan Factor +2 opponent suffered 3+ casualties = 20: One-time Sponsorship (20 or more)."
    ]


def test_the_casualties_a_team_inflicted_are_not_what_its_opponent_suffered(flow):
    """R ("3. Fortune and FAME", Sponsorship): home inflicted 5 casualties by its own count, but no away player is
    injured on the result: the other team suffered none, so no casualty bonus."""
    home = flow.home
    mid = flow.match(0, 1, home={"casualties_inflicted": 5})

    assert seek_sponsor_lines(flow, mid, home, d20=18) == [
        "Sponsorship: d20 18 +0 Fan Factor = 18: no sponsor (below 20)."
    ]


def test_a_one_time_sponsorship_risk_sidelines_a_random_player(flow):
    """R ("3. Fortune and FAME", One-time): 1d6 × 6,000, then 1d6 `one_time_risk`: on 1 a random player misses the
    next match (`random_player`, shirt-number order)."""
    home = flow.home
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="fortune")
    state = flow.done(
        mid,
        home,
        "fortune",
        {"seek_sponsor": True},
        {
            "winnings": [1],
            "fan_factor": [1, 1],
            "sponsorship": [20],
            "one_time_amount": [6],
            "one_time_risk": [1],
            "random_player": [11],
        },
    )
    assert "One-time Sponsorship: 6 × 6,000 = 36,000 gil; risk roll 1: a random player misses the next match." in lines(
        state, "fortune"
    )
    team = flow.team(home)
    assert team["treasury"] == START + 1_000 + 36_000
    assert [p["number"] for p in team["players"] if p["status"] == "miss_next_match"] == [11]


def test_the_sponsor_roll_uses_the_fan_factor_after_this_phases_change(flow):
    """R/I ("3. Fortune and FAME", Sponsorship): "at the end of this phase … + FF" — the code adds the Fan Factor as
    this phase's roll left it: FF 5 drawn, 2d6 12 → FF 6, so 19 + 6 = 25 Ongoing (with 5 it would be One-time)."""
    home = flow.home
    set_ff(home, 5)
    mid = flow.match(1, 1)
    flow.walk(mid, home, until="fortune")
    state = flow.done(
        mid, home, "fortune", {"seek_sponsor": True}, {"winnings": [1], "fan_factor": [6, 6], "sponsorship": [19]}
    )
    assert "Sponsorship: d20 19 +6 Fan Factor = 25: Ongoing Sponsorship (25 or more)." in lines(state, "fortune")
    assert len(flow.team(home)["sponsorships"]) == 1


def test_a_sponsorship_gained_this_phase_neither_pays_nor_can_be_ended_yet(flow):
    """I ("3. Fortune and FAME", Ongoing): paid from the post-match sequence of the match after it was gained."""
    home = flow.home
    set_ff(home, 5)
    mid = flow.match(1, 1)
    flow.walk(mid, home, until="fortune")
    # Drawn, 2d6 6 beats FF 5 → FF 6; d20 20 + 6 = 26: Ongoing.
    state = flow.done(
        mid,
        home,
        "fortune",
        {"seek_sponsor": True},
        {"winnings": [1], "fan_factor": [3, 3], "sponsorship": [20], "ongoing_amount": [3], "ongoing_risk": [1]},
    )
    assert lines(state, "fortune")[-1] == "Gained an Ongoing Sponsorship."
    assert [k for k, _, _ in flow.keys(mid, home)] == ["winnings", "fan_factor", "sponsorship"]
    team = flow.team(home)
    assert len(team["sponsorships"]) == 1
    assert team["treasury"] == START + 2_000  # the draw's winnings only


# --- 4. Hire and fire --------------------------------------------------------------------------------------


def lose_at_home_stadium(flow, stadium, ff):
    """The home team, resident (not owner) at `stadium`, loses there 0–1; walked up to hire_fire."""
    home = flow.home
    own_stadium(home, stadium, owned=False)
    set_ff(home, ff)
    mid = flow.match(0, 1, stadium=stadium)
    # 2d6 12 is never below FF after a loss: Fan Factor stays put. Winnings 1 × 1,000.
    flow.walk(mid, home, until="hire_fire", fortune=({"seek_sponsor": False}, {"winnings": [1], "fan_factor": [6, 6]}))
    assert flow.team(home)["treasury"] == START + 1_000
    return mid


@pytest.mark.parametrize(
    ("ff", "d8", "words", "kept"),
    [
        pytest.param(
            9,
            8,
            "Stadium roll: a natural 8 loses the residency; gil cannot change it, so none is spent.",
            False,
            id="natural-8",
        ),
        pytest.param(
            4, 3, "Stadium roll: d8 3 = 3, not higher than Fan Factor 4: the residency is kept.", True, id="3-vs-ff4"
        ),
        pytest.param(
            4, 4, "Stadium roll: d8 4 = 4, not higher than Fan Factor 4: the residency is kept.", True, id="4-vs-ff4"
        ),
    ],
)
def test_keeping_a_residency_after_a_home_loss_without_a_decision(flow, stadium, ff, d8, words, kept):
    """R/I ("4. Hire and fire", Keeping a residency): a loss at a home stadium the team does not own rolls 1d8
    `stadium_loss`; I: a natural 8 loses it, a result not higher than FF keeps it (nothing to decide)."""
    home = flow.home
    mid = lose_at_home_stadium(flow, stadium, ff)
    state = flow.done(mid, home, "hire_fire", rolls={"stadium_loss": [d8]})
    assert words in lines(state, "hire_fire")
    team = flow.team(home)
    assert (team["home_stadium"] == stadium.pk, team["treasury"]) == (kept, START + 1_000)
    assert flow.keys(mid, home, "hire_fire") == [("stadium_loss", [d8], True)]


@pytest.mark.parametrize(
    ("spend", "kept", "words"),
    [
        pytest.param(
            9_000,
            True,
            "Stadium roll: d8 6 − 3 (bought for 3 × 3,000 = 9,000 gil) = 3, not higher than Fan Factor 3: "
            "the residency is kept.",
            id="spend-9000-keeps",
        ),
        pytest.param(
            3_000,
            False,
            "Stadium roll: d8 6 − 1 (bought for 1 × 3,000 = 3,000 gil) = 5, higher than Fan Factor 3: "
            "the residency is lost.",
            id="spend-3000-too-little-still-paid",
        ),
        pytest.param(
            0, False, "Stadium roll: d8 6 = 6, higher than Fan Factor 3: the residency is lost.", id="spend-nothing"
        ),
    ],
)
def test_keeping_a_residency_by_spending_3000_per_point(flow, stadium, spend, kept, words):
    """R/I ("4. Hire and fire", Keeping a residency): before the result counts the coach may spend 3,000 gil per −1
    (pending `keep_residency_spend`). I (code): gil spent is paid even when it was not enough."""
    home = flow.home
    mid = lose_at_home_stadium(flow, stadium, 3)
    state = flow.step(mid, home, "hire_fire", rolls={"stadium_loss": [6]})
    pending = state["pending"]
    assert pending["decision"] == "keep_residency_spend"
    assert pending["options"] == {"rolled": 6, "fan_factor": 3, "per_point": 3_000, "max": 9_000}
    for bad in (4_000, 12_000, -3_000):
        assert_refused(
            flow.post(mid, home, "hire_fire", {"keep_residency_spend": bad}), 400, "choices.keep_residency_spend"
        )
    state = flow.done(mid, home, "hire_fire", {"keep_residency_spend": spend})
    assert words in lines(state, "hire_fire")
    team = flow.team(home)
    assert (team["home_stadium"] == stadium.pk, team["treasury"]) == (kept, START + 1_000 - spend)


def test_no_residency_roll_after_a_loss_at_an_owned_home_stadium(flow, stadium):
    """R ("4. Hire and fire", Keeping a residency): only a *loss* at a home stadium the team does *not* own."""
    home = flow.home
    own_stadium(home, stadium, owned=True)
    mid = flow.match(0, 1, stadium=stadium)
    flow.walk(
        mid,
        home,
        until="prepare",
        fortune=({"seek_sponsor": False}, {"winnings": [6], "stadium_bonus": [1], "fan_factor": [6, 6]}),
    )
    assert flow.keys(mid, home, "hire_fire") == []
    assert flow.team(home)["home_stadium"] == stadium.pk


@pytest.mark.parametrize(
    ("dice", "amount", "words"),
    [
        pytest.param(
            [1, 3, 4], 7_000, "Stadium sale roll 1: Swindled, receive 7 × 1,000 = 7,000 gil.", id="1-swindled"
        ),
        pytest.param(
            [4, 2, 5],
            17_000,
            "Stadium sale roll 4: Sold at a loss, receive 10,000 + 7 × 1,000 = 17,000 gil.",
            id="2to5",
        ),
        pytest.param([6], 25_000, "Stadium sale roll 6: Break even, receive 25,000 gil.", id="6-break-even"),
    ],
)
def test_selling_an_owned_stadium(flow, plain_stadium, dice, amount, words):
    """R ("4. Hire and fire", Selling an owned stadium): 1d6 `stadium_sale`: 1 → 2d6 × 1,000; 2–5 → 10,000 + 2d6 ×
    1,000; 6 → 25,000. The team stays resident but no longer owns it."""
    home = flow.home
    own_stadium(home, plain_stadium)
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="hire_fire", fortune=({"seek_sponsor": False}, {"winnings": [1], "fan_factor": [1, 1]}))
    state = flow.done(mid, home, "hire_fire", {"sell_stadium": True}, {"stadium_sale": dice})
    assert words in lines(state, "hire_fire")
    team = flow.team(home)
    assert (team["home_stadium"], team["owns_stadium"]) == (plain_stadium.pk, False)
    assert team["treasury"] == START + 1_000 + amount
    assert flow.keys(mid, home, "hire_fire") == [("stadium_sale", dice[:1], True)] + (
        [("stadium_sale", dice[1:], True)] if len(dice) > 1 else []
    )


def test_stadium_fund_payments_put_5000_in_the_fund_for_each_7000(flow, plain_stadium):
    """R ("4. Hire and fire", Buying): Stadium Fund: pay 7,000 to add 5,000 to the fund (a separate account)."""
    home = flow.home
    own_stadium(home, plain_stadium, owned=False)
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="hire_fire", fortune=({"seek_sponsor": False}, {"winnings": [1], "fan_factor": [1, 1]}))
    state = flow.done(mid, home, "hire_fire", {"stadium_fund_payments": 3})
    assert "Paid 3 × 7,000 gil into the Stadium Fund (+15,000 gil in the fund)." in lines(state, "hire_fire")
    team = flow.team(home)
    assert (team["treasury"], team["stadium_fund"], team["owns_stadium"]) == (START + 1_000 - 21_000, 15_000, False)
    fund = flow.ledger(home, "stadium_fund")
    assert [(e["amount"], e["balance_after"]) for e in fund] == [(5_000, 5_000), (5_000, 10_000), (5_000, 15_000)]
    assert [e["amount"] for e in flow.ledger(home) if e["match"] == mid][-3:] == [-7_000] * 3


def test_buying_the_home_stadium_spends_the_fund_then_the_treasury(flow, plain_stadium):
    """R ("4. Hire and fire", Buying): a resident team may buy its home stadium for 25,000; fund + treasury combine."""
    home = flow.home
    own_stadium(home, plain_stadium, owned=False)
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="hire_fire", fortune=({"seek_sponsor": False}, {"winnings": [1], "fan_factor": [1, 1]}))
    state = flow.done(mid, home, "hire_fire", {"stadium_fund_payments": 2, "buy_stadium": True})
    assert "Bought Mudbank Field for 25,000 gil (10,000 gil from the Stadium Fund)." in lines(state, "hire_fire")
    team = flow.team(home)
    # 46,000 − 2 × 7,000 into the fund − (25,000 − 10,000 from the fund) = 17,000.
    assert (team["treasury"], team["stadium_fund"]) == (17_000, 0)
    assert (team["home_stadium"], team["owns_stadium"]) == (plain_stadium.pk, True)
    fund = flow.ledger(home, "stadium_fund")
    assert [(e["amount"], e["balance_after"]) for e in fund] == [(5_000, 5_000), (5_000, 10_000), (-10_000, 0)]


@pytest.mark.parametrize("case", ["not resident", "not enough gil"])
def test_buying_is_refused_to_a_non_resident_or_without_the_gil_and_changes_nothing(flow, plain_stadium, case):
    """R ("4. Hire and fire", Buying): only a resident team buys its home stadium; I: the treasury never goes below
    0. api-v1: a refused request changes nothing."""
    home = flow.home
    mid = flow.match(0, 1)
    if case == "not resident":
        field, choices = "choices.buy_stadium", {"buy_stadium": True}
    else:
        own_stadium(home, plain_stadium, owned=False)
        # 10,000 − 7,000 into the fund leaves 3,000; 25,000 − 5,000 from the fund needs 20,000.
        field, choices = "treasury", {"stadium_fund_payments": 1, "buy_stadium": True}
    flow.walk(mid, home, until="hire_fire", fortune=({"seek_sponsor": False}, {"winnings": [1], "fan_factor": [1, 1]}))
    if case == "not enough gil":
        flow.set_treasury(home, 10_000)
    before = (flow.team(home), flow.ledger(home), flow.ledger(home, "stadium_fund"))
    assert_refused(flow.post(mid, home, "hire_fire", choices), 400, field)
    assert (flow.team(home), flow.ledger(home), flow.ledger(home, "stadium_fund")) == before
    assert flow.state(mid, home)["step"] == "hire_fire"


def test_dead_players_are_removed_at_hire_and_fire(flow):
    """Injuries (H): `dead` on a result; R ("4. Hire and fire", Roster): remove dead players. Until then the player
    is on the sheet as "dead" and out of Team Value; a journeyman then tops the team up to 11."""
    home = flow.home
    dead = flow.pid(home, 2)
    mid = flow.match(0, 1, away={"casualties_inflicted": 1}, players=[{"player": dead, "injury": "dead"}])
    assert flow.player(home, 2)["status"] == "dead"
    assert flow.team(home)["team_value"] == TV - 5_000
    state = flow.walk(mid, home, until="prepare")
    assert "Home 2 is dead: to the memorial." in lines(state, "hire_fire")
    assert flow.player(home, 2) is None and len(flow.team(home)["players"]) == 10
    state = flow.done(mid, home, "prepare", rolls={"expensive_mistakes": [6]})
    assert [p["status"] for p in flow.team(home)["players"]].count("journeyman") == 1
    assert lines(state, "prepare")[-1] == "Team Value recorded: 55,000 gil."


# --- 5. Prepare for next match ------------------------------------------------------------------------------


def mistake(treasury, d6, amount, lost, words, id):
    rolls = {"expensive_mistakes": [d6]}
    if amount:
        rolls["expensive_mistakes_amount"] = amount
    return pytest.param(treasury, rolls, lost, words, id=id)


@pytest.mark.parametrize(
    ("treasury", "rolls", "lost", "words"),
    [
        mistake(9_500, 1, None, 0, "Treasury 9,500 gil: below 10,000 gil, no expensive mistakes.", "9500-none"),
        mistake(
            10_000,
            1,
            [2],
            2_000,
            "Expensive mistakes (treasury 10,000 gil, rolled 1): Minor expensive mistake: lose 2 × 1,000 = 2,000 gil.",
            "10000-1-minor",
        ),
        mistake(
            10_000,
            2,
            None,
            0,
            "Expensive mistakes (treasury 10,000 gil, rolled 2): Expensive mistake averted: nothing is lost.",
            "10000-2-averted",
        ),
        mistake(25_000, 2, [3], 3_000, "Minor expensive mistake: lose 3 × 1,000 = 3,000 gil.", "25000-2-minor"),
        mistake(
            35_000, 1, None, 17_500, "Major expensive mistake: lose 1/2 of 35,000 gil = 17,500 gil", "35000-1-major"
        ),
        mistake(
            41_700,
            2,
            None,
            20_500,
            "Major expensive mistake: lose 1/2 of 41,700 gil = 20,850 gil, rounded down to the nearest 500: "
            "lose 20,500 gil.",
            "41700-2-major-rounded-down",
        ),
        mistake(50_000, 6, None, 0, "Expensive mistake averted: nothing is lost.", "50000-6-averted"),
        mistake(
            55_000,
            1,
            [3, 4],
            48_000,
            "Catastrophe: keep only 7 × 1,000 = 7,000 gil of 55,000 gil: lose 48,000 gil.",
            "55000-1-catastrophe",
        ),
        mistake(
            60_000,
            2,
            [6, 6],
            48_000,
            "Catastrophe: keep only 12 × 1,000 = 12,000 gil of 60,000 gil: lose 48,000 gil.",
            "60000-2-catastrophe",
        ),
        mistake(60_000, 6, [1], 1_000, "Minor expensive mistake: lose 1 × 1,000 = 1,000 gil.", "60000-6-minor"),
    ],
)
def test_expensive_mistakes_by_treasury_bracket(flow, treasury, rolls, lost, words):
    """R trigger, H table ("5. Prepare for next match", Expensive mistakes): ≥ 10,000 rolls 1d6 on its bracket; minor
    1d3 × 1,000; major half, rounded down to 500; catastrophe keep 2d6 × 1,000; below 10,000 no roll at all."""
    home = flow.home
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="prepare")
    flow.set_treasury(home, treasury)
    state = flow.done(mid, home, "prepare", rolls=rolls)
    assert words in text(state, "prepare")
    assert flow.team(home)["treasury"] == treasury - lost
    expected = [] if treasury < 10_000 else [(k, v, True) for k, v in rolls.items()]
    assert flow.keys(mid, home, "prepare") == expected
    if lost:
        entry = flow.ledger(home)[-1]
        assert (entry["amount"], entry["match"]) == (-lost, mid) and entry["reason"].startswith("Expensive mistake (")


def test_team_value_is_recorded_in_the_log_at_the_end(flow):
    """R ("5. Prepare for next match"): recompute and record Team Value."""
    home, p1 = flow.home, flow.pid(flow.home, 1)
    set_ff(home, 2)
    mid = flow.match(1, 0, home={"mvp": p1}, players=[{"player": p1, "touchdowns": 1}], auto_tds=False)
    state = flow.walk(
        mid,
        home,
        improvements=({"improvements": {str(p1): ["st"]}}, {"improvement": [6, 6]}),
        fortune=({"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [1], "fan_factor": [1, 1, 1]}),
    )
    # Won: 3d6 3 beats FF 2 → FF 3. TV: 10 × 5,000 + (5,000 + ST 5,000) + FF 3 × 1,000 = 63,000.
    assert flow.team(home)["fan_factor"] == 3
    assert state["complete"] is True and state["step"] is None
    assert lines(state, "prepare")[-1] == "Team Value recorded: 63,000 gil."
    assert flow.team(home)["team_value"] == 63_000


# --- Injuries, journeymen, the next match --------------------------------------------------------------------


def play_second_match(flow, first, body):
    """Finish both teams' sequences of `first`, then play the next match with `body` (a result)."""
    for team in (flow.home, flow.away):
        if not flow.state(first, team)["complete"]:
            flow.walk(first, team)
    mid = flow.schedule()
    flow._play(mid, body, flow.coach, flow.other_coach)
    return mid


def test_miss_next_match_lasts_exactly_one_match(flow):
    """Injuries (H): `miss_next_match` excludes the player from TV and fielding for exactly the next match: he cannot
    be in that match's result, and is active again once it is final."""
    home, away = flow.home, flow.away
    hurt = flow.pid(home, 1)
    first = flow.match(0, 1, away={"casualties_inflicted": 1}, players=[{"player": hurt, "injury": "miss_next_match"}])
    assert flow.player(home, 1)["status"] == "miss_next_match"
    assert flow.team(home)["team_value"] == TV - 5_000
    for team in (home, away):
        flow.walk(first, team)
    second = flow.schedule()
    r = flow.api_as(flow.coach).post(
        f"/api/v1/matches/{second}/result/",
        flow.body(1, 0, players=[{"player": hurt, "completions": 1}], auto_tds=False),
        format="json",
    )
    assert_refused(r, 400, "players[0].player")
    flow._play(second, flow.body(0, 0), flow.coach, flow.other_coach)
    assert flow.player(home, 1)["status"] == "active"
    # The journeyman who stood in is still on the sheet until hire_fire: TV 11 × 5,000 + 5,000.
    assert flow.team(home)["team_value"] == TV + 5_000


def test_journeymen_top_up_to_eleven_then_are_hired_or_released(flow):
    """R ("5. Prepare for next match", Journeymen): ≤ 10 players for the next match → free journeymen (H: roster's
    journeyman position, Loner, rookie cost in TV) up to 11. R ("4. Hire and fire"): hire permanently at rookie cost
    (loses Loner, keeps SPP) or release; api-v1: pending `hire_journeymen` with the ids."""
    home = flow.home
    first = flow.match(
        0,
        1,
        away={"casualties_inflicted": 2},
        players=[
            {"player": flow.pid(home, 1), "injury": "miss_next_match"},
            {"player": flow.pid(home, 2), "injury": "miss_next_match"},
        ],
    )
    state = flow.walk(first, home)
    assert (
        lines(state, "prepare").count("Added a free journeyman (lineman, Loner) so the team can field 11 players.") == 2
    )
    journeymen = [p for p in flow.team(home)["players"] if p["status"] == "journeyman"]
    assert [(j["name"], j["position"], j["skills"], j["value"]) for j in journeymen] == [
        ("Journeyman 1", "lineman", ["Loner"], 5_000),
        ("Journeyman 2", "lineman", ["Loner"], 5_000),
    ]
    assert flow.team(home)["team_value"] == 9 * 5_000 + 2 * 5_000
    assert lines(state, "prepare")[-1] == "Team Value recorded: 55,000 gil."
    j1, j2 = (j["id"] for j in journeymen)

    second = play_second_match(flow, first, flow.body(0, 0, home={"mvp": j1}))
    flow.walk(second, home, until="hire_fire")
    treasury = flow.team(home)["treasury"]
    state = flow.step(second, home, "hire_fire")
    assert (state["pending"]["decision"], state["pending"]["options"]) == ("hire_journeymen", [j1, j2])
    state = flow.done(second, home, "hire_fire", {"hire_journeymen": [j1]})
    assert lines(state, "hire_fire") == [
        "Hired journeyman Journeyman 1 for 5,000 gil: he loses Loner, keeps his SPP.",
        "Released journeyman Journeyman 2.",
    ]
    players = {p["id"]: p for p in flow.team(home)["players"]}
    assert (players[j1]["status"], players[j1]["skills"], players[j1]["spp"]) == ("active", [], 5)
    assert j2 not in players and len(players) == 12
    assert flow.team(home)["treasury"] == treasury - 5_000
    assert flow.ledger(home)[-1]["reason"] == "Hired journeyman Journeyman 1"


def test_stat_loss_lowers_the_attribute(flow):
    """Injuries (H): `stat_loss` with the attribute: −1 to it (the sequence leaves it lowered)."""
    home = flow.home
    mid = flow.match(
        0,
        1,
        away={"casualties_inflicted": 2},
        players=[
            {"player": flow.pid(home, 1), "injury": "stat_loss", "stat": "ma"},
            {"player": flow.pid(home, 2), "injury": "stat_loss", "stat": "av"},
        ],
    )
    assert flow.player(home, 1)["attributes"] == {"ma": 5, "st": 3, "ag": 3, "av": 8}
    assert flow.player(home, 2)["attributes"] == {"ma": 6, "st": 3, "ag": 3, "av": 7}
    flow.walk(mid, home)
    assert flow.player(home, 1)["attributes"]["ma"] == 5 and flow.player(home, 1)["status"] == "active"


# --- the workflow: rolls, refusals, conflicts, the log -------------------------------------------------------


def test_every_roll_is_in_the_roll_log_entered_or_rolled_by_the_server(flow):
    """Dice and rolls: every roll is stored (key, dice, values, entered-or-server, team, step); a roll not given
    is rolled by the server."""
    home = flow.home
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="fortune")
    # A loss at FF 0 cannot move the Fan Factor, so the server's fan_factor roll changes nothing here.
    flow.done(mid, home, "fortune", {"seek_sponsor": False}, {"winnings": [3]})
    flow.done(mid, home, "hire_fire")
    flow.done(mid, home, "prepare", rolls={"expensive_mistakes": [5]})
    rows = flow.rolls(mid)
    assert [(r["team"], r["step"], r["key"], r["expression"], r["entered"]) for r in rows] == [
        (home.pk, "fortune", "winnings", "1d6", True),
        (home.pk, "fortune", "fan_factor", "2d6", False),
        (home.pk, "prepare", "expensive_mistakes", "1d6", True),
    ]
    assert rows[0]["values"] == [3] and rows[2]["values"] == [5]
    assert len(rows[1]["values"]) == 2 and all(1 <= v <= 6 for v in rows[1]["values"])
    assert all(r["league"] == flow.league.pk and r["match"] == mid and r["rolled_by"] == flow.coach.pk for r in rows)


def test_an_unknown_roll_key_is_refused_naming_it(flow):
    """Dice and rolls / api-v1: a roll key not in the ruleset's catalogue → 400 naming it; nothing changes."""
    home = flow.home
    mid = flow.match(0, 1)
    r = flow.post(mid, home, "improvements", rolls={"winings": [3]})
    body = assert_refused(r, 400, "rolls.winings")
    assert "winings is not a roll key" in body["rolls.winings"][0]
    assert flow.state(mid, home)["step"] == "improvements" and flow.rolls(mid) == []


@pytest.mark.parametrize(
    ("key", "values"), [("winnings", [7]), ("improvement", [7, 1]), ("residency", [0]), ("stadium_loss", [9])]
)
def test_a_value_off_the_die_is_refused(flow, key, values):
    """api-v1: entered values outside the dice (a 7 on a d6) are refused (400, naming the roll); nothing changes."""
    home = flow.home
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="fortune")
    r = flow.post(mid, home, "fortune", {"seek_sponsor": False}, {key: values})
    assert "is not a face of a d" in assert_refused(r, 400, f"rolls.{key}")[f"rolls.{key}"][0]
    assert flow.state(mid, home)["step"] == "fortune" and flow.team(home)["treasury"] == START
    assert flow.keys(mid, home, "fortune") == []


def test_a_post_for_a_step_that_is_not_current_is_409_and_changes_nothing(flow):
    """api-v1 / engine: a POST for any step other than the current one → 409; nothing changes."""
    home = flow.home
    mid = flow.match(1, 0)
    flow.done(mid, home, "improvements")
    before = (flow.state(mid, home), flow.team(home), flow.ledger(home))
    for step in ("improvements", "fortune", "prepare", "no_such_step"):
        r = flow.post(
            mid,
            home,
            step,
            {"reroll_winnings": False, "seek_sponsor": False},
            {"winnings": [6], "fan_factor": [6, 6, 6]},
        )
        assert "The current step is team_stats" in assert_refused(r, 409)["detail"]
    assert (flow.state(mid, home), flow.team(home), flow.ledger(home)) == before
    assert flow.rolls(mid) == []


def test_a_pending_step_keeps_its_decision_when_another_step_is_posted(flow):
    """api-v1: the 409 leaves a paused step as it was (its decision and dice)."""
    home = flow.home
    mid = flow.match(1, 0)
    flow.walk(mid, home, until="fortune")
    pending = flow.step(mid, home, "fortune", {"seek_sponsor": False}, {"winnings": [5]})["pending"]
    assert_refused(flow.post(mid, home, "hire_fire"), 409)
    assert flow.state(mid, home)["pending"] == pending


def test_a_complete_sequence_answers_409_to_any_further_step(flow):
    """R ("Post-match sequence"): once per team per match, idempotent: no step moves gil twice."""
    home = flow.home
    mid = flow.match(1, 0)
    state = flow.walk(mid, home)
    assert (state["complete"], state["step"], [e["step"] for e in state["log"]]) == (
        True,
        None,
        ["improvements", "team_stats", "fortune", "hire_fire", "prepare"],
    )
    before = (flow.team(home), flow.ledger(home), flow.rolls(mid))
    for step in state["steps"]:
        assert "none (complete)" in assert_refused(flow.post(mid, home, step), 409)["detail"]
    assert (flow.team(home), flow.ledger(home), flow.rolls(mid)) == before
    side = next(a for a in flow.match_json(mid)["aftermath"] if a["team"] == home.pk)
    assert (side["complete"], side["step"]) == (True, None)


def test_a_repeated_post_with_the_same_idempotency_key_replays_the_answer(flow):
    """api-v1: a repeat with the same Idempotency-Key returns the first answer and changes nothing."""
    home = flow.home
    mid = flow.match(0, 1)
    flow.walk(mid, home, until="fortune")
    choices, rolls = {"seek_sponsor": False}, {"winnings": [4], "fan_factor": [1, 1]}
    first = flow.post(mid, home, "fortune", choices, rolls, HTTP_IDEMPOTENCY_KEY="fortune-1")
    again = flow.post(mid, home, "fortune", choices, rolls, HTTP_IDEMPOTENCY_KEY="fortune-1")
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json() == first.json()
    assert flow.team(home)["treasury"] == START + 4_000
    assert len(flow.rolls(mid)) == 2


def test_only_the_teams_coach_or_the_commissioner_walks_its_sequence(flow, api_as, commissioner):
    """api-v1: `POST …/aftermath/{team_id}/` — its coach (or commissioner); another coach is refused (403)."""
    home = flow.home
    mid = flow.match(0, 1)
    r = api_as(flow.other_coach).post(
        f"/api/v1/matches/{mid}/aftermath/{home.pk}/", {"step": "improvements"}, format="json"
    )
    assert_refused(r, 403)
    r = api_as(commissioner).post(
        f"/api/v1/matches/{mid}/aftermath/{home.pk}/", {"step": "improvements"}, format="json"
    )
    assert r.status_code == 200 and r.json()["step"] == "team_stats"


def test_the_log_says_in_words_which_rule_applied(flow, stadium):
    """Post-match sequence: each step's log explains the rule and its arithmetic, under the step's title."""
    home, p1 = flow.home, flow.pid(flow.home, 1)
    mid = flow.match(1, 1, stadium=stadium, home={"mvp": p1, "fame": 1})
    state = flow.walk(
        mid,
        home,
        fortune=(
            {"residency": "reject", "seek_sponsor": True},
            {"winnings": [3], "fan_factor": [2, 2], "sponsorship": [4]},
        ),
        prepare=(None, {"expensive_mistakes": [3]}),
    )
    assert [(e["step"], e["title"]) for e in state["log"]] == [
        ("improvements", "Improvements"),
        ("team_stats", "Update team stats"),
        ("fortune", "Fortune and FAME"),
        ("hire_fire", "Hire and fire"),
        ("prepare", "Prepare for next match"),
    ]
    assert lines(state, "improvements") == [
        "Home 1 earned 5 SPP (0 → 5).",
        "Home 11 earned 3 SPP (0 → 3).",
        "No player reached a new level.",
    ]
    assert lines(state, "team_stats") == ["Drawn 1–1 (league): 1 league point(s)."]
    assert lines(state, "fortune") == [
        "Winnings: 3 × 1,000 + FAME 1 × 1,000 + draw 1,000 = 5,000 gil.",
        "Drawn: 2d6 rolled 2 + 2 = 4, higher than Fan Factor 0: Fan Factor +1 (0 → 1).",
        "Sponsorship: d20 4 +1 Fan Factor = 5: no sponsor (below 20).",
    ]
    assert lines(state, "hire_fire") == ["Nothing to do at this step."]
    assert lines(state, "prepare") == [
        "Expensive mistakes (treasury 50,000 gil, rolled 3): Major expensive mistake: lose 1/2 of 50,000 gil = "
        "25,000 gil, rounded down to the nearest 500: lose 25,000 gil.",
        "Team Value recorded: 56,000 gil.",
    ]


def test_the_rolls_entered_with_a_result_are_in_the_roll_log(flow):
    """Dice and rolls: every roll is stored, whichever way it was made; api-v1's result body carries
    `"rolls": {"weather": [3, 4]}`. An unknown key there is refused like anywhere else."""
    mid = flow.schedule()
    body = {**flow.body(0, 0), "rolls": {"wether": [3, 4]}}
    r = flow.api_as(flow.coach).post(f"/api/v1/matches/{mid}/result/", body, format="json")
    assert r.status_code == 400, r.json()
    flow._play(mid, {**flow.body(0, 0), "rolls": {"weather": [3, 4]}}, flow.coach, flow.other_coach)
    assert [(r["key"], r["values"], r["entered"]) for r in flow.rolls(mid)] == [("weather", [3, 4], True)]
