"""Bone Cruncher wounds, armour, healing, Elite status and equipment (../shared/rules/bonecruncher.md "Wounds",
"Veterans", "Squad" — Bloody Blades).

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).
"""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.engine import PlayerView
from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset
from campaigns.rulesets.bonecruncher import wounds as w
from campaigns.rulesets.bonecruncher.wounds import WoundState

BC = get_ruleset("bonecruncher")
HR = BC.default_house_rules()
ADV = copy.deepcopy(HR)
ADV["advanced_wounds"] = True
ROSTERS = {r["key"]: r for r in BC.roster_data()}


def template(race: str) -> dict:
    return ROSTERS[race]["health_template"]


def hits(state=None, *, hr=HR, race="humans_barbarians", **kw):
    return w.apply_hits(state or WoundState(), template=template(race), hr=hr, **kw)


# --- armour ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "elite", "boxes"),
    [("", False, 0), ("captain", False, 2), ("goalie", False, 1), ("", True, 1), ("captain", True, 3)],
)
def test_basic_armour_boxes(role, elite, boxes):
    """R basic: Elite players and the Goalie +1 armour box, the Captain +2."""
    assert w.armour_capacity(role=role, elite=elite, template=None, hr=HR) == boxes


@pytest.mark.parametrize(
    ("role", "elite", "boxes"),
    [("", False, 4), ("captain", False, 4), ("goalie", False, 7), ("", True, 6), ("goalie", True, 9)],
)
def test_advanced_protection_boxes(role, elite, boxes):
    """R advanced: the race's protection (Amazons 4), Goalies +3, Elite +2; I: the Captain gets no advanced bonus."""
    assert w.armour_capacity(role=role, elite=elite, template=template("amazons"), hr=ADV) == boxes


def test_armour_takes_the_first_hits_and_never_heals():
    """R: armour boxes take the first hits and cannot be healed. Captain, 3 hits: 2 on armour, 1 wound box;
    a Trainer's 3 boxes heal the wound and leave the armour marked."""
    result = hits(wounds=3, role="captain")
    assert (result.armour_hits, result.state.armour_used, result.state.wounds) == (2, 2, 1)
    healed = w.heal(result.state, boxes=3, hr=HR, template=None)
    assert (healed.wounds, healed.armour_used) == (0, 2)
    # The next match: the armour is spent, every hit marks a wound box.
    again = hits(healed, wounds=2, role="captain")
    assert (again.armour_hits, again.state.wounds, again.state.armour_used) == (0, 2, 2)


def test_goalie_and_elite_armour_in_basic_wounds():
    """R: the Goalie's one armour box takes his first hit; an Elite Goalie has two."""
    assert hits(wounds=2, role="goalie").state.wounds == 1
    assert hits(wounds=2, role="goalie", elite=True).state.wounds == 0


# --- basic wounds and death ------------------------------------------------------------------------------------


def test_basic_death_at_the_tenth_wound():
    """R: each player has 10 wound boxes; the 10th wound kills."""
    nine = hits(wounds=9)
    assert (nine.state.wounds, nine.died, nine.dead) == (9, False, False)
    ten = hits(nine.state, wounds=1)
    assert (ten.state.wounds, ten.died, ten.dead) == (10, True, True)
    assert any("Dead" in line for line in ten.log)


def test_the_captains_armour_delays_death_by_two_hits():
    """R: the Captain's 2 armour boxes: 11 hits leave him alive on 9 wounds, the 12th kills."""
    assert hits(wounds=11, role="captain").state.wounds == 9
    assert hits(wounds=12, role="captain").died


def test_marked_boxes_never_pass_the_limit_and_later_hits_are_lost():
    """R: a dead player stays dead; I: hits after death mark nothing."""
    first = hits(wounds=14)
    assert (first.state.wounds, first.lost_hits, first.died) == (10, 4, True)
    later = hits(first.state, wounds=3, critical=[2])
    assert (later.state.wounds, later.died, later.dead, later.lost_hits) == (10, False, True, 5)


# --- advanced wounds ---------------------------------------------------------------------------------------------


def test_wound_limit_basic_and_advanced():
    """R basic 10; R advanced the template's total; I: never above the six areas' sum (Amazons 33 → 32)."""
    assert w.wound_limit(template=None, hr=HR) == 10
    expected = {
        "amazons": 32,
        "humans_barbarians": 35,
        "elves": 36,
        "dwarves": 34,
        "halflings": 27,
        "orcs_goblins": 39,
        "lizardmen": 34,
        "undead_zombies": 25,
    }
    assert {race: w.wound_limit(template=template(race), hr=ADV) for race in expected} == expected


def test_advanced_wounds_mark_their_areas():
    """R advanced: hits per body area. Human (2 protection): head 2 then left leg 3 → the two head hits take the
    armour, the left leg marks 3 of its 6."""
    result = hits(hr=ADV, areas={"head": 2, "left_leg": 3})
    assert result.state.armour_used == 2
    assert result.state.wound_areas == {"left_leg": 3}
    assert result.state.wounds == 3


def test_a_full_area_overflows_to_the_next_with_room():
    """I: a hit on a full area goes to the first area with room: torso, left leg, right leg, left arm, right arm,
    head. Halfling (2 protection, head 3): 7 head hits → 2 armour, head 3/3, torso 2."""
    first = hits(hr=ADV, race="halflings", areas={"head": 7})
    assert first.state.wound_areas == {"head": 3, "torso": 2}
    assert "overflowed" in first.log[0]
    # Torso full (8/8): two more torso hits go to the left leg.
    full = WoundState(wounds=11, armour_used=2, wound_areas={"head": 3, "torso": 8})
    again = hits(full, hr=ADV, race="halflings", areas={"torso": 2})
    assert again.state.wound_areas == {"head": 3, "torso": 8, "left_leg": 2}
    assert again.state.wounds == 13


def test_a_bare_count_strikes_the_torso_in_advanced_wounds():
    """I: a wound count with no areas, in an advanced league, goes to the torso."""
    assert hits(hr=ADV, wounds=5).state.wound_areas == {"torso": 3}  # 2 on the Human's protection


def test_advanced_death_at_the_template_limit():
    """R: a player whose wounds reach the template's total is dead. Undead (25, protection 1), armour spent and
    24 boxes marked: the next hit kills."""
    marks = {"head": 2, "torso": 6, "left_arm": 4, "right_arm": 4, "left_leg": 4, "right_leg": 4}
    state = WoundState(wounds=24, armour_used=1, wound_areas=marks)
    result = hits(state, hr=ADV, race="undead_zombies", areas={"left_arm": 1})
    assert result.died
    assert result.state.wounds == 25
    assert result.state.wound_areas["head"] == 3  # the full arm overflowed to the one square left


def test_amazons_die_at_32_not_33():
    """I: the Amazons' 32 squares can all be marked; the 32nd kills (the rulebook's 33 cannot be reached)."""
    result = hits(hr=ADV, race="amazons", wounds=4 + 31)
    assert (result.state.wounds, result.dead) == (31, False)
    assert hits(result.state, hr=ADV, race="amazons", areas={"head": 1}).died


# --- critical wounds ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "boxes", "condition", "move"),
    [
        (1, 2, None, 5),  # stunned arm: 2 wounds, nothing lasting
        (2, 2, {"key": "incapacitated_leg", "side": "left"}, 3),  # −2 movement until healed
        (3, 2, {"key": "incapacitated_arm", "side": "left"}, 5),
        (4, 3, None, 5),  # torso: 3 wounds
        (5, 2, None, 5),  # head: 2 wounds, nothing lasting
        (6, 4, {"key": "severed_arm", "side": "left"}, 5),  # 4 hit points, the arm never heals
    ],
)
def test_each_critical_wound_and_its_lasting_effect(roll, boxes, condition, move):
    """R: the Critical Wound Chart's wounds; I: 2, 3 and 6 leave a condition between matches, 1, 4 and 5 none."""
    result = hits(critical=[roll])
    assert result.state.wounds == boxes
    assert list(result.state.conditions) == ([condition] if condition else [])
    assert w.movement(base=5, conditions=result.state.conditions, hr=HR) == move


@pytest.mark.parametrize(
    ("critical", "areas"),
    [
        ({"roll": 1, "side": "right"}, {"right_arm": 2}),
        ({"roll": 2, "side": "right"}, {"right_leg": 2}),
        (3, {"left_arm": 2}),
        (4, {"torso": 3}),
        (5, {"head": 2}),
        ({"roll": 6, "side": "right"}, {"right_arm": 4}),
    ],
)
def test_critical_wounds_strike_their_area_in_advanced_wounds(critical, areas):
    """R: arm/leg results strike a limb (I: the given side, else the first unaffected), 4 the torso, 5 the head.
    An Orc's protection spent beforehand, so every hit marks its area."""
    state = WoundState(armour_used=3)
    assert hits(state, hr=ADV, race="orcs_goblins", critical=[critical]).state.wound_areas == areas


def test_a_critical_side_defaults_to_the_first_unaffected_limb():
    """I: the side left out goes to the first side whose limb has no lasting condition, else the left."""
    state = WoundState(conditions=({"key": "incapacitated_leg", "side": "left"},))
    assert hits(state, critical=[2]).state.conditions[-1] == {"key": "incapacitated_leg", "side": "right"}
    both = hits(state, critical=[2, 2]).state.conditions
    assert list(both) == [{"key": "incapacitated_leg", "side": "left"}, {"key": "incapacitated_leg", "side": "right"}]
    # Both legs already affected: left, and the condition is not kept twice.
    assert list(hits(WoundState(conditions=both), critical=[2]).state.conditions) == list(both)


def test_a_severed_arm_replaces_an_incapacitated_arm_of_that_side():
    """I: 6 severs the arm; an incapacitated arm of the same side is gone with it, the other side's stays."""
    state = WoundState(
        conditions=({"key": "incapacitated_arm", "side": "left"}, {"key": "incapacitated_arm", "side": "right"})
    )
    result = hits(state, critical=[{"roll": 6, "side": "right"}])
    assert list(result.state.conditions) == [
        {"key": "incapacitated_arm", "side": "left"},
        {"key": "severed_arm", "side": "right"},
    ]
    # A severed arm cannot be incapacitated again.
    again = hits(result.state, critical=[{"roll": 3, "side": "right"}])
    assert list(again.state.conditions) == list(result.state.conditions)


def test_critical_wounds_follow_the_plain_wounds_onto_the_armour():
    """R: hits in order — plain wounds first, then each critical's chart wounds; armour takes the first hits.
    Goalie (1 armour), 1 wound + critical 4 (3): armour 1, 3 boxes."""
    result = hits(wounds=1, critical=[4], role="goalie")
    assert (result.state.armour_used, result.state.wounds) == (1, 3)
    assert w.critical_wounds([1, 2, 3, 4, 5, {"roll": 6}], HR) == 2 + 2 + 2 + 3 + 2 + 4


# --- healing -----------------------------------------------------------------------------------------------------


def test_trainer_heals_up_to_three_boxes():
    """H: each Trainer heals up to 3 wound boxes on one player; fewer marked, fewer healed; 4 refused."""
    assert w.heal(WoundState(wounds=5), boxes=3, hr=HR).wounds == 2
    assert w.heal(WoundState(wounds=2), boxes=3, hr=HR).wounds == 0
    with pytest.raises(RuleViolation, match="at most 3"):
        w.heal(WoundState(wounds=5), boxes=4, hr=HR)


def test_trainer_removes_one_incapacitation_instead():
    """H: or removes one incapacitation other than a severed arm — not both in one treatment."""
    legs = ({"key": "incapacitated_leg", "side": "left"}, {"key": "incapacitated_leg", "side": "right"})
    state = WoundState(wounds=4, conditions=legs)
    healed = w.heal(state, remove={"key": "incapacitated_leg", "side": "right"}, hr=HR)
    assert list(healed.conditions) == [legs[0]]
    assert healed.wounds == 4
    with pytest.raises(RuleViolation, match="which side"):
        w.heal(state, remove={"key": "incapacitated_leg"}, hr=HR)
    with pytest.raises(RuleViolation, match="not both"):
        w.heal(state, boxes=1, remove={"key": "incapacitated_leg", "side": "left"}, hr=HR)
    with pytest.raises(RuleViolation, match="no incapacitated_arm"):
        w.heal(state, remove={"key": "incapacitated_arm"}, hr=HR)


def test_a_severed_arm_never_heals():
    """R: a severed arm never heals (H trainer_healing.severed_arm_heals false)."""
    state = WoundState(wounds=4, conditions=({"key": "severed_arm", "side": "left"},))
    with pytest.raises(RuleViolation, match="never heals"):
        w.heal(state, remove={"key": "severed_arm", "side": "left"}, hr=HR)
    assert w.healable_conditions(state.conditions, HR) == []


def test_dead_players_stay_dead():
    """H: dead players stay dead — no Trainer heals them."""
    with pytest.raises(RuleViolation, match="Dead players stay dead"):
        w.heal(WoundState(wounds=10), boxes=3, hr=HR)


def test_advanced_healing_by_area_and_by_default_order():
    """H: 3 boxes; I: without areas they heal the head, the torso, then the limbs in template order."""
    state = WoundState(wounds=6, wound_areas={"head": 1, "torso": 1, "right_leg": 4})
    healed = w.heal(state, boxes=3, hr=ADV, template=template("humans_barbarians"))
    assert healed.wound_areas == {"right_leg": 3}
    assert healed.wounds == 3
    named = w.heal(state, areas={"right_leg": 3}, hr=ADV, template=template("humans_barbarians"))
    assert named.wound_areas == {"head": 1, "torso": 1, "right_leg": 1}
    with pytest.raises(RuleViolation, match="only 1"):
        w.heal(state, areas={"head": 2}, hr=ADV, template=template("humans_barbarians"))
    with pytest.raises(RuleViolation, match="advanced"):
        w.heal(WoundState(wounds=3), areas={"head": 1}, hr=HR)


# --- veterans ----------------------------------------------------------------------------------------------------


def test_elite_qualification_after_five_matches_survived():
    """R: a veteran reaches Elite status; H: after surviving 5 matches (matches_to_qualify)."""
    assert not w.qualifies_for_elite(matches_survived=4, elite=False, hr=HR)
    assert w.qualifies_for_elite(matches_survived=5, elite=False, hr=HR)
    assert not w.qualifies_for_elite(matches_survived=9, elite=True, hr=HR)
    hr = copy.deepcopy(HR)
    hr["elite"]["matches_to_qualify"] = 3
    assert w.qualifies_for_elite(matches_survived=3, elite=False, hr=hr)


class P:
    def __init__(self, *, elite=False, role="", status="active"):
        self.elite, self.role, self.status = elite, role, status


def test_elite_slots_cap_besides_the_captain():
    """R: no more than one Elite besides the Captain on the field; I: the squad's Elite players besides the
    Captain are capped at 1 — an Elite Captain and a dead Elite do not count."""
    assert w.elite_slots([P(), P()], HR) == 1
    assert w.elite_slots([P(elite=True, role="captain"), P()], HR) == 1
    assert w.elite_slots([P(elite=True), P()], HR) == 0
    assert w.elite_slots([P(elite=True, status="dead")], HR) == 1


# --- movement and equipment ----------------------------------------------------------------------------------------


def test_movement_incapacitated_legs_and_polearms():
    """R: an incapacitated leg −2 movement until healed; R Bloody Blades: Halfling and Undead polearm carriers
    move one less."""
    leg = [{"key": "incapacitated_leg", "side": "left"}]
    assert w.movement(base=5, conditions=leg, weapon="none", race="humans_barbarians", hr=HR) == 3
    assert w.movement(base=5, conditions=leg * 2, hr=HR) == 1
    assert w.movement(base=4, conditions=leg * 3, hr=HR) == 0
    assert w.movement(base=4, conditions=[], weapon="polearm", race="halflings", hr=HR) == 3
    assert w.movement(base=4, conditions=[], weapon="polearm", race="undead_zombies", hr=HR) == 3
    assert w.movement(base=5, conditions=[], weapon="polearm", race="humans_barbarians", hr=HR) == 5
    assert w.movement(base=4, conditions=[], weapon="blade", race="halflings", hr=HR) == 4


def test_the_sheet_movement_counts_the_polearm_a_halfling_or_undead_player_carries():
    """R Bloody Blades: "Halfling and Undead Team Players with polearms move at one less allowable maneuver point
    per turn" — the sheet's movement (player_summary) reads the weapon the player carries, and only where the
    league plays Bloody Blades (without the option no one carries a weapon)."""
    blades = dict(HR, bloody_blades=True)

    def shown(race: str, equipment: dict, hr=blades) -> int:
        view = PlayerView(
            id=1,
            name="Pip",
            number=1,
            position="Player",
            status="active",
            spp=0,
            skills=(),
            attributes={},
            value=0,
            race=race,
            equipment=equipment,
        )
        return BC.player_summary(view, hr)["movement"]

    assert shown("halflings", {"weapon": "polearm", "shield": False}) == 3
    assert shown("undead_zombies", {"weapon": "polearm", "shield": False}) == 3
    assert shown("halflings", {"weapon": "blade", "shield": True}) == 4
    assert shown("halflings", {}) == 4
    assert shown("humans_barbarians", {"weapon": "polearm", "shield": False}) == 5
    assert shown("elves", {"weapon": "polearm", "shield": False}) == 6  # a Halfling team's Elite Elf
    assert shown("halflings", {"weapon": "polearm", "shield": False}, hr=HR) == 4
    assert w.carried_weapon({"weapon": "polearm"}, blades) == "polearm"
    assert w.carried_weapon({"weapon": "polearm"}, HR) == "none"
    assert w.carried_weapon(None, blades) == "none"


def test_bloody_blades_equipment():
    """R Bloody Blades: nothing, a Blade or a Polearm; a Shield with a Blade, never with a Polearm."""
    hr = dict(HR, bloody_blades=True)
    w.check_equipment(weapon="blade", shield=True, hr=hr)
    w.check_equipment(weapon="none", shield=True, hr=hr)
    w.check_equipment(weapon="polearm", shield=False, hr=hr)
    with pytest.raises(RuleViolation) as exc:
        w.check_equipment(weapon="polearm", shield=True, hr=hr)
    assert exc.value.field == "shield"
    with pytest.raises(RuleViolation) as exc:
        w.check_equipment(weapon="axe", shield=False, hr=hr)
    assert exc.value.field == "weapon"


def test_no_weapons_without_bloody_blades():
    """R: Bloody Blades is a league option; I: without it a weapon or a shield is refused, naming `weapon`."""
    BC.check_equipment(weapon="none", shield=False, hr=HR)
    for weapon, shield in (("blade", False), ("none", True)):
        with pytest.raises(RuleViolation) as exc:
            BC.check_equipment(weapon=weapon, shield=shield, hr=HR)
        assert exc.value.field == "weapon"


# --- property ----------------------------------------------------------------------------------------------------

_critical = st.one_of(
    st.integers(1, 6),
    st.fixed_dictionaries({"roll": st.integers(1, 6), "side": st.sampled_from([None, "left", "right"])}),
)
_match = st.fixed_dictionaries(
    {
        "wounds": st.integers(0, 12),
        "areas": st.dictionaries(st.sampled_from(w.AREAS), st.integers(0, 8), max_size=6),
        "critical": st.lists(_critical, max_size=4),
        "heal": st.integers(0, 3),
    }
)


@settings(max_examples=200, deadline=None)
@given(
    matches=st.lists(_match, min_size=1, max_size=8),
    advanced=st.booleans(),
    race=st.sampled_from(sorted(ROSTERS)),
    role=st.sampled_from(["", "captain", "goalie"]),
    elite=st.booleans(),
)
def test_property_boxes_never_pass_their_limits_and_death_sticks(matches, advanced, race, role, elite):
    """R: marked boxes never exceed the limit, armour never exceeds its capacity, and once dead, dead."""
    hr = ADV if advanced else HR
    tmpl = template(race)
    limit = w.wound_limit(template=tmpl, hr=hr)
    capacity = w.armour_capacity(role=role, elite=elite, template=tmpl, hr=hr)
    state, dead = WoundState(), False
    for match in matches:
        areas = match["areas"] if advanced else None
        result = w.apply_hits(
            state,
            wounds=match["wounds"],
            areas=areas,
            critical=match["critical"],
            template=tmpl,
            role=role,
            elite=elite,
            hr=hr,
        )
        state = result.state
        assert state.wounds <= limit
        assert state.armour_used <= capacity
        if advanced:
            assert sum(state.wound_areas.values()) == state.wounds
            assert all(state.wound_areas[a] <= tmpl[a] for a in state.wound_areas)
        if dead:
            assert result.dead and not result.died
        dead = dead or result.died
        assert result.dead == dead == w.is_dead(state, template=tmpl, hr=hr)
        if not dead and match["heal"]:
            armour = state.armour_used
            state = w.heal(state, boxes=match["heal"], hr=hr, template=tmpl)
            assert state.armour_used == armour
