"""ElfBall post-match rules (../shared/rules/elfball.md, "Goal Points and abilities", "Injuries", "Magic Potion
table", "The Challenge roller"; the rulebook ../shared/seeds/000_30100211b870b127.txt).

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).
"""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns import house_rules
from campaigns.engine import PlayerView
from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset
from campaigns.rulesets.base import PlayerState, PositionSpec, RosterSpec, TeamState
from campaigns.rulesets.elfball import postmatch as pm

EB = get_ruleset("elfball")
HR = EB.default_house_rules()
HUNTER = PositionSpec(key="hunter", name="Hunter", min=0, max=20, cost=15)
WIDOWS = RosterSpec(key="black_widows", name="Black Widows", positions={"hunter": HUNTER})
ALL_ABILITIES = [a for pair in HR["abilities"].values() for a in (pair["basic"], pair["advanced"])]


def override(**changes) -> dict:
    return house_rules.merge(HR, house_rules.validate_overrides(HR, changes))


def team(values=(15,) * 6, staff=None) -> TeamState:
    players = tuple(PlayerState(id=i, position="hunter", value=v) for i, v in enumerate(values))
    return TeamState(roster=WIDOWS, players=players, staff=staff or {}, in_creation=False)


# --- Goal Points ------------------------------------------------------------------------------------------------


def test_each_goal_gives_every_player_on_the_field_one_goal_point():
    """R: every time your team scores, every player still on the field gets one Goal Point."""
    assert pm.goal_points_from_goals([[1, 2, 3], [2, 3], [3]], HR) == {1: 1, 2: 2, 3: 3}
    assert pm.goals_on_field([[1, 2], [2]]) == {1: 1, 2: 2}


def test_goal_points_per_goal_is_a_house_rule():
    """H: goal_points_per_goal."""
    assert pm.goal_points_from_goals([[1], [1]], override(goal_points_per_goal=2)) == {1: 4}


def test_conceding_gives_each_opposing_player_not_in_the_infirmary_one_goal_point():
    """R (Conceding): each player on the opposing team not in the Infirmary receives one Goal Point."""
    assert pm.concession_goal_points([1, 2, 3], infirmary={2}, hr=HR) == {1: 1, 3: 1}


def test_conceding_makes_the_opponents_score_three():
    """R: the opposing team's score is adjusted to 3 goals; I: never fewer than the Tests it had won."""
    assert pm.conceded_score(tests_won=1, hr=HR) == 3
    assert pm.conceded_score(tests_won=4, hr=HR) == 4


@pytest.mark.parametrize(("outcome", "points"), [("win", 3), ("draw", 1), ("loss", 0)])
def test_league_points_win_tie_loss(outcome, points):
    """H: league points win 3, tie 1, loss 0; the base Ruleset gives the same."""
    assert pm.league_points(outcome=outcome, kind="league", hr=HR) == points
    assert EB.league_points(outcome=outcome, kind="league", hr=HR) == points
    assert pm.league_points(outcome=outcome, kind="friendly", hr=HR) == 0


# --- Abilities --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("goal_points", "learned", "expected"),
    [(0, 0, 0), (9, 0, 0), (10, 0, 1), (19, 0, 1), (20, 0, 2), (25, 1, 1), (10, 3, 0)],
)
def test_every_full_ten_goal_points_entitle_one_ability(goal_points, learned, expected):
    """R: one ability at 10 Goal Points, a second at 20 …; learned ones use them up (never below 0)."""
    assert pm.entitlements(goal_points, learned, HR) == expected


def test_learnable_offers_basics_and_advanced_ones_whose_basic_is_held():
    """R: an Advanced ability only once the Basic of the same attribute is held; each ability once."""
    assert pm.learnable((), HR) == ["push", "buff", "grapple", "nimble", "agile", "resilient"]
    offer = pm.learnable(("push", "agile"), HR)
    assert "sprinter" in offer and "focused" in offer
    assert "push" not in offer and "agile" not in offer
    assert "psycho" not in offer


def test_learning_refuses_an_unknown_ability():
    with pytest.raises(RuleViolation, match="not an ElfBall ability") as exc:
        pm.check_learn((), 10, "flying", HR)
    assert exc.value.field == "ability"


def test_each_ability_can_be_learned_once():
    """R: a specific ability can be learned only once by a player (you cannot take Agile twice)."""
    with pytest.raises(RuleViolation, match="only once"):
        pm.check_learn(("agile",), 20, "agile", HR)


def test_an_advanced_ability_needs_its_basic_first():
    """R: an Advanced ability can only be learned if the player already has the Basic one."""
    with pytest.raises(RuleViolation, match="needs Push first"):
        pm.check_learn((), 10, "sprinter", HR)
    pm.check_learn(("push",), 20, "sprinter", HR)


def test_learning_needs_an_unused_entitlement():
    """R: one ability per full 10 Goal Points; 19 Goal Points and one ability learned: none left until 20."""
    with pytest.raises(RuleViolation, match=r"No unused entitlement.*20 Goal Points"):
        pm.check_learn(("push",), 19, "buff", HR)
    pm.check_learn(("push",), 20, "buff", HR)


def test_learn_ability_costs_five_points():
    """R: each ability is worth 5 points to the team."""
    assert EB.learn_ability(team(), abilities=(), goal_points=10, ability="push", hr=HR) == 5


def test_learn_ability_refused_above_150_points_cut_first():
    """R: if learning would take the team above 150 points, cut something or someone first."""
    full = team(values=(15,) * 9 + (10,), staff={"magic_potion": 1})  # 145 + 5 = 150
    assert EB.team_value(full, HR) == 150
    with pytest.raises(RuleViolation, match="Cut something or someone first"):
        EB.learn_ability(full, abilities=(), goal_points=10, ability="push", hr=HR)
    EB.learn_ability(team(values=(15,) * 9 + (10,)), abilities=(), goal_points=10, ability="push", hr=HR)


def test_learn_ability_checks_the_rules_before_the_budget():
    with pytest.raises(RuleViolation, match="needs Grapple"):
        EB.learn_ability(team(), abilities=(), goal_points=10, ability="psycho", hr=HR)


def test_basic_mode_learns_no_abilities():
    """H: a league in basic mode tracks no abilities."""
    with pytest.raises(RuleViolation, match="Basic-rules"):
        EB.learn_ability(team(), abilities=(), goal_points=10, ability="push", hr=override(basic_mode=True))


def test_player_summary_shows_entitlements_and_what_can_be_learned():
    """R: the team sheet shows unused entitlements (one per full 10 Goal Points) and the learnable abilities."""
    view = PlayerView(1, "Ann", 1, "hunter", "active", 0, (), {}, 20, abilities=("push",), goal_points=23)
    summary = EB.player_summary(view, HR)
    assert summary["entitlements"] == 1
    assert "sprinter" in summary["learnable"] and "push" not in summary["learnable"]
    assert EB.player_summary(replace(view, goal_points=12), HR) == {
        "entitlements": 0,
        "learnable": [],
    }


@settings(max_examples=60, deadline=None)
@given(
    n_players=st.integers(min_value=6, max_value=10),
    potions=st.integers(min_value=0, max_value=3),
    picks=st.lists(st.tuples(st.integers(0, 9), st.sampled_from(ALL_ABILITIES)), max_size=40),
)
def test_property_learned_abilities_never_take_the_team_over_150(n_players, potions, picks):
    """R: whatever abilities the learn checks accept, the team's value never exceeds 150 points."""
    values = [15] * n_players
    held: list[list[str]] = [[] for _ in range(n_players)]
    staff = {"magic_potion": potions}
    for index, ability in picks:
        index %= n_players
        state = team(values=values, staff=staff)
        try:
            added = EB.learn_ability(state, abilities=tuple(held[index]), goal_points=200, ability=ability, hr=HR)
        except RuleViolation:
            continue
        values[index] += added
        held[index].append(ability)
        assert EB.team_value(team(values=values, staff=staff), HR) <= HR["points_budget"]
        assert len(set(held[index])) == len(held[index])


# --- Injuries -----------------------------------------------------------------------------------------------

ANN = {"jog": 5, "might": 3, "tackle": 4, "dodge": 3, "skill": 2, "grit": 3, "base": 25}


def test_lasting_injury_targets_the_highest_attribute_base_excluded():
    """R: the attribute with the most points is reduced; I: Base (25/40 mm) is not an attribute for it."""
    assert pm.lasting_injury_targets(ANN, HR) == ["jog"]
    assert pm.lasting_injury_targets({**ANN, "tackle": 5}, HR) == ["jog", "tackle"]  # the coach chooses


def test_lasting_injury_lowers_the_chosen_highest_attribute_by_one():
    """R: permanently reduced by one point."""
    assert pm.lasting_injury_delta(ANN, "jog", HR) == {"jog": -1}
    assert pm.lower(ANN, "jog", HR)["jog"] == 4
    with pytest.raises(RuleViolation, match="highest") as exc:
        pm.lasting_injury_delta(ANN, "might", HR)
    assert exc.value.field == "attribute"


def test_lasting_injury_never_takes_an_attribute_below_one():
    """I: an attribute never falls below 1 (H lasting_injury.floor): at 1 nothing is lost."""
    ones = dict.fromkeys(("jog", "might", "tackle", "dodge", "skill", "grit"), 1)
    assert pm.lasting_injury_delta(ones, "grit", HR) == {}


def test_basic_games_know_only_out_for_game_unconscious_and_none():
    """R: in a Basic game a flop or 0 successes only put the player out for the game."""
    assert set(pm.injury_outcomes(HR)) == {"career_ending", "lasting_injury", "out_for_game", "unconscious", "none"}
    assert set(pm.injury_outcomes(override(basic_mode=True))) == {"out_for_game", "unconscious", "none"}


@pytest.mark.parametrize(
    ("injury", "rolls", "infirmary"),
    [
        ("career_ending", [], True),
        ("lasting_injury", [], True),
        ("out_for_game", [], True),
        ("unconscious", [], False),
        ("none", [], False),
        ("out_for_game", [6], False),
        ("out_for_game", [7], False),
        ("out_for_game", [5], True),
        ("out_for_game", [4], True),
        (None, [1], True),
        (None, [2], True),
        (None, [3], True),
        (None, [4], False),
        (None, [9], False),
    ],
)
def test_infirmary(injury, rolls, infirmary):
    """I: the Infirmary holds a player whose Grit outcome misses the game or more (career-ending, lasting, out for
    the game) and no potion cured it (5, 6, 7), or whose potion makes him miss the game or more (1, 2, 3, 5)."""
    assert pm.in_infirmary(injury, rolls, HR) is infirmary


def test_lasting_injuries_in_order_injury_then_seizure():
    """R: an uncured lasting injury and a seizure each lower the highest attribute; cured (5–7) removes the first;
    a death (1) or an uncured career-ending injury leaves none."""
    assert pm.lasting_injuries("lasting_injury", "jog", [], HR) == [("injury", "jog")]
    assert pm.lasting_injuries("lasting_injury", None, [{"roll": 2, "attribute": "dodge"}], HR) == [
        ("injury", None),
        ("potion", "dodge"),
    ]
    assert pm.lasting_injuries("lasting_injury", None, [{"roll": 6}], HR) == []
    assert pm.lasting_injuries("lasting_injury", None, [{"roll": 1}], HR) == []
    assert pm.lasting_injuries("career_ending", None, [{"roll": 2}], HR) == []
    assert pm.lasting_injuries("career_ending", None, [{"roll": 5}], HR) == []


# --- Magic Potions ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        (1, "dies"),
        (2, "seizure"),
        (3, "light_coma"),
        (4, "woozy"),
        (5, "cured_misses_game"),
        (6, "cured_misses_test"),
        (7, "basic_ability_this_game"),
        (8, "no_effect"),
        (12, "no_effect"),
    ],
)
def test_potion_table(roll, result):
    """R: the D12 Magic Potion table; I/H: 8–12 are not in the rulebook: no effect."""
    assert pm.potion_effect(roll, HR)["result"] == result


def test_potion_cures_on_five_six_seven():
    """R: 5, 6 and 7 fully cure ANY injury suffered previously this game."""
    assert [r for r in range(1, 13) if pm.potion_cures([r], HR)] == [5, 6, 7]


@pytest.mark.parametrize("roll", [0, 13, "7", True])
def test_potion_roll_must_be_a_d12_face(roll):
    with pytest.raises(RuleViolation) as exc:
        pm.potion_effect(roll, HR)
    assert exc.value.field == "roll"


# --- The Challenge roller --------------------------------------------------------------------------------------


def test_challenge_seed_example_pick_up_five_successes():
    """R (Challenges, example 1): Skill 4, threshold 3: 1, 2, 6, 6 then 3, 6 then 5 — 5 successes."""
    result = pm.score_challenge([1, 2, 6, 6, 3, 6, 5], dice_count=4, threshold=3, hr=HR)
    assert (result.successes, result.flops, result.flopped, result.sixes) == (5, 1, False, 3)


def test_challenge_seed_example_flopped():
    """R (Challenges, example 2): Skill 3, threshold 3: 1, 1, 2, 6 — 2 flops and 1 success: flopped."""
    result = pm.score_challenge([1, 1, 2, 6], dice_count=3, threshold=3, hr=HR)
    assert (result.successes, result.flops, result.flopped) == (1, 2, True)


def test_challenge_seed_example_impossible_threshold():
    """R (Challenges, example 3): threshold 7: 1, 6, 6, 3, 4 — two 6s less one flop = 1 success, not flopped."""
    result = pm.score_challenge([1, 6, 6, 3, 4], dice_count=3, threshold=7, hr=HR)
    assert (result.successes, result.flops, result.flopped) == (1, 1, False)


def test_challenge_impossible_threshold_never_below_zero_successes():
    """R/I: 6s less flops, never below 0: one 6 and two 1s is 0 successes, and flopped."""
    result = pm.score_challenge([1, 1, 6, 2], dice_count=3, threshold=9, hr=HR)
    assert (result.successes, result.flopped) == (0, True)


@pytest.mark.parametrize(
    ("values", "message"),
    [([1, 2, 6], "needs 4 dice"), ([1, 2, 3, 4], "exactly 3 dice"), ([1, 2], "needs 3 dice"), ([1, 2, 7], "face")],
)
def test_challenge_must_be_exactly_one_complete_roll(values, message):
    """R: every 6 is rolled again: a Challenge of 3 dice has 3 dice plus one per 6, no more, no fewer."""
    with pytest.raises(RuleViolation, match=message) as exc:
        pm.score_challenge(values, dice_count=3, threshold=4, hr=HR)
    assert exc.value.field == "rolls"


@pytest.mark.parametrize(
    ("dice_count", "threshold", "field"),
    [(0, 3, "dice_count"), (21, 3, "dice_count"), (3, 0, "threshold"), (3, 13, "threshold")],
)
def test_challenge_limits(dice_count, threshold, field):
    """H: 1–20 dice, threshold 1–12 (challenge_roller.max_dice, max_threshold)."""
    with pytest.raises(RuleViolation) as exc:
        pm.score_challenge([2] * max(dice_count, 1), dice_count=dice_count, threshold=threshold, hr=HR)
    assert exc.value.field == field


def test_roll_challenge_rolls_again_for_every_six():
    """R: every 6 is rolled again and added, repeating while 6s come up."""
    faces = iter([6, 2, 6, 6, 3, 1])
    assert pm.roll_challenge(lambda: next(faces), 3) == (6, 2, 6, 6, 3, 1)
    with pytest.raises(RuleViolation):
        pm.roll_challenge(lambda: 1, 0)


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    dice_count=st.integers(min_value=1, max_value=20),
    threshold=st.integers(min_value=1, max_value=12),
)
def test_property_a_rolled_challenge_always_scores(seed, dice_count, threshold):
    """R: whatever the roller rolls is one complete Challenge; successes are never negative."""
    rng = random.Random(seed)
    dice = pm.roll_challenge(lambda: rng.randint(1, 6), dice_count)
    result = pm.score_challenge(dice, dice_count=dice_count, threshold=threshold, hr=HR)
    assert result.successes >= 0
    assert len(dice) == dice_count + result.sixes
    assert result.flopped == (result.flops > result.successes)


def test_ruleset_challenge_scores_entered_dice_or_rolls_with_the_servers_roller():
    """R: the Challenge roller (a service extra) scores the dice entered, or rolls d6s itself (roller(sides))."""
    dice, result = EB.challenge(dice_count=4, threshold=3, values=[1, 2, 6, 6, 3, 6, 5], roller=None, hr=HR)
    assert (dice, result.successes) == ((1, 2, 6, 6, 3, 6, 5), 5)
    faces = iter([6, 4, 1])
    dice, result = EB.challenge(dice_count=2, threshold=4, values=None, roller=lambda sides: next(faces), hr=HR)
    assert (dice, result.successes, result.flops, result.flopped) == ((6, 4, 1), 2, 1, False)


def test_ruleset_challenge_refuses_naming_the_api_fields_and_rolls_nothing():
    def roller(sides):
        raise AssertionError("nothing may be rolled for a refused Challenge")

    for kwargs, field in (
        ({"dice_count": 0, "threshold": 3}, "dice"),
        ({"dice_count": 3, "threshold": 13}, "threshold"),
    ):
        with pytest.raises(RuleViolation) as exc:
            EB.challenge(**kwargs, values=None, roller=roller, hr=HR)
        assert exc.value.field == field
    with pytest.raises(RuleViolation) as exc:
        EB.challenge(dice_count=3, threshold=3, values=[1, 2, 6], roller=roller, hr=HR)
    assert exc.value.field == "rolls"
