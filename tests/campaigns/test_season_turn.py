"""The season turn as each ruleset declares it (issue 13; docs/decisions/ 2026-12-02 "The season turn"): pure,
plain data in and out.

- I (issue 13): `carry` changes nothing in any ruleset — every rulebook keeps between seasons what a team keeps
  between matches (Blitz Bowl: "Unspent gil stays in the treasury", SPP, FF; ElfBall: Goal Points; Bone
  Cruncher: "Wounds and incapacitated limbs persist between matches until healed").
- H `season_rollover: redraft`: every team rebuilt from its creation budget — Blitz Bowl's treasury set to
  `redraft_budget` (default the rulebook's starting treasury, R "Treasury starts at 100,000 gil"); ElfBall's
  budget is its 150 points (R "Advanced Rules budget"), which a team with no players and no support has whole;
  Bone Cruncher has no economy (R "no economy"), so a redraft is the squad alone.
"""

from __future__ import annotations

import pytest

from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset
from campaigns.rulesets.base import PlayerState
from campaigns.rulesets.season import REDRAFT_RESETS, SeasonTeam, TeamTurn

RULESETS = ("blitzbowl", "elfball", "bonecruncher")


def _team(team_id: int, *, treasury: int = 0) -> SeasonTeam:
    players = (
        PlayerState(id=team_id * 10 + 1, position="", status="active"),
        PlayerState(id=team_id * 10 + 2, position="", status="miss_next_match"),
        PlayerState(id=team_id * 10 + 3, position="", status="journeyman"),
        PlayerState(id=team_id * 10 + 4, position="", status="dead"),
        PlayerState(id=team_id * 10 + 5, position="", status="retired"),
    )
    return SeasonTeam(id=team_id, players=players, treasury=treasury, rerolls=2, fan_factor=3, staff={"cheerleader": 1})


def _hr(key: str, **overrides) -> dict:
    return {**get_ruleset(key).default_house_rules(), **overrides}


@pytest.mark.parametrize("key", RULESETS)
def test_carry_is_the_default_and_changes_nothing_issue_13(key):
    """I (issue 13): by default (`season_rollover: carry`) the turn leaves every team as it is."""
    rules = get_ruleset(key)
    assert rules.default_house_rules()["season_rollover"] == "carry"
    assert rules.season_turn((_team(1, treasury=42_000), _team(2)), _hr(key)) == ()


@pytest.mark.parametrize("key", RULESETS)
def test_a_redraft_releases_the_roster_gives_up_bought_counts_and_reopens_creation_h_issue_13(key):
    """H (issue 13) redraft: the players on the roster (active, missing a match, journeymen) are released — the
    dead and retired are gone already — re-rolls, staff/support and FF are given up, the team is in creation."""
    turns = get_ruleset(key).season_turn((_team(1), _team(2)), _hr(key, season_rollover="redraft"))
    assert [t.team for t in turns] == [1, 2]
    assert turns[0].release == (11, 12, 13)
    assert turns[1].release == (21, 22, 23)
    assert all(t.back_in_creation and t.reset == REDRAFT_RESETS for t in turns)
    assert set(REDRAFT_RESETS) == {"rerolls", "fan_factor", "staff"}


def test_blitz_bowl_redraft_sets_the_treasury_to_the_redraft_budget_h_issue_13():
    """H: the treasury becomes `redraft_budget` whatever it held (up or down); R the default is the starting
    treasury, 100,000 gil."""
    bb = get_ruleset("blitzbowl")
    assert bb.default_house_rules()["redraft_budget"] == bb.default_house_rules()["starting_treasury"] == 100_000
    rich, poor = _team(1, treasury=180_000), _team(2, treasury=3_000)
    turns = bb.season_turn((rich, poor), _hr("blitzbowl", season_rollover="redraft"))
    assert [t.treasury for t in turns] == [100_000, 100_000]
    assert [t.treasury_change(team.treasury) for t, team in zip(turns, (rich, poor), strict=True)] == [-80_000, 97_000]
    budget = bb.season_turn((rich,), _hr("blitzbowl", season_rollover="redraft", redraft_budget=60_000))
    assert budget[0].treasury == 60_000


@pytest.mark.parametrize("key", ["elfball", "bonecruncher"])
def test_elfball_and_bone_cruncher_redrafts_move_no_gil_r_issue_13(key):
    """R ElfBall: the budget is points, not a treasury; R Bone Cruncher: no economy — no treasury is set."""
    turns = get_ruleset(key).season_turn((_team(1),), _hr(key, season_rollover="redraft"))
    assert turns[0].treasury is None and turns[0].treasury_change(0) == 0


def test_an_elfball_team_redrafted_has_its_whole_points_budget_again_r():
    """R (ElfBall "Advanced Rules budget: 150 points"): with its players released and its support given up, a
    redrafted team's value is 0, so it rebuilds from the whole 150."""
    from campaigns.rulesets.base import RosterSpec, TeamState

    elfball, hr = get_ruleset("elfball"), _hr("elfball")
    assert elfball.team_value(TeamState(roster=RosterSpec("x", "X", {})), hr) == 0
    assert hr["points_budget"] == 150


@pytest.mark.parametrize("key", RULESETS)
def test_season_rollover_is_carry_or_redraft_and_validated_h(key):
    """H: `season_rollover` takes `carry` or `redraft`; anything else is refused naming the key."""
    rules = get_ruleset(key)
    assert rules.validate_house_rules({"season_rollover": "redraft"}) == {"season_rollover": "redraft"}
    for bad in ("keep", "", 1):
        with pytest.raises(RuleViolation) as refused:
            rules.validate_house_rules({"season_rollover": bad})
        assert refused.value.field == "season_rollover"


def test_redraft_budget_is_blitz_bowls_alone_and_a_gil_amount_h():
    """H: `redraft_budget` is Blitz Bowl's (the only treasury); it is a non-negative integer."""
    bb = get_ruleset("blitzbowl")
    assert bb.validate_house_rules({"redraft_budget": 50_000}) == {"redraft_budget": 50_000}
    for bad in (-1, "lots", 1.5):
        with pytest.raises(RuleViolation):
            bb.validate_house_rules({"redraft_budget": bad})
    for key in ("elfball", "bonecruncher"):
        with pytest.raises(RuleViolation):
            get_ruleset(key).validate_house_rules({"redraft_budget": 50_000})


def test_a_team_turn_with_no_treasury_moves_no_gil():
    assert TeamTurn(team=1).treasury_change(5_000) == 0
    assert TeamTurn(team=1, treasury=5_000).treasury_change(5_000) == 0
