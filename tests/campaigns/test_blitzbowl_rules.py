"""Blitz Bowl team rules (../shared/rules/blitzbowl.md, "Teams, treasury and value"), as pure functions."""

import pytest

from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset
from campaigns.rulesets.base import PlayerState, PositionSpec, RosterSpec, TeamState
from campaigns.rulesets.blitzbowl import rules

BB = get_ruleset("blitzbowl")
HR = BB.default_house_rules()

LINEMAN = PositionSpec(key="lineman", name="Lineman", min=0, max=16, cost=5000)
BLITZER = PositionSpec(key="blitzer", name="Blitzer", min=0, max=4, cost=9000)
HUME = RosterSpec(
    key="hume",
    name="Hume",
    positions={"lineman": LINEMAN, "blitzer": BLITZER},
    extra={"reroll_cost": 5000, "white_mage": True},
)
UNDEAD = RosterSpec(
    key="undead", name="Undead", positions={"zombie": LINEMAN}, extra={"reroll_cost": 7000, "white_mage": False}
)


def team(players=(), **kwargs) -> TeamState:
    kwargs.setdefault("treasury", 100_000)
    return TeamState(roster=kwargs.pop("roster", HUME), players=tuple(players), **kwargs)


def linemen(n, status="active", start=0):
    return [PlayerState(id=start + i, position="lineman", status=status, value=5000) for i in range(n)]


def test_starting_treasury_is_100000_gil():
    """R: each coach begins the league with a treasury of 100,000 gil (H: configurable)."""
    assert BB.starting_treasury(HR) == 100_000
    assert BB.starting_treasury({**HR, "starting_treasury": 150_000}) == 150_000


def test_reroll_costs_base_price_in_creation_and_double_after():
    """R: re-rolls bought after team creation cost double; H: base price in creation."""
    assert rules.reroll_price(base_cost=5000, in_creation=True, multiplier=2) == 5000
    assert rules.reroll_price(base_cost=5000, in_creation=False, multiplier=2) == 10_000


def test_reroll_bought_after_creation_costs_double_but_adds_only_base_price_to_tv():
    """R: re-rolls after creation cost double the roster price but add only the base price to TV."""
    state = team(in_creation=False)
    purchase = BB.purchase(state, "reroll", 1, HR)
    assert purchase.cost == 10_000
    after = team(in_creation=False, rerolls=1)
    assert BB.team_value(after, HR) - BB.team_value(state, HR) == 5000


def test_team_value_counts_players_staff_rerolls_and_fan_factor():
    """R: TV = players who can play + coaching staff + re-rolls (base) + FF; H: FF × 1,000 gil."""
    state = team(linemen(11), staff={"assistant_coach": 2, "cheerleader": 1, "white_mage": 1}, rerolls=2, fan_factor=3)
    assert BB.team_value(state, HR) == 11 * 5000 + 2 * 1000 + 1000 + 5000 + 2 * 5000 + 3 * 1000


def test_team_value_excludes_treasury():
    """R: gil in the treasury does not count towards Team Value."""
    assert BB.team_value(team(linemen(3), treasury=0), HR) == BB.team_value(team(linemen(3), treasury=90_000), HR)


def test_team_value_excludes_players_missing_the_next_match_and_the_dead():
    """R: players missing the next match do not count towards Team Value."""
    players = linemen(5) + linemen(2, status="miss_next_match", start=10) + linemen(1, status="dead", start=20)
    assert BB.team_value(team(players), HR) == 5 * 5000


def test_journeymen_count_their_rookie_cost_in_team_value():
    """R: journeymen count their normal rookie cost towards Team Value."""
    assert BB.team_value(team(linemen(2, status="journeyman")), HR) == 10_000


def test_hire_costs_the_position_price():
    assert BB.check_hire(team(), BLITZER, HR) == 9000


def test_hire_refused_over_the_position_limit():
    """R: each position has its 0–N limit."""
    four = [PlayerState(id=i, position="blitzer", value=9000) for i in range(4)]
    with pytest.raises(RuleViolation, match="at most 4 Blitzer"):
        BB.check_hire(team(four), BLITZER, HR)


def test_players_who_left_do_not_take_a_position_slot():
    gone = [PlayerState(id=i, position="blitzer", status="retired") for i in range(4)]
    assert BB.check_hire(team(gone), BLITZER, HR) == 9000


def test_hire_refused_past_16_players_on_the_roster():
    """R: at most 16 players on the roster; injured players still count."""
    players = linemen(15) + linemen(1, status="miss_next_match", start=50)
    with pytest.raises(RuleViolation, match="at most 16"):
        BB.check_hire(team(players), BLITZER, HR)


def test_hire_refused_without_enough_gil():
    """R/I: the treasury may never go below 0."""
    with pytest.raises(RuleViolation, match="Not enough gil") as exc:
        BB.check_hire(team(treasury=8999), BLITZER, HR)
    assert exc.value.field == "treasury"


def test_staff_prices_are_house_rules():
    """H: assistant coach 1,000; cheerleader 1,000; White Mage 5,000."""
    assert BB.purchase(team(), "assistant_coach", 2, HR).cost == 2000
    assert BB.purchase(team(), "cheerleader", 1, HR).cost == 1000
    assert BB.purchase(team(), "white_mage", 1, HR).cost == 5000
    cheap = {**HR, "staff": {**HR["staff"], "cheerleader": {"price": 500, "max": 10}}}
    assert BB.purchase(team(), "cheerleader", 2, cheap).cost == 1000


def test_white_mage_only_for_rosters_that_allow_one():
    """H: White Mage only for rosters flagged `white_mage: true`."""
    with pytest.raises(RuleViolation, match="White Mage"):
        BB.purchase(team(roster=UNDEAD), "white_mage", 1, HR)


def test_white_mage_limit():
    with pytest.raises(RuleViolation, match="at most 1"):
        BB.purchase(team(staff={"white_mage": 1}), "white_mage", 1, HR)


def test_fan_factor_bought_only_in_creation_at_1000_a_point_up_to_9():
    """H: Fan Factor bought at creation for 1,000 per point, starting FF 0–9, creation only."""
    assert BB.purchase(team(), "fan_factor", 3, HR).cost == 3000
    with pytest.raises(RuleViolation, match="in creation"):
        BB.purchase(team(in_creation=False), "fan_factor", 1, HR)
    with pytest.raises(RuleViolation, match="at most 9"):
        BB.purchase(team(fan_factor=8), "fan_factor", 2, HR)


def test_purchase_refused_without_enough_gil():
    with pytest.raises(RuleViolation, match="Not enough gil"):
        BB.purchase(team(treasury=9999, in_creation=False), "reroll", 1, HR)


def test_unknown_item_is_refused():
    with pytest.raises(RuleViolation) as exc:
        BB.purchase(team(), "magic_potion", 1, HR)
    assert exc.value.field == "item"


def test_ready_needs_eleven_players_able_to_play():
    """R: at least 11 players can be fielded."""
    with pytest.raises(RuleViolation, match="11"):
        BB.check_ready(team(linemen(10) + linemen(1, status="miss_next_match", start=30)), HR)
    BB.check_ready(team(linemen(11)), HR)
