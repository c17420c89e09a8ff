"""Bone Cruncher squads (../shared/rules/bonecruncher.md, "Squad")."""

import pytest

from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset
from campaigns.rulesets.base import PlayerState, PositionSpec, RosterSpec, TeamState

BC = get_ruleset("bonecruncher")
HR = BC.default_house_rules()
PLAYER = PositionSpec(key="player", name="Player", min=0, max=15, cost=0)  # as shipped: the squad limit governs
ELF = PositionSpec(key="elite_elf", name="Elite Elf", min=0, max=1, cost=0, extra={"shared_limit": "halfling_elite"})
HUMAN = PositionSpec(
    key="elite_human", name="Elite Human", min=0, max=1, cost=0, extra={"shared_limit": "halfling_elite"}
)
HALFLINGS = RosterSpec(
    key="halflings", name="Halflings", positions={"player": PLAYER, "elite_elf": ELF, "elite_human": HUMAN}
)


def squad(n=0, roles=(), extra=()) -> TeamState:
    players = [PlayerState(id=i, position="player", role=roles[i] if i < len(roles) else "") for i in range(n)]
    return TeamState(roster=HALFLINGS, players=tuple(players) + tuple(extra))


def test_squad_of_twelve():
    """R: squads of 12 players for most events (H: squad_limit 12)."""
    BC.check_hire(squad(11), PLAYER, HR)
    with pytest.raises(RuleViolation, match="at most 12"):
        BC.check_hire(squad(12), PLAYER, {**HR, "squad_limit": 12})


def test_squad_limit_is_configurable_for_olympic_events():
    BC.check_hire(squad(12), PLAYER, {**HR, "squad_limit": 15})


def test_one_great_captain_per_team():
    """R: one Great Captain per team."""
    with pytest.raises(RuleViolation, match="already has a Great Captain"):
        BC.check_hire(squad(2, roles=("captain",)), PLAYER, HR, role="captain")


def test_one_goalie_per_team():
    with pytest.raises(RuleViolation, match="already has a Goalie"):
        BC.check_hire(squad(2, roles=("", "goalie")), PLAYER, HR, role="goalie")


def test_the_captain_cannot_be_the_goalie():
    """R: one Goalie, any player but the Captain."""
    state = squad(2, roles=("captain",))
    with pytest.raises(RuleViolation, match="Captain cannot be the Goalie"):
        BC.check_role(state, state.players[0], "goalie", HR)
    BC.check_role(state, state.players[1], "goalie", HR)


def test_unknown_role_is_refused():
    with pytest.raises(RuleViolation) as exc:
        BC.check_hire(squad(), PLAYER, HR, role="striker")
    assert exc.value.field == "role"


def test_halflings_take_one_elite_elf_or_human_in_all():
    """R: Halfling teams may include one Elite player of the Elf or Human race."""
    BC.check_hire(squad(3), ELF, HR)
    with pytest.raises(RuleViolation, match="only 1"):
        BC.check_hire(squad(3, extra=(PlayerState(id=99, position="elite_elf"),)), HUMAN, HR)


@pytest.mark.parametrize("item", ["cheerleader", "coach", "trainer"])
def test_support_staff_up_to_two_each_at_no_cost(item):
    """R: Cheerleaders, Coaches, Trainers (H: up to 2 of each; no cost)."""
    assert BC.purchase(squad(), item, 2, HR).cost == 0
    with pytest.raises(RuleViolation, match="at most 2"):
        BC.purchase(TeamState(roster=HALFLINGS, staff={item: 2}), item, 1, HR)


def test_ready_needs_a_captain_and_a_goalie():
    with pytest.raises(RuleViolation, match="Great Captain and a Goalie"):
        BC.check_ready(squad(8), HR)
    BC.check_ready(squad(8, roles=("captain", "goalie")), HR)


def test_bone_cruncher_has_no_economy():
    assert BC.team_value(squad(5), HR) is None
    assert BC.starting_treasury(HR) == 0


def test_terminix_takes_two_or_more_teams_scorchball_two():
    """R: Terminix — two or more teams; Scorchball — two teams."""
    assert BC.teams_per_match["terminix"][0] == 2 and BC.teams_per_match["terminix"][1] > 2
    assert BC.teams_per_match["scorchball"] == (2, 2)
