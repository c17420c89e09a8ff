"""ElfBall Advanced Rules team building (../shared/rules/elfball.md, "Team building")."""

import pytest

from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset
from campaigns.rulesets.base import PlayerState, PositionSpec, RosterSpec, TeamState
from campaigns.rulesets.elfball.rules import MAX_TESTS_TO_WIN

EB = get_ruleset("elfball")
HR = EB.default_house_rules()
HUNTER = PositionSpec(key="hunter", name="Hunter", min=0, max=20, cost=15)
WIDOWS = RosterSpec(key="black_widows", name="Black Widows", positions={"hunter": HUNTER})


def team(n=0, abilities=0, staff=None, in_creation=True) -> TeamState:
    players = tuple(
        PlayerState(id=i, position="hunter", value=15 + 5 * abilities, abilities=abilities) for i in range(n)
    )
    return TeamState(roster=WIDOWS, players=players, staff=staff or {}, in_creation=in_creation)


def test_rookies_cost_15_points():
    """R: a rookie costs 15 points."""
    assert EB.initial_player_value(HUNTER, HR) == 15
    assert EB.team_value(team(3), HR) == 45


def test_team_value_is_15_per_player_5_per_ability_plus_support():
    """R: team value = 15 per player + 5 per ability + support purchases."""
    assert EB.team_value(team(4, abilities=1, staff={"magic_potion": 2, "hired_gun_wizard": 1}), HR) == 4 * 20 + 10 + 20


def test_hire_refused_above_150_points():
    """R: the team's point value may never exceed 150."""
    EB.check_hire(team(9), HUNTER, HR)  # 135 + 15 = 150 exactly is allowed
    with pytest.raises(RuleViolation, match="150") as exc:
        EB.check_hire(team(10), HUNTER, HR)
    assert "Cut" in exc.value.message


def test_support_purchase_refused_above_150_points():
    with pytest.raises(RuleViolation, match="150"):
        EB.purchase(team(9), "hired_gun_wizard", 1, HR)


def test_budget_is_a_house_rule():
    EB.check_hire(team(10), HUNTER, {**HR, "points_budget": 200})


@pytest.mark.parametrize(
    ("item", "maximum"), [("magic_potion", 3), ("beer_garden_beauty", 2), ("cheerleader", 4), ("hired_gun_wizard", 1)]
)
def test_support_items_have_their_limits(item, maximum):
    """R: Magic Potion 0–3, Beer Garden Beauty 0–2, Cheerleader 0–4, Hired Gun Wizard 0–1."""
    EB.purchase(team(), item, maximum, HR)
    with pytest.raises(RuleViolation, match=f"at most {maximum}"):
        EB.purchase(team(staff={item: maximum}), item, 1, HR)


def test_support_costs_points_not_gil():
    """R: Magic Potion 5 points, Hired Gun Wizard 20 points; ElfBall has no gil."""
    assert EB.purchase(team(), "magic_potion", 2, HR).cost == 0
    assert EB.team_value(team(staff={"magic_potion": 2}), HR) == 10


def test_never_cut_below_six_players_once_built():
    """R: a team may never be cut below 6 players."""
    with pytest.raises(RuleViolation, match="below 6"):
        EB.check_fire(team(6, in_creation=False), PlayerState(id=0, position="hunter"), HR)
    EB.check_fire(team(7, in_creation=False), PlayerState(id=0, position="hunter"), HR)


def test_firing_is_free_while_the_team_is_being_built():
    EB.check_fire(team(3, in_creation=True), PlayerState(id=0, position="hunter"), HR)


def test_ready_needs_six_players():
    with pytest.raises(RuleViolation, match="6"):
        EB.check_ready(team(5), HR)
    EB.check_ready(team(6), HR)


def test_basic_mode_fixes_the_roster_at_ten():
    """R: Basic-rules teams are exactly 10 players."""
    with pytest.raises(RuleViolation, match="10"):
        EB.check_hire(team(10), HUNTER, {**HR, "basic_mode": True, "points_budget": 999})


# --- Tests to win (rules/elfball.md "Matches") -------------------------------------------------------------------


def _two_teams_result(score: int) -> dict:
    return {
        "teams": [{"team": 1, "score": score}, {"team": 2, "score": 0}],
        "goals": [{"team": 1, "on_field": [11]}] * score,
    }


ROSTERS = {1: {11: "active", 12: "active"}, 2: {21: "active", 22: "active"}}


@pytest.mark.parametrize("n", [10, 25, 99])
def test_tests_to_win_above_nine_is_a_rule_of_the_match(n):
    """R: the first team to win N Tests wins, N agreed before the match — the rulebook sets no upper limit."""
    result = EB.parse_result(_two_teams_result(n), rosters=ROSTERS, event="", hr=HR, context={"tests_to_win": n})
    assert [t["outcome"] for t in result["teams"]] == ["win", "loss"]


@pytest.mark.parametrize("bad", [0, -2, 100, True, "3", 2.0])
def test_tests_to_win_is_a_whole_number_of_at_least_one_and_not_absurd(bad):
    """R: N Tests (a whole number ≥ 1); I: above `MAX_TESTS_TO_WIN` is absurd input, refused in words that say the
    rulebook sets no limit."""
    with pytest.raises(RuleViolation) as refused:
        EB.parse_result(_two_teams_result(1), rosters=ROSTERS, event="", hr=HR, context={"tests_to_win": bad})
    assert refused.value.field == "tests_to_win"
    assert f"1 to {MAX_TESTS_TO_WIN}" in refused.value.message and "no limit" in refused.value.message


@pytest.mark.parametrize(("value", "ok"), [(1, True), (15, True), (0, False), (100, False), (10**9, False)])
def test_the_league_default_tests_to_win_is_validated_like_a_match(value, ok):
    """H: league default 2 Tests to win, any whole number ≥ 1 the commissioner sets (I: up to the technical
    bound)."""
    if ok:
        assert EB.validate_house_rules({"tests_to_win": value}) == {"tests_to_win": value}
    else:
        with pytest.raises(RuleViolation) as refused:
            EB.validate_house_rules({"tests_to_win": value})
        assert refused.value.field == "tests_to_win"
