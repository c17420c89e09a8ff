"""The Bone Cruncher post-match sequence: wounds, veterans, team_stats (../shared/rules/bonecruncher.md
"Wounds", "Veterans"; ../shared/docs/api-v1.md "Post-match sequence").

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).
Steps are run on plain views, as the engine builds them; nothing here touches the database.
"""

import copy

import pytest

from campaigns.dice import Dice
from campaigns.engine import MatchView, NeedsDecision, PlayerUpdate, PlayerView, SideView, StepContext, TeamView
from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset
from campaigns.rulesets.bonecruncher import steps

BC = get_ruleset("bonecruncher")
HR = BC.default_house_rules()
ADV = copy.deepcopy(HR)
ADV["advanced_wounds"] = True
TEMPLATES = {r["key"]: r["health_template"] for r in BC.roster_data()}


def player(pid, name=None, *, race="humans_barbarians", **kw) -> PlayerView:
    return PlayerView(
        id=pid,
        name=name or f"P{pid}",
        number=pid,
        position="player",
        status=kw.pop("status", "active"),
        spp=0,
        skills=(),
        attributes={"move": 5},
        value=0,
        race=race,
        health_template=TEMPLATES[race],
        **kw,
    )


def team(*players, trainers=0) -> TeamView:
    return TeamView(
        id=1,
        name="Bonebreakers",
        roster_key="humans_barbarians",
        fan_factor=0,
        treasury=0,
        stadium_fund=0,
        rerolls=0,
        staff={"trainer": trainers},
        players=tuple(players),
        ongoing_sponsorships=(),
        home_stadium=None,
        journeyman_position=None,
        journeyman_cost=0,
    )


def row(plain=0, *, areas=None, critical=()) -> dict:
    critical = [c if isinstance(c, dict) else {"roll": c, "side": None} for c in critical]
    return BC.player_match_row({"wounds": plain, "areas": areas or {}, "critical": critical}, mvp=False, hr=HR)


def match(rows, *, outcome="win", event="scorchball", us=None, them=None) -> MatchView:
    return MatchView(
        id=7,
        kind="league",
        outcome=outcome,
        us=us or SideView(team_id=1, score=3, casualties_inflicted=0),
        them=them or (SideView(team_id=2, score=1, casualties_inflicted=0),),
        stadium=None,
        player_rows=rows,
        event=event,
    )


def run(step, the_team, the_match, *, choices=None, carry=None, hr=HR) -> StepContext:
    ctx = StepContext(
        team=the_team,
        match=the_match,
        hr=hr,
        dice=Dice(catalogue=BC.roll_catalogue(hr)),
        choices=choices or {},
        carry=carry if carry is not None else {},
    )
    {s.key: s for s in BC.postmatch_steps}[step].run(ctx)
    return ctx


def updates(ctx) -> dict[int, list[PlayerUpdate]]:
    out: dict[int, list[PlayerUpdate]] = {}
    for e in ctx.effects:
        out.setdefault(e.player_id, []).append(e)
    return out


def test_the_steps_and_their_order():
    """api-v1: Bone Cruncher steps wounds, veterans, team_stats."""
    assert [s.key for s in BC.postmatch_steps] == ["wounds", "veterans", "team_stats"]
    assert BC.postmatch_steps is steps.STEPS


# --- wounds ----------------------------------------------------------------------------------------------------


def test_wounds_mark_armour_first_then_boxes():
    """R: the Captain's 2 armour boxes take the first hits. 3 wounds + critical 2 (2 wounds, left leg): armour 2,
    3 boxes, an incapacitated left leg; one PlayerUpdate with the absolute new values."""
    ctx = run("wounds", team(player(1, role="captain"), player(2)), match({1: row(3, critical=[2]), 2: row()}))
    (update,) = ctx.effects
    assert update.player_id == 1 and update.status is None
    assert update.fields == {
        "wounds": 3,
        "armour_used": 2,
        "wound_areas": {},
        "conditions": [{"key": "incapacitated_leg", "side": "left"}],
    }
    assert any("Armour took 2 hit(s)" in line for line in ctx.log)


def test_a_killed_player_goes_to_the_memorial_and_his_role_is_cleared():
    """R: the 10th wound kills: removed and listed in the memorial; a dead Captain's role is cleared."""
    veteran = player(1, "Grog", role="captain", wounds=8, armour_used=2)
    ctx = run("wounds", team(veteran, player(2)), match({1: row(2), 2: row()}))
    (update,) = ctx.effects
    assert (update.status, update.leaves, update.reason) == ("dead", True, "killed: listed in the memorial")
    assert update.fields["wounds"] == 10 and update.fields["role"] == ""
    assert ctx.carry["killed"] == [{"player": 1, "name": "Grog", "role": "captain"}]
    assert "Grog is dead: listed in the memorial." in ctx.log


def test_advanced_wounds_in_the_step():
    """R advanced: per-area boxes after the race's protection (Human 2)."""
    hr = ADV
    rows = {
        1: BC.player_match_row({"wounds": 4, "areas": {"head": 1, "left_arm": 3}, "critical": []}, mvp=False, hr=hr)
    }
    ctx = run("wounds", team(player(1)), match(rows), hr=hr)
    assert ctx.effects[0].fields["wound_areas"] == {"left_arm": 2}
    assert ctx.effects[0].fields["armour_used"] == 2


def test_trainer_healing_asks_then_folds_into_the_same_update():
    """H: each Trainer heals up to 3 boxes (not armour) on one player; the healing folds into the player's update."""
    the_team = team(player(1, role="captain"), player(2, wounds=2), trainers=1)
    the_match = match({1: row(6), 2: row()})
    with pytest.raises(NeedsDecision) as exc:
        run("wounds", the_team, the_match)
    assert exc.value.decision == "heal"
    assert exc.value.options["trainers"] == 1
    assert exc.value.options["players"]["1"] == {"name": "P1", "wounds": 4, "conditions": []}
    assert exc.value.options["players"]["2"]["wounds"] == 2
    ctx = run("wounds", the_team, the_match, choices={"heal": [{"player": 1, "boxes": 3}]})
    (update,) = ctx.effects
    assert update.fields["wounds"] == 1 and update.fields["armour_used"] == 2
    assert "healed by a Trainer" in update.reason


def test_trainer_heals_a_player_who_did_not_play():
    """H: wounds persist between matches; a Trainer may treat any living player."""
    the_team = team(player(1), player(2, wounds=5), trainers=1)
    ctx = run("wounds", the_team, match({1: row()}), choices={"heal": [{"player": 2, "boxes": 3}]})
    (update,) = ctx.effects
    assert (update.player_id, update.fields["wounds"]) == (2, 2)


def test_trainer_healing_limits():
    """H: at most 3 boxes, one player per Trainer, a severed arm never heals, dead players are not treated."""
    severed = ({"key": "severed_arm", "side": "left"},)
    the_team = team(player(1, wounds=5, conditions=severed), player(2, wounds=9), trainers=1)
    the_match = match({1: row(), 2: row(1)})
    for answer, field in (
        ([{"player": 1, "boxes": 4}], "choices.heal[0]"),
        ([{"player": 1, "boxes": 1}, {"player": 1, "boxes": 1}], "choices.heal"),
        ([{"player": 1, "remove": "severed_arm", "side": "left"}], "choices.heal[0]"),
        ([{"player": 2, "boxes": 3}], "choices.heal[0].player"),  # killed this match
        ({"player": 1}, "choices.heal"),
    ):
        with pytest.raises(RuleViolation) as exc:
            run("wounds", the_team, the_match, choices={"heal": answer})
        assert exc.value.field == field, answer
    with pytest.raises(NeedsDecision) as exc:
        run("wounds", the_team, the_match)
    assert exc.value.options["players"]["1"]["conditions"] == [
        {"key": "severed_arm", "side": "left", "healable": False}
    ]


def test_trainer_removes_an_incapacitation():
    """H: or removes one incapacitation other than a severed arm."""
    leg = ({"key": "incapacitated_leg", "side": "right"},)
    ctx = run(
        "wounds",
        team(player(1, conditions=leg), trainers=2),
        match({1: row()}),
        choices={"heal": [{"player": 1, "remove": "incapacitated_leg"}]},
    )
    assert ctx.effects[0].fields["conditions"] == []


def test_no_healing_and_no_trainer():
    ctx = run("wounds", team(player(1), trainers=1), match({1: row(2)}), choices={"heal": []})
    assert ctx.effects[0].fields["wounds"] == 2
    assert "No healing this time." in ctx.log
    ctx = run("wounds", team(player(1)), match({1: row(2)}))
    assert any("No Trainer" in line for line in ctx.log)


# --- veterans ----------------------------------------------------------------------------------------------------


def test_every_squad_survivor_counts_a_match():
    """R: veterans survive games: each squad player alive after the match +1; the dead and the bench do not."""
    the_team = team(player(1, matches_survived=2), player(2, status="dead"), player(3))
    ctx = run("veterans", the_team, match({1: row(), 2: row(10)}))
    assert [(e.player_id, e.fields) for e in ctx.effects] == [(1, {"matches_survived": 3})]


def test_promotion_to_elite_at_five_matches():
    """H: after surviving 5 matches the coach may promote (decision `promote`); R: Elite +1 shooting, +1 melee,
    more armour."""
    the_team = team(player(1, "Vet", matches_survived=4), player(2))
    the_match = match({1: row(), 2: row()})
    with pytest.raises(NeedsDecision) as exc:
        run("veterans", the_team, the_match)
    assert exc.value.decision == "promote"
    assert exc.value.options == {"eligible": [{"player": 1, "name": "Vet", "matches_survived": 5}], "slots": 1}
    ctx = run("veterans", the_team, the_match, choices={"promote": [1]})
    promoted = [e for e in ctx.effects if e.fields.get("elite")]
    assert [e.player_id for e in promoted] == [1]
    assert promoted[0].reason == "promoted to Elite: +1 shooting, +1 melee, +1 armour box"
    ctx = run("veterans", the_team, the_match, choices={"promote": []}, hr=HR)
    assert not [e for e in ctx.effects if e.fields.get("elite")]
    assert any("stay eligible" in line for line in ctx.log)
    adv = run("veterans", the_team, the_match, choices={"promote": [1]}, hr=ADV)
    assert adv.effects[-1].reason == "promoted to Elite: +1 shooting, +1 melee, +2 protection"


def test_elite_slot_cap():
    """R: no more than one Elite besides the Captain; I: two veterans, one slot → only one promoted; an Elite
    already on the squad → no slot, logged; an Elite-worthy Captain does not take a slot."""
    vets = team(player(1, matches_survived=5), player(2, matches_survived=7))
    with pytest.raises(RuleViolation) as exc:
        run("veterans", vets, match({}), choices={"promote": [1, 2]})
    assert exc.value.field == "choices.promote"
    assert run("veterans", vets, match({}), choices={"promote": [2]}).effects[0].player_id == 2

    full = team(player(1, matches_survived=5), player(2, elite=True))
    ctx = run("veterans", full, match({}))
    assert ctx.effects == []
    assert any("no Elite slot" in line for line in ctx.log)

    captain = team(player(1, matches_survived=5, role="captain"), player(2, elite=True), player(3, matches_survived=6))
    with pytest.raises(NeedsDecision) as exc:
        run("veterans", captain, match({}))
    assert exc.value.options == {"eligible": [{"player": 1, "name": "P1", "matches_survived": 5}], "slots": 0}
    assert run("veterans", captain, match({}), choices={"promote": [1]}).effects[0].fields == {"elite": True}


def test_a_player_killed_in_the_wounds_step_is_no_veteran():
    """R: only survivors count; the carry of the wounds step says who died even before the team is re-read."""
    the_team = team(player(1, matches_survived=4), player(2))
    ctx = run("veterans", the_team, match({1: row(), 2: row()}), carry={"killed": [{"player": 1, "name": "P1"}]})
    assert [e.player_id for e in ctx.effects] == [2]


# --- team stats --------------------------------------------------------------------------------------------------


def test_team_stats_logs_the_match_and_warns_of_a_missing_captain():
    """H: league points; the squad, the dead, wounded boxes and conditions, Elite count; R: a team needs a Great
    Captain and a Goalie — a dead Captain's successor must be named."""
    the_team = team(
        player(1, "Grog", status="dead", wounds=10),
        player(
            2, "Ulf", role="goalie", wounds=3, armour_used=1, conditions=({"key": "incapacitated_arm", "side": "left"},)
        ),
        player(3, "Sig", elite=True),
    )
    ctx = run("team_stats", the_team, match({1: row(), 2: row(), 3: row()}, outcome="draw", us=SideView(1, 2, 0)))
    assert ctx.effects == []
    assert ctx.log[0] == "Scorchball (league): Drawn 2–1: 1 league point(s)."
    assert "Squad: 3 player(s)." in ctx.log
    assert "Killed this match: Grog (listed in the memorial)." in ctx.log
    assert (
        "Ulf: 3/10 wound boxes, 1/1 armour used; incapacitated left arm (no distance fire, −2 in melee until healed)."
        in ctx.log
    )
    assert "Elite players: 1 (Sig)." in ctx.log
    assert any("name a new Great Captain before the next match" in line for line in ctx.log)
    assert not any("no Goalie" in line for line in ctx.log)


def test_team_stats_terminix_points_by_placing():
    """H: Terminix 1st 3, 2nd 1, others 0."""
    us = SideView(team_id=1, score=0, casualties_inflicted=4, placing=2, eliminations=4)
    them = (SideView(team_id=2, score=0, casualties_inflicted=0, placing=1), SideView(3, 0, 0, placing=3))
    the_team = team(player(1, role="captain"), player(2, role="goalie"))
    ctx = run("team_stats", the_team, match({1: row()}, outcome="loss", event="terminix", us=us, them=them))
    assert ctx.log[0] == "Terminix (league): placed 2 of 3, 4 elimination(s): 1 league point(s)."
    assert not any("Warning" in line for line in ctx.log)
