"""The ElfBall post-match sequence (api-v1 "Post-match sequence": goal_points, abilities, injuries, team_stats),
run on plain values: the views a step reads, the effects and log lines it returns, the decisions it asks for.

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).
"""

import pytest

from campaigns import house_rules
from campaigns.dice import Dice
from campaigns.engine import (
    MatchRowNote,
    MatchView,
    NeedsDecision,
    PlayerUpdate,
    PlayerView,
    SideView,
    Staff,
    StepContext,
    TeamView,
)
from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset
from campaigns.rulesets.elfball import steps

EB = get_ruleset("elfball")
HR = EB.default_house_rules()
STEPS = {step.key: step for step in EB.postmatch_steps}

MIDFIELDER = {"jog": 5, "might": 3, "tackle": 3, "dodge": 3, "skill": 3, "grit": 3, "base": 25}
HUNTER = {"jog": 5, "might": 3, "tackle": 5, "dodge": 3, "skill": 2, "grit": 3, "base": 25}  # jog and tackle tie


def override(**changes) -> dict:
    return house_rules.merge(HR, house_rules.validate_overrides(HR, changes))


def player(pid, name, *, gp=0, abilities=(), attributes=MIDFIELDER, status="active") -> PlayerView:
    return PlayerView(
        id=pid,
        name=name,
        number=pid,
        position="midfielder",
        status=status,
        spp=0,
        skills=(),
        attributes=dict(attributes),
        value=15 + 5 * len(abilities),
        abilities=tuple(abilities),
        goal_points=gp,
    )


def squad(*extra, size=6, potions=2, **staff) -> TeamView:
    """Six rookies (#1–#6, 90 points) unless told otherwise, plus `extra` players and the support given."""
    taken = {p.id for p in extra}
    rookies = [player(i, f"Rookie {i}") for i in range(1, size + 1) if i not in taken]
    return TeamView(
        id=1,
        name="Black Widows",
        roster_key="black_widows",
        fan_factor=0,
        treasury=0,
        stadium_fund=0,
        rerolls=0,
        staff={"magic_potion": potions, **staff},
        players=tuple(sorted([*rookies, *extra], key=lambda p: p.id)),
        ongoing_sponsorships=(),
        home_stadium=None,
        journeyman_position=None,
        journeyman_cost=0,
    )


def match_row(gp=0, injury="", attribute="", *, goals=None, concession_gp=0, potion=None, ability=None, seizure=None):
    """A player's match row as the engine hands it to the steps (ElfBall.player_match_row of a result row)."""
    drinks = [{"roll": potion, "ability": ability, "attribute": seizure}] if potion else []
    return EB.player_match_row(
        {
            "goal_points": gp,
            "goals": goals if goals is not None else gp - concession_gp,
            "concession_gp": concession_gp,
            "injury": injury or None,
            "attribute": attribute or None,
            "potion": potion,
            "potion_ability": ability,
            "potion_attribute": seizure,
            "potions": drinks,
            "infirmary": False,
        },
        mvp=False,
        hr=HR,
    )


def match(rows=None, *, outcome="win", us=2, them=1, conceded=False, them_conceded=False, kind="league", result=None):
    return MatchView(
        id=7,
        kind=kind,
        outcome=outcome,
        us=SideView(team_id=1, score=us, casualties_inflicted=0, conceded=conceded),
        them=(SideView(team_id=2, score=them, casualties_inflicted=0, conceded=them_conceded),),
        stadium=None,
        player_rows=rows or {},
        tests_to_win=2,
        result=result or {},
    )


def run(key, team, m, choices=None, hr=HR) -> StepContext:
    ctx = StepContext(
        team=team,
        match=m,
        hr=hr,
        dice=Dice(catalogue=EB.roll_catalogue(hr), entered={}),
        choices=choices or {},
        carry={},
    )
    STEPS[key].run(ctx)
    return ctx


def pending(key, team, m, choices=None, hr=HR) -> NeedsDecision:
    with pytest.raises(NeedsDecision) as exc:
        run(key, team, m, choices, hr)
    return exc.value


def test_steps_in_the_api_order():
    """api-v1: ElfBall steps goal_points, abilities, injuries, team_stats (in this order)."""
    assert [s.key for s in EB.postmatch_steps] == ["goal_points", "abilities", "injuries", "team_stats"]
    assert all(not s.rolls for s in EB.postmatch_steps)


# --- goal_points --------------------------------------------------------------------------------------------------


def test_goal_points_are_told_with_their_new_totals():
    """R: one Goal Point per goal on the field (already added to the totals when the result became final)."""
    ann = player(7, "Ann", gp=8)
    ctx = run("goal_points", squad(ann), match({7: match_row(2)}))
    assert ctx.effects == []
    assert ctx.log == ["Ann: 2 Goal Points this match (2 goals on the field): 6 → 8."]


def test_reaching_ten_goal_points_entitles_an_ability():
    """R: every full 10 Goal Points entitle one ability (at 10, 20, 30 …)."""
    ann, bob = player(7, "Ann", gp=10), player(8, "Bob", gp=21)
    ctx = run("goal_points", squad(ann, bob), match({7: match_row(2), 8: match_row(2)}))
    assert "Ann reaches 10 Goal Points: one ability to learn." in ctx.log
    assert "Bob reaches 20 Goal Points: one ability to learn." in ctx.log
    assert not any("Bob reaches 10" in line for line in ctx.log)


def test_concession_goal_point_is_told():
    """R (Conceding): each opposing player not in the Infirmary receives one Goal Point."""
    ann = player(7, "Ann", gp=3)
    ctx = run("goal_points", squad(ann), match({7: match_row(2, concession_gp=1)}, them_conceded=True))
    assert ctx.log == ["Ann: 2 Goal Points this match (1 goal on the field, 1 for the opponent's concession): 1 → 3."]


def test_no_goal_points():
    assert run("goal_points", squad(), match({3: match_row(0, "unconscious")})).log == ["No Goal Points this match."]


# --- abilities ----------------------------------------------------------------------------------------------------


def test_no_entitlement_no_decision():
    ctx = run("abilities", squad(player(7, "Ann", gp=19, abilities=("push",))), match())
    assert ctx.log == ["No player has an unused ability entitlement."]


def test_entitled_players_are_asked_which_abilities_to_learn():
    """R: every full 10 Goal Points entitle one ability; the learnable ones are Basic or Advanced-after-Basic."""
    ann = player(7, "Ann", gp=20, abilities=("push",))
    need = pending("abilities", squad(ann), match())
    assert need.decision == "abilities"
    assert need.options["7"]["name"] == "Ann"
    assert need.options["7"]["entitlements"] == 1
    assert "sprinter" in need.options["7"]["learnable"] and "push" not in need.options["7"]["learnable"]
    assert "room for" in need.message


def test_learning_a_basic_then_its_advanced_in_one_answer():
    """R: Basic before Advanced; picks apply in order; each adds 5 points."""
    ann = player(7, "Ann", gp=20)
    ctx = run("abilities", squad(ann), match(), {"abilities": {"7": ["push", "sprinter"]}})
    assert ctx.effects == [
        PlayerUpdate(7, "learned push, sprinter", abilities_add=("push", "sprinter"), value_delta=10)
    ]
    assert "Ann learns Push, Sprinter (+10 points)." in ctx.log
    assert ctx.log[-1] == "Team value 115 → 125 of 150 points."  # 7 players, 2 potions


def test_advanced_before_basic_is_refused():
    with pytest.raises(RuleViolation, match="needs Push first") as exc:
        run("abilities", squad(player(7, "Ann", gp=20)), match(), {"abilities": {7: ["sprinter", "push"]}})
    assert exc.value.field == "choices.abilities.7"


def test_no_more_picks_than_entitlements():
    with pytest.raises(RuleViolation, match="entitled to 1 ability"):
        run("abilities", squad(player(7, "Ann", gp=10)), match(), {"abilities": {"7": ["push", "buff"]}})


def test_only_offered_players_may_learn():
    with pytest.raises(RuleViolation, match="not a player") as exc:
        run("abilities", squad(player(7, "Ann", gp=10)), match(), {"abilities": {"3": ["push"]}})
    assert exc.value.field == "choices.abilities.3"


def test_learning_is_optional_and_may_wait():
    """R: players do not have to learn an ability on reaching it; they may at any later time."""
    ctx = run("abilities", squad(player(7, "Ann", gp=10)), match(), {"abilities": {}})
    assert ctx.effects == []
    assert "any later time" in ctx.log[0]


def test_learning_over_150_points_says_cut_first():
    """R: if gaining abilities would take the team over 150 points, cut something or someone first."""
    team = squad(player(7, "Ann", gp=20), size=9, potions=3)  # 9 × 15 + 15 = 150
    with pytest.raises(RuleViolation, match="Cut something or someone first") as exc:
        run("abilities", team, match(), {"abilities": {"7": ["push"]}})
    assert exc.value.field == "choices.abilities"
    team = squad(player(7, "Ann", gp=20), size=9, potions=2)  # 145: room for one
    assert len(run("abilities", team, match(), {"abilities": {"7": ["push"]}}).effects) == 1
    with pytest.raises(RuleViolation, match="cut something or someone first".capitalize()):
        run("abilities", team, match(), {"abilities": {"7": ["push", "buff"]}})


def test_abilities_in_basic_mode():
    """H: a league in basic mode tracks no abilities."""
    ctx = run("abilities", squad(player(7, "Ann", gp=30)), match(), hr=override(basic_mode=True))
    assert ctx.log == ["Basic rules: no abilities are learned (H basic_mode)."]


# --- injuries -----------------------------------------------------------------------------------------------------


def test_nothing_to_apply():
    assert run("injuries", squad(), match({1: match_row(1)})).log == ["No injuries and no potions this match."]


def test_out_for_game_unconscious_and_none_leave_no_lasting_effect():
    """R: 1 success out for the game, 2 unconscious, 3+ none: no lasting effect."""
    rows = {1: match_row(0, "out_for_game"), 2: match_row(0, "unconscious"), 3: match_row(0, "none")}
    ctx = run("injuries", squad(), match(rows))
    assert ctx.effects == []
    assert ctx.log.count("Rookie 1: no lasting effect.") == 1
    assert "Rookie 1: Grit Challenge: out for the rest of the game." in ctx.log
    assert "Rookie 2: Grit Challenge: knocked unconscious." in ctx.log


def test_career_ending_injury_removes_the_player():
    """R: a flop in an Advanced game: career-ending injury, permanently removed from the team."""
    ctx = run("injuries", squad(), match({2: match_row(0, "career_ending")}))
    assert ctx.effects == [PlayerUpdate(2, "career-ending injury", status="retired", leaves=True)]


def test_lasting_injury_lowers_the_only_highest_attribute():
    """R: 0 successes: the attribute with the most points is reduced permanently by one (Jog 5 → 4)."""
    ctx = run("injuries", squad(), match({2: match_row(0, "lasting_injury")}))
    assert ctx.effects == [
        PlayerUpdate(2, "lasting injury: jog -1", attribute_deltas={"jog": -1}),
        MatchRowNote(2, {"lasting": [{"attribute": "jog", "cause": "grit"}]}),
    ]
    assert "Rookie 2: lasting injury: Jog 5 → 4." in ctx.log


def test_lasting_injury_tie_asks_the_coach_then_applies_the_choice():
    """R: the Team Manager of the player chooses among tied attributes."""
    cid = player(8, "Cid", attributes=HUNTER)
    m = match({8: match_row(0, "lasting_injury")})
    need = pending("injuries", squad(cid), m)
    assert (need.decision, need.options) == ("lasting_injury", {"8": ["jog", "tackle"]})
    ctx = run("injuries", squad(cid), m, {"lasting_injury": {"8": "tackle"}})
    assert ctx.effects == [
        PlayerUpdate(8, "lasting injury: tackle -1", attribute_deltas={"tackle": -1}),
        MatchRowNote(8, {"lasting": [{"attribute": "tackle", "cause": "grit"}]}),
    ]
    with pytest.raises(RuleViolation, match="highest attributes are jog, tackle") as exc:
        run("injuries", squad(cid), m, {"lasting_injury": {"8": "might"}})
    assert exc.value.field == "choices.lasting_injury.8"


def test_lasting_injury_uses_the_results_attribute():
    cid = player(8, "Cid", attributes=HUNTER)
    ctx = run("injuries", squad(cid), match({8: match_row(0, "lasting_injury", "jog")}))
    assert ctx.effects == [
        PlayerUpdate(8, "lasting injury: jog -1", attribute_deltas={"jog": -1}),
        MatchRowNote(8, {"lasting": [{"attribute": "jog", "cause": "grit"}]}),
    ]


def test_results_attribute_no_longer_highest_falls_back_to_the_rule():
    """I: an attribute recorded on the result that is no longer a highest one (the player changed since) is not
    used: the highest one is, or the coach is asked."""
    ctx = run("injuries", squad(), match({2: match_row(0, "lasting_injury", "might")}))
    assert ctx.effects == [
        PlayerUpdate(2, "lasting injury: jog -1", attribute_deltas={"jog": -1}),
        MatchRowNote(2, {"lasting": [{"attribute": "jog", "cause": "grit"}]}),
    ]
    assert "no longer a highest attribute" in ctx.log[-1]


def test_lasting_injury_never_below_one():
    """I: an attribute never falls below 1."""
    weak = player(8, "Wisp", attributes=dict.fromkeys(("jog", "might", "tackle", "dodge", "skill", "grit"), 1))
    ctx = run("injuries", squad(weak), match({8: match_row(0, "lasting_injury", "grit")}))
    assert ctx.effects == []
    assert "never falls below 1" in ctx.log[-1]


def test_a_potion_is_consumed():
    """R: the potion is consumed when used (one Staff effect for all drunk)."""
    rows = {1: match_row(0, potion=4), 2: match_row(0, potion=9)}
    ctx = run("injuries", squad(potions=3), match(rows))
    assert ctx.effects == [Staff("magic_potion", -2, "2 Magic Potions drunk, match #7")]
    assert ctx.log[0] == "Magic Potions drunk: 2 (3 → 1 left)."
    assert "Rookie 2: Magic Potion 9: no effect (9: 8–12 are not in the rulebook; house default)." in ctx.log


def test_potions_struck_off_no_further_than_the_stock():
    ctx = run("injuries", squad(potions=0), match({1: match_row(0, potion=4)}))
    assert not any(isinstance(e, Staff) for e in ctx.effects)


def test_potion_one_kills_and_no_lasting_injury_follows():
    """R (1): the player dies immediately (removed, memorial); a dead player suffers no lasting injury."""
    ctx = run("injuries", squad(), match({2: match_row(0, "lasting_injury", potion=1)}))
    assert ctx.effects == [
        Staff("magic_potion", -1, "1 Magic Potion drunk, match #7"),
        PlayerUpdate(2, "died of the potion", status="dead", leaves=True),
    ]
    assert "memorial" in ctx.log[-1]


@pytest.mark.parametrize("roll", [5, 6, 7])
def test_potions_five_to_seven_cure_any_injury(roll):
    """R (5, 6, 7): fully cured of ANY injury suffered previously this game: no lasting effect."""
    for injury in ("career_ending", "lasting_injury"):
        ctx = run(
            "injuries", squad(), match({2: match_row(0, injury, potion=roll, ability="push" if roll == 7 else None)})
        )
        assert [e for e in ctx.effects if isinstance(e, PlayerUpdate)] == []
        assert any("cured by the potion: no lasting effect" in line for line in ctx.log)


def test_potion_seven_gives_a_basic_ability_for_this_game_only():
    ctx = run("injuries", squad(), match({2: match_row(0, potion=7, ability="agile")}))
    assert "Rookie 2: Magic Potion 7: cured of any injury, and Agile for this game only." in ctx.log
    assert [e for e in ctx.effects if isinstance(e, PlayerUpdate)] == []


def test_light_coma_cures_nothing():
    """R (3): the potion fails to cure any injury: the lasting injury stands."""
    ctx = run("injuries", squad(), match({2: match_row(0, "lasting_injury", potion=3)}))
    assert PlayerUpdate(2, "lasting injury: jog -1", attribute_deltas={"jog": -1}) in ctx.effects


def test_seizure_adds_a_lasting_injury_to_an_uncured_one():
    """R (2): a seizure: the player suffers an additional lasting injury. Midfielder jog 5: the injury lowers jog
    to 4, then every attribute but Base ties at 3–4 … jog 4 is alone at the top: the seizure takes jog again."""
    ctx = run("injuries", squad(), match({2: match_row(0, "lasting_injury", potion=2)}))
    updates = [e for e in ctx.effects if isinstance(e, PlayerUpdate)]
    assert updates == [
        PlayerUpdate(2, "lasting injury: jog -1", attribute_deltas={"jog": -1}),
        PlayerUpdate(2, "seizure's lasting injury: jog -1", attribute_deltas={"jog": -1}),
    ]
    assert "Rookie 2: seizure's lasting injury: Jog 4 → 3." in ctx.log


def test_two_lasting_injuries_on_a_tie_take_a_list_of_choices():
    """R: the coach chooses among ties for each lasting injury; Hunter jog 5 tackle 5: the first takes one, the
    second the other (then the only highest)."""
    cid = player(8, "Cid", attributes=HUNTER)
    m = match({8: match_row(0, "lasting_injury", potion=2)})
    assert pending("injuries", squad(cid), m).options == {"8": ["jog", "tackle"]}
    ctx = run("injuries", squad(cid), m, {"lasting_injury": {"8": ["tackle"]}})
    updates = [e.attribute_deltas for e in ctx.effects if isinstance(e, PlayerUpdate)]
    assert updates == [{"tackle": -1}, {"jog": -1}]


def test_seizure_after_a_tie_broken_to_a_new_tie_asks_again():
    """R: jog 5 alone at the top takes the lasting injury (5 → 4); then jog, tackle and dodge tie at 4 and the
    coach chooses for the seizure."""
    tied = player(8, "Dot", attributes={**MIDFIELDER, "jog": 5, "tackle": 4, "dodge": 4})
    m = match({8: match_row(0, "lasting_injury", potion=2)})
    need = pending("injuries", squad(tied), m)
    assert need.options == {"8": ["jog", "tackle", "dodge"]}
    ctx = run("injuries", squad(tied), m, {"lasting_injury": {"8": "dodge"}})
    assert [e.attribute_deltas for e in ctx.effects if isinstance(e, PlayerUpdate)] == [{"jog": -1}, {"dodge": -1}]


def test_extra_lasting_injury_answers_are_refused():
    with pytest.raises(RuleViolation) as exc:
        run("injuries", squad(), match({2: match_row(0, "lasting_injury")}), {"lasting_injury": {"3": "jog"}})
    assert exc.value.field == "choices.lasting_injury.3"


# --- team_stats ---------------------------------------------------------------------------------------------------


def test_team_stats_tells_points_potions_and_roster():
    """H: win 3 league points; R: team value vs the 150-point budget; support and roster shown."""
    ctx = run("team_stats", squad(player(7, "Ann", abilities=("push",)), potions=2), match())
    assert ctx.log == [
        "Won 2–1 (league): 3 league points.",
        "Team value: 120 of 150 points (30 to spare).",  # 6 rookies 90 + Ann 20 + 2 potions 10
        "Magic Potions left: 2 of 3.",
        "Players on the roster: 7.",
    ]
    assert ctx.effects == []


def test_team_stats_warns_below_six_players():
    """R: a team may never be cut below 6 players: hire before the next match."""
    ctx = run("team_stats", squad(size=5, potions=0), match(outcome="loss", us=0, them=2))
    assert ctx.log[0] == "Lost 0–2 (league): 0 league points."
    assert ctx.log[-1] == "Warning: only 5 players, fewer than 6: hire before the next match."


def test_team_stats_of_a_tie_and_a_concession():
    """I: a tie only when neither team can face off (1 league point); R: a concession makes the score 3."""
    tie = match(outcome="draw", us=1, them=1, result={"teams": [{"no_face_off": True}, {"no_face_off": True}]})
    assert run("team_stats", squad(), tie).log[0] == "Tied 1–1 (league, no face-off player): 1 league point."
    conceded = match(us=3, them=1, them_conceded=True)
    assert run("team_stats", squad(), conceded).log[0] == "Won 3–1 (league, the opponent conceded): 3 league points."


def test_team_value_counts_roster_players_and_support():
    """R: team value = 15 per player + 5 per ability + support (dead or retired players are not counted)."""
    team = squad(player(7, "Ann", abilities=("push", "sprinter")), player(9, "Gone", status="dead"), potions=1)
    assert steps.team_points(team, HR) == 6 * 15 + (15 + 10) + 5
