"""Each Blitz Bowl post-match step asks only for the dice it can use (../shared/rules/blitzbowl.md,
"Post-match sequence", "Conceding"; issue 11: no stadium dice for a match without a stadium, no winnings
re-roll for a loser).

The invariant: a step run with dice that refuse every roll key outside `step.usable_rolls(team, match, hr)`
never asks for one, whatever the team, the match, the dice and the coach's answers. Then a few named
situations pin the exact usable set.

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).
Steps run on plain views, as the engine builds them; nothing here touches the database.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.dice import Dice
from campaigns.engine import (
    MatchView,
    NeedsDecision,
    PlayerView,
    SideView,
    StadiumView,
    StepContext,
    TeamView,
)
from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset

BB = get_ruleset("blitzbowl")
HR = BB.default_house_rules()
STEP = {s.key: s for s in BB.postmatch_steps}
ACCESS = {"normal": ("general",), "double": ("agility", "strength")}


# --- views -----------------------------------------------------------------------------------------------------


def player(pid: int, *, spp: int = 0, status: str = "active", number: int | None = None) -> PlayerView:
    return PlayerView(
        id=pid,
        name=f"P{pid}",
        number=pid if number is None else number,
        position="lineman",
        status=status,
        spp=spp,
        skills=(),
        attributes={"ma": 6, "st": 3, "ag": 3, "av": 8},
        value=50_000,
        skill_access=ACCESS,
    )


def stadium(
    sid: int = 1,
    *,
    special: str = "",
    ours: bool = False,
    owned: bool = False,
    theirs: bool = False,
    owned_by_them: bool = False,
) -> StadiumView:
    return StadiumView(
        id=sid,
        name=f"Stadium {sid}",
        special_attribute=special,
        home_of_this_team=ours,
        home_of_other_team=theirs,
        owned_by_this_team=owned,
        owned_by_other_team=owned_by_them,
    )


def team(
    *players: PlayerView,
    treasury: int = 0,
    fan_factor: int = 3,
    home: StadiumView | None = None,
    sponsorships: tuple[tuple[int, str], ...] = (),
    stadium_fund: int = 0,
) -> TeamView:
    return TeamView(
        id=1,
        name="Reavers",
        roster_key="human",
        fan_factor=fan_factor,
        treasury=treasury,
        stadium_fund=stadium_fund,
        rerolls=0,
        staff={},
        players=players or tuple(player(i) for i in range(1, 12)),
        ongoing_sponsorships=sponsorships,
        home_stadium=home,
        journeyman_position="lineman",
        journeyman_cost=50_000,
    )


def match(
    *,
    outcome: str = "win",
    at: StadiumView | None = None,
    rows=None,
    conceded: str = "",
    kind: str = "league",
    fame: int = 0,
) -> MatchView:
    """`conceded`: "" (nobody), "us", "us_early", "them" or "them_early" (R: early = no extra penalty)."""
    scores = {"win": (2, 1), "draw": (1, 1), "loss": (0, 2)}[outcome]
    us = SideView(
        team_id=1,
        score=scores[0],
        casualties_inflicted=1,
        conceded=conceded.startswith("us"),
        conceded_early=conceded == "us_early",
        fame=fame,
    )
    them = SideView(
        team_id=2,
        score=scores[1],
        casualties_inflicted=0,
        conceded=conceded.startswith("them"),
        conceded_early=conceded == "them_early",
        fame=0,
    )
    return MatchView(id=9, kind=kind, outcome=outcome, us=us, them=(them,), stadium=at, player_rows=rows or {})


def usable(key: str, the_team: TeamView, the_match: MatchView, hr=HR) -> tuple[str, ...]:
    return STEP[key].usable_rolls(the_team, the_match, hr)


# --- situations ------------------------------------------------------------------------------------------------


@st.composite
def situations(draw):
    """A team and the match it just played: roster, SPP earned, treasury, sponsorships, home stadium (rented or
    owned), the match's stadium (none, the home one, a neutral one with or without a special attribute, or the
    opponent's, rented or owned), the outcome and who conceded."""
    count = draw(st.integers(1, 14))
    statuses = st.sampled_from(["active", "active", "active", "journeyman", "miss_next_match", "dead"])
    players, rows = [], {}
    for pid in range(1, count + 1):
        spp = draw(st.integers(0, 190))
        earned = draw(st.integers(0, min(spp, 30)))
        players.append(player(pid, spp=spp, status=draw(statuses)))
        if earned:
            rows[pid] = {"spp": earned}
    home_kind = draw(st.sampled_from(["none", "rented", "owned"]))
    home = None if home_kind == "none" else stadium(1, special="Rowdy", ours=True, owned=home_kind == "owned")
    at_kind = draw(st.sampled_from(["none", "home", "neutral", "special", "theirs", "theirs_owned"]))
    at = {
        "none": None,
        "home": home,
        "neutral": stadium(2),
        "special": stadium(2, special="Big Screen"),
        "theirs": stadium(3, special="Cold", theirs=True),
        "theirs_owned": stadium(3, special="Cold", theirs=True, owned_by_them=True),
    }[at_kind]
    conceded = draw(st.sampled_from(["", "", "", "us", "us_early", "them", "them_early"]))
    if conceded.startswith("us"):
        outcome = "loss"
    elif conceded.startswith("them"):
        outcome = "win"
    else:
        outcome = draw(st.sampled_from(["win", "draw", "loss"]))
    sponsorships = tuple((100 + i, f"Sponsor {i}") for i in range(draw(st.integers(0, 2))))
    the_team = team(
        *players,
        treasury=draw(st.integers(0, 160) | st.just(20)) * 500,
        fan_factor=draw(st.integers(0, 14)),
        home=home,
        sponsorships=sponsorships,
        stadium_fund=draw(st.sampled_from([0, 5_000, 30_000])),
    )
    the_match = match(
        outcome=outcome,
        at=at,
        rows=rows,
        conceded=conceded,
        kind=draw(st.sampled_from(HR["match_kinds"])),
        fame=draw(st.integers(0, 2)),
    )
    return the_team, the_match


class RefusingDice(Dice):
    """Dice that refuse any roll key the step did not declare usable for this team and match."""

    def __init__(self, allowed: set[str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.allowed = allowed

    def roll(self, key: str, *, count: int | None = None, sides: int | None = None) -> tuple[int, ...]:
        assert key in self.allowed, f"the step asked for {key!r}, outside usable_rolls {sorted(self.allowed)}"
        return super().roll(key, count=count, sides=sides)


def answer(data, need: NeedsDecision):
    """A coach's answer to the step's question, drawn from the options it offered."""
    options = need.options
    if need.decision in ("reroll_winnings", "seek_sponsor"):
        return data.draw(st.booleans())
    if need.decision == "residency":
        return data.draw(st.sampled_from(options))
    if need.decision in ("end_sponsorships", "hire_journeymen"):
        return data.draw(st.lists(st.sampled_from(options), unique=True))
    if need.decision == "keep_residency_spend":
        return data.draw(st.integers(0, options["max"] // options["per_point"])) * options["per_point"]
    if need.decision == "improvements":
        chosen = {}
        for pid, rolls in options.items():
            taken: list[str] = []
            for roll in rolls:
                left = sorted((set(roll["attributes"]) | set(roll["skills"])) - set(taken))
                if left:
                    taken.append(data.draw(st.sampled_from(left)))
            chosen[pid] = taken
        return chosen
    raise AssertionError(f"unexpected decision {need.decision!r}")


def walk(key: str, the_team: TeamView, the_match: MatchView, data, hr=HR) -> None:
    """Run the step to its end as the engine would: answer each pending decision and run it again with the dice
    already rolled; stop at a refusal (a RuleViolation is the coach's mistake, not a stray die)."""
    step = STEP[key]
    allowed = set(step.usable_rolls(the_team, the_match, hr))
    rng = data.draw(st.randoms(use_true_random=False))
    choices: dict = {}
    if key == "hire_fire":
        choices = {
            "sell_stadium": data.draw(st.booleans()),
            "buy_stadium": data.draw(st.booleans()),
            "stadium_fund_payments": data.draw(st.integers(0, 2)),
        }
    prior: list = []
    for _ in range(20):
        dice = RefusingDice(allowed, catalogue=BB.roll_catalogue(hr), prior=prior, roller=lambda s: rng.randint(1, s))
        ctx = StepContext(team=the_team, match=the_match, hr=hr, dice=dice, choices=dict(choices), carry={})
        try:
            step.run(ctx)
            return
        except NeedsDecision as need:
            choices[need.decision] = answer(data, need)
            prior = list(dice.records)
        except RuleViolation:
            return
    raise AssertionError("the step kept asking for decisions")


PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(situation=situations(), data=st.data())
def test_improvements_roll_only_the_dice_declared_usable(situation, data):
    """H ("1. Improvements"): the 2d6 improvement roll only for a level reached this match."""
    walk("improvements", *situation, data)


@PROPERTY
@given(situation=situations(), data=st.data())
def test_team_stats_roll_only_the_dice_declared_usable(situation, data):
    """R ("Conceding"): concede_leave only for a penalised concession and a player with 51+ SPP."""
    walk("team_stats", *situation, data)


@PROPERTY
@given(situation=situations(), data=st.data())
def test_fortune_rolls_only_the_dice_declared_usable(situation, data):
    """R ("3. Fortune and FAME"): winnings, re-roll, stadium bonus, residency, Fan Factor, sponsorships."""
    walk("fortune", *situation, data)


@PROPERTY
@given(situation=situations(), data=st.data())
def test_hire_fire_rolls_only_the_dice_declared_usable(situation, data):
    """R ("4. Hire and fire"): keeping a residency after a home loss, selling an owned stadium."""
    walk("hire_fire", *situation, data)


@PROPERTY
@given(situation=situations(), data=st.data())
def test_prepare_rolls_only_the_dice_declared_usable(situation, data):
    """R/H ("5. Prepare for next match"): expensive mistakes from 10,000 gil."""
    walk("prepare", *situation, data)


def test_every_blitzbowl_step_that_declares_rolls_says_which_it_can_use():
    """Issue 11: the post-match walk asks only for the dice the step can use — every step with rolls has `usable`."""
    assert all(s.usable is not None for s in BB.postmatch_steps if s.rolls)


# --- named situations: 1. Improvements, 2. Update team stats -------------------------------------------------------


def test_improvement_dice_only_when_a_player_reached_a_level():
    """H ("1. Improvements"): levels at 6, 16, … SPP; 4 → 6 SPP reaches one, 7 → 9 none."""
    levelled = team(player(1, spp=6), player(2, spp=9))
    assert usable("improvements", levelled, match(rows={1: {"spp": 2}})) == ("improvement",)
    assert usable("improvements", levelled, match(rows={2: {"spp": 2}})) == ()
    assert usable("improvements", levelled, match()) == ()


def test_concede_leave_only_after_a_penalised_concession_with_a_51_spp_player():
    """R ("Conceding"): a conceding team's players with ≥ 51 SPP roll concede_leave; an early concession (2 or
    fewer players to field) carries no penalty; a team that did not concede never rolls."""
    veterans = team(player(1, spp=51), player(2, spp=10))
    rookies = team(player(1, spp=50), player(2, spp=10))
    assert usable("team_stats", veterans, match(outcome="loss", conceded="us")) == ("concede_leave",)
    assert usable("team_stats", veterans, match(outcome="loss", conceded="us_early")) == ()
    assert usable("team_stats", veterans, match(outcome="loss")) == ()
    assert usable("team_stats", rookies, match(outcome="loss", conceded="us")) == ()


# --- 3. Fortune and FAME ----------------------------------------------------------------------------------------


SEEKING = ("sponsorship", "one_time_amount", "one_time_risk", "random_player")


def test_a_loser_at_a_plain_stadium_rolls_winnings_and_fan_factor_but_no_reroll_or_stadium_dice():
    """R ("Winnings"): only the winner may re-roll; the stadium bonus d3 only at a stadium the team owns."""
    assert usable("fortune", team(), match(outcome="loss", at=stadium(2))) == ("winnings", "fan_factor", *SEEKING)
    assert usable("fortune", team(), match(outcome="loss")) == ("winnings", "fan_factor", *SEEKING)


def test_the_winner_at_its_owned_stadium_may_reroll_and_rolls_the_stadium_bonus():
    """R ("Winnings"): the winner may re-roll once; at a stadium the team owns, a win adds (d3 + FAME)."""
    home = stadium(1, special="Rowdy", ours=True, owned=True)
    assert usable("fortune", team(home=home), match(outcome="win", at=home)) == (
        "winnings",
        "winnings_reroll",
        "stadium_bonus",
        "fan_factor",
        *SEEKING,
    )


def test_no_winnings_reroll_when_the_league_turns_it_off():
    """H: `winnings.winner_may_reroll` is a house rule."""
    hr = copy.deepcopy(HR)
    hr["winnings"]["winner_may_reroll"] = False
    assert "winnings_reroll" not in usable("fortune", team(), match(outcome="win"), hr)


def test_a_draw_at_the_owned_stadium_rolls_no_stadium_bonus():
    """R/I ("Winnings"): the owned-stadium modifier applies to a win or a loss; a draw rolls no d3."""
    home = stadium(1, ours=True, owned=True)
    assert "stadium_bonus" not in usable("fortune", team(home=home), match(outcome="draw", at=home))
    assert "stadium_bonus" in usable("fortune", team(home=home), match(outcome="loss", at=home))


def test_a_penalised_concession_rolls_no_winnings_and_no_fan_factor():
    """R ("Conceding"): the conceding team gets no winnings and loses 1 FF without rolling; it may still seek a
    sponsor."""
    assert usable("fortune", team(), match(outcome="loss", conceded="us")) == SEEKING
    assert usable("fortune", team(), match(outcome="loss", conceded="us_early"))[:2] == ("winnings", "fan_factor")


def test_the_opponents_winnings_at_its_owned_stadium_roll_the_stadium_die():
    """R ("Conceding"): the winner gains the conceding team's winnings, rolled as that team's loss at its own
    stadium — so its stadium d3 is rolled, though the winner does not own the stadium."""
    theirs = stadium(3, special="Cold", theirs=True, owned_by_them=True)
    assert "stadium_bonus" in usable("fortune", team(), match(outcome="win", at=theirs, conceded="them"))
    assert "stadium_bonus" not in usable("fortune", team(), match(outcome="win", at=theirs))


def test_residency_die_only_where_a_deal_is_offered():
    """R ("Residency"): only at a stadium with a special attribute that is not another team's home; I: not for a
    team that owns its home stadium, nor at its own home."""
    special = stadium(2, special="Big Screen")
    assert "residency" in usable("fortune", team(), match(at=special))
    assert "residency" not in usable("fortune", team(), match(at=stadium(2)))
    assert "residency" not in usable("fortune", team(), match(at=stadium(3, special="Cold", theirs=True)))
    owner = team(home=stadium(1, ours=True, owned=True))
    assert "residency" not in usable("fortune", owner, match(at=special))
    home = stadium(1, special="Rowdy", ours=True)
    assert "residency" not in usable("fortune", team(home=home), match(at=home))


def test_ongoing_sponsorship_dice_only_with_an_ongoing_sponsorship():
    """I ("Ongoing Sponsorships"): each ongoing sponsorship pays d3 and rolls its own risk d6."""
    assert "ongoing_amount" not in usable("fortune", team(), match())
    assert {"ongoing_amount", "ongoing_risk"} <= set(usable("fortune", team(sponsorships=((5, "Bugman"),)), match()))


# --- 4. Hire and fire, 5. Prepare for next match -------------------------------------------------------------------


def test_stadium_dice_only_for_a_team_with_a_stadium_at_stake():
    """R ("4. Hire and fire"): stadium_loss after losing at a home stadium the team does not own; stadium_sale only
    for a team that owns its home stadium; no stadium dice at all without one."""
    rented, owned = stadium(1, ours=True), stadium(1, ours=True, owned=True)
    assert usable("hire_fire", team(), match(outcome="loss", at=stadium(2))) == ()
    assert usable("hire_fire", team(home=rented), match(outcome="loss", at=rented)) == ("stadium_loss",)
    assert usable("hire_fire", team(home=rented), match(outcome="win", at=rented)) == ()
    assert usable("hire_fire", team(home=rented), match(outcome="loss", at=stadium(2))) == ()
    assert usable("hire_fire", team(home=owned), match(outcome="loss", at=owned)) == ("stadium_sale",)


def test_expensive_mistake_dice_only_from_10000_gil_and_the_amount_die_only_when_the_bracket_needs_it():
    """R/H ("5. Prepare for next match"): below 10,000 gil no roll; the d3 only if the bracket can give a minor
    mistake, the 2d6 only if it can give a catastrophe (a major mistake halves the treasury, no die)."""
    assert usable("prepare", team(treasury=9_999), match()) == ()
    assert usable("prepare", team(treasury=10_000), match()) == ("expensive_mistakes", "expensive_mistakes_amount")
    hr = copy.deepcopy(HR)
    for bracket in hr["expensive_mistakes"]["brackets"]:
        bracket["results"] = ["major", "averted", "averted", "averted", "averted", "averted"]
    assert usable("prepare", team(treasury=45_000), match(), hr) == ("expensive_mistakes",)
