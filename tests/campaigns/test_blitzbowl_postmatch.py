"""Blitz Bowl post-match rules (../shared/rules/blitzbowl.md, "Post-match sequence" and "Conceding").

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).
"""

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaigns import house_rules
from campaigns.rulesets import get_ruleset
from campaigns.rulesets.blitzbowl import postmatch as pm

HR = get_ruleset("blitzbowl").default_house_rules()


def override(**changes) -> dict:
    """The effective house rules after a commissioner's (validated) overrides."""
    return house_rules.merge(HR, house_rules.validate_overrides(HR, changes))


# --- 1. Improvements -------------------------------------------------------------------------------------


def test_spp_counts_completions_touchdowns_casualties_interceptions_and_mvp():
    """H: completion 1, touchdown 3, casualty 2, interception 2, MVP 5."""
    assert (
        pm.spp_earned(completions=2, touchdowns=1, casualties=1, interceptions=1, mvp=True, hr=HR) == 2 + 3 + 2 + 2 + 5
    )
    assert pm.spp_earned(completions=0, touchdowns=0, casualties=0, interceptions=0, mvp=False, hr=HR) == 0


def test_spp_table_follows_the_commissioners_override():
    """H: the SPP table is a house rule."""
    hr = override(spp={"touchdown": 4})
    assert pm.spp_earned(completions=0, touchdowns=2, casualties=0, interceptions=0, mvp=False, hr=hr) == 8


def test_spp_refuses_negative_counts():
    """H (SPP table): counts are never negative; a negative one is a programming error (ValueError)."""
    with pytest.raises(ValueError):
        pm.spp_earned(completions=-1, touchdowns=0, casualties=0, interceptions=0, mvp=False, hr=HR)


@pytest.mark.parametrize(
    ("before", "after", "levels"),
    [(0, 5, 0), (0, 6, 1), (5, 6, 1), (6, 15, 0), (6, 16, 1), (0, 31, 3), (50, 51, 1), (51, 200, 2), (176, 300, 0)],
)
def test_levels_gained_counts_thresholds_crossed(before, after, levels):
    """H: levels at 6, 16, 31, 51, 76, 176 SPP; each one reached gives one improvement roll."""
    assert pm.levels_gained(spp_before=before, spp_after=after, hr=HR) == levels


def test_levels_gained_refuses_spp_going_down():
    """H (levels): SPP only grow after a match; a fall is a programming error (ValueError)."""
    with pytest.raises(ValueError):
        pm.levels_gained(spp_before=10, spp_after=5, hr=HR)


@pytest.mark.parametrize(
    ("dice", "options"),
    [
        ((3, 4), ("normal_skill",)),
        ((1, 1), ("normal_skill", "double_skill")),
        ((4, 4), ("normal_skill", "double_skill")),
        ((4, 6), ("normal_skill", "ma", "av")),
        ((5, 5), ("normal_skill", "double_skill", "ma", "av")),
        ((5, 6), ("normal_skill", "ag")),
        ((6, 6), ("normal_skill", "double_skill", "st")),
    ],
)
def test_improvement_roll_options(dice, options):
    """H: a double allows a double-access skill; 10 → +MA or +AV; 11 → +AG; 12 → +ST; normal skill always."""
    roll = pm.improvement_options(dice=dice, hr=HR)
    assert roll.options == options
    assert roll.total == sum(dice)
    assert roll.is_double == (dice[0] == dice[1])
    assert str(roll.total) in roll.explanation


def test_improvement_roll_refuses_a_die_outside_its_faces():
    """H (improvement roll, 2d6): two dice of 1–6, else ValueError."""
    with pytest.raises(ValueError):
        pm.improvement_options(dice=(0, 6), hr=HR)
    with pytest.raises(ValueError):
        pm.improvement_options(dice=(7, 1), hr=HR)
    with pytest.raises(ValueError):
        pm.improvement_options(dice=(3,), hr=HR)


def test_improvement_values():
    """H: normal +2,000; double +3,000; +MA/+AV +3,000; +AG +4,000; +ST +5,000."""
    expected = {"normal_skill": 2000, "double_skill": 3000, "ma": 3000, "av": 3000, "ag": 4000, "st": 5000}
    assert {choice: pm.improvement_value(choice=choice, hr=HR) for choice in expected} == expected
    with pytest.raises(ValueError):
        pm.improvement_value(choice="wings", hr=HR)


def test_skill_choices_leave_out_skills_the_player_has():
    """H: the classic skill lists by category; a player never takes a skill twice."""
    general = pm.skill_choices(categories=["general"], known=["Block", "Loner"], hr=HR)
    assert "Block" not in general
    assert {"Tackle", "Sure Hands", "Dirty Player"} <= set(general)
    assert general == sorted(general)
    both = pm.skill_choices(categories=["general", "strength"], known=[], hr=HR)
    assert {"Block", "Mighty Blow", "Guard"} <= set(both)
    assert "Dodge" not in both


def test_skill_choices_refuse_an_unknown_category():
    """H (skill lists): only general, agility, strength, passing and mutation exist."""
    with pytest.raises(ValueError):
        pm.skill_choices(categories=["extraordinary"], known=[], hr=HR)


def test_skill_lists_use_the_rosters_title_case_names():
    """H: roster skills that belong to a category use the same Title Case names as the skill lists."""
    listed = {name for names in HR["skills"].values() for name in names}
    for expected in ("Block", "Dodge", "Sure Hands", "Mighty Blow", "Pass", "Claw", "Prehensile Tail", "Leap"):
        assert expected in listed
    assert set(HR["skills"]) == {"general", "agility", "strength", "passing", "mutation"}


# --- 2. Update team stats --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "kind", "points"),
    [("win", "league", 3), ("draw", "league", 1), ("loss", "league", 0), ("win", "final", 3), ("win", "friendly", 0)],
)
def test_league_points(outcome, kind, points):
    """R: win 3, draw 1, loss 0; H: friendlies give no league points."""
    assert pm.league_points(outcome=outcome, kind=kind, hr=HR) == points


def test_friendlies_give_points_when_the_commissioner_says_so():
    """H: `friendlies_give_points` is a house rule."""
    assert pm.league_points(outcome="win", kind="friendly", hr=override(friendlies_give_points=True)) == 3


def test_league_points_refuse_unknown_outcome_or_kind():
    """R (League): outcomes win/draw/loss; kinds league/playoff/final/friendly."""
    with pytest.raises(ValueError):
        pm.league_points(outcome="won", kind="league", hr=HR)
    with pytest.raises(ValueError):
        pm.league_points(outcome="win", kind="exhibition", hr=HR)


# --- 3. Fortune and FAME: winnings -----------------------------------------------------------------------


def winnings(d6=4, fame=1, outcome="win", at_owned_stadium=False, d3=None, hr=HR):
    return pm.winnings(d6=d6, fame=fame, outcome=outcome, at_owned_stadium=at_owned_stadium, d3=d3, hr=hr)


def test_winnings_d6_plus_fame_plus_win_bonus():
    """R: d6 × 1,000 + FAME × 1,000 + 1,000 for winning."""
    result = winnings(d6=4, fame=1, outcome="win")
    assert result.amount == 6000
    assert result.explanation == "Winnings: 4 × 1,000 + FAME 1 × 1,000 + win 1,000 = 6,000 gil."


def test_winnings_draw_gets_the_tie_bonus_and_loss_gets_none():
    """R: + 1,000 for a tie; nothing extra for a loss."""
    assert winnings(d6=3, fame=0, outcome="draw").amount == 4000
    assert winnings(d6=3, fame=2, outcome="loss").amount == 5000


def test_winnings_at_owned_stadium_on_a_win_add_d3_plus_fame():
    """R: winning at a stadium they own: + (d3 + FAME) × 1,000."""
    result = winnings(d6=4, fame=1, outcome="win", at_owned_stadium=True, d3=2)
    assert result.amount == 6000 + 3000
    assert "Won at owned stadium: +(2 + 1) × 1,000".lower() in result.explanation.lower()


def test_winnings_at_owned_stadium_on_a_loss_subtract_d3_minus_fame():
    """R: losing at a stadium they own: − (d3 − FAME) × 1,000."""
    assert winnings(d6=5, fame=1, outcome="loss", at_owned_stadium=True, d3=3).amount == 6000 - 2000


def test_winnings_at_owned_stadium_on_a_loss_deduct_only_when_positive():
    """I: the deduction (d3 − FAME) × 1,000 is applied only when positive (it never adds)."""
    result = winnings(d6=2, fame=2, outcome="loss", at_owned_stadium=True, d3=1)
    assert result.amount == 4000
    assert "not positive" in result.explanation


def test_winnings_at_owned_stadium_on_a_loss_never_below_zero():
    """R/I: the deduction cannot take winnings below 0."""
    result = winnings(d6=1, fame=0, outcome="loss", at_owned_stadium=True, d3=3)
    assert result.amount == 0
    assert "0 gil" in result.explanation


def test_winnings_at_owned_stadium_on_a_draw_need_no_d3():
    """R: the owned-stadium modifiers apply to a win or a loss only."""
    assert winnings(d6=2, fame=1, outcome="draw", at_owned_stadium=True, d3=None).amount == 4000


def test_winnings_at_owned_stadium_need_the_d3():
    """R (Winnings): a win or loss at an owned stadium rolls the 1d3 `stadium_bonus`."""
    with pytest.raises(ValueError):
        winnings(outcome="win", at_owned_stadium=True, d3=None)


@pytest.mark.parametrize(("d6", "d3", "outcome"), [(0, None, "win"), (7, None, "win"), (3, 4, "win"), (3, None, "tie")])
def test_winnings_refuse_invalid_dice_and_outcomes(d6, d3, outcome):
    """R (Winnings): the d6 is 1–6, the d3 1–3, the outcome win/draw/loss; else ValueError."""
    with pytest.raises(ValueError):
        winnings(d6=d6, d3=d3, outcome=outcome, at_owned_stadium=d3 is not None)


def test_winnings_multiplier_override_changes_the_amount():
    """H: the commissioner's word is LAW — a league paying 2,000 per pip."""
    hr = override(winnings={"multiplier": 2000})
    result = winnings(d6=4, fame=1, outcome="win", hr=hr)
    assert result.amount == 10_000
    assert "4 × 2,000" in result.explanation


@given(
    d6=st.integers(1, 6),
    fame=st.integers(0, 2),
    outcome=st.sampled_from(["win", "draw", "loss"]),
    at_owned_stadium=st.booleans(),
    d3=st.integers(1, 3),
)
def test_winnings_never_negative(d6, fame, outcome, at_owned_stadium, d3):
    """R/I: winnings never below 0, whatever the dice, FAME and outcome."""
    assert winnings(d6=d6, fame=fame, outcome=outcome, at_owned_stadium=at_owned_stadium, d3=d3).amount >= 0


# --- 3. Fortune and FAME: residency ----------------------------------------------------------------------


def residency(d6=3, outcome="draw", has_ongoing_sponsorship=False, fan_factor=0, hr=HR):
    return pm.residency(
        d6=d6, outcome=outcome, has_ongoing_sponsorship=has_ongoing_sponsorship, fan_factor=fan_factor, hr=hr
    )


@pytest.mark.parametrize(
    ("d6", "outcome", "total", "result"),
    [
        (6, "loss", 5, "rejected"),
        (5, "draw", 5, "rejected"),
        (5, "win", 6, "costly"),
        (6, "draw", 6, "costly"),
    ],
)
def test_residency_boundaries_five_and_six(d6, outcome, total, result):
    """R: 5 or less rejected; 6–8 "It'll cost you"."""
    outcome_ = residency(d6=d6, outcome=outcome)
    assert (outcome_.total, outcome_.result) == (total, result)


@pytest.mark.parametrize(("d6", "total", "result"), [(4, 8, "costly"), (5, 9, "unconditional")])
def test_residency_boundaries_eight_and_nine(d6, total, result):
    """R: 6–8 "It'll cost you"; 9 or more unconditional (here d6 + 2 FF ≥ 8 + 2 ongoing sponsorship)."""
    outcome = residency(d6=d6, outcome="draw", has_ongoing_sponsorship=True, fan_factor=8)
    assert (outcome.total, outcome.result) == (total, result)


def test_residency_ff_8_gives_plus_2():
    """R: +2 if the team's Fan Factor is 8 or more; nothing at 7."""
    assert residency(d6=3, fan_factor=7).total == 3
    assert residency(d6=3, fan_factor=8).total == 5


def test_residency_ff_13_gives_plus_4_not_plus_6():
    """I: at Fan Factor 13 or more the +4 replaces the +2 (not +6)."""
    result = residency(d6=3, fan_factor=13)
    assert result.total == 7
    assert "+4" in result.explanation and "+2" not in result.explanation


def test_residency_modifiers_for_won_lost_and_ongoing_sponsorship():
    """R: +1 if won, −1 if lost, +2 with an Ongoing Sponsorship."""
    assert residency(d6=4, outcome="win").total == 5
    assert residency(d6=4, outcome="loss").total == 3
    assert residency(d6=4, outcome="loss", has_ongoing_sponsorship=True).total == 5


def test_residency_cumulative_fan_factor_bonuses_when_the_commissioner_says_so():
    """H: a league that adds both Fan Factor bonuses (+2 and +4) at FF 13."""
    assert residency(d6=3, fan_factor=13, hr=override(residency={"fan_factor_bonuses_cumulative": True})).total == 9


# --- 3. Fortune and FAME: Fan Factor ---------------------------------------------------------------------


def ff(dice, outcome, fan_factor, conceded=False, hr=HR):
    return pm.fan_factor_change(dice=dice, outcome=outcome, fan_factor=fan_factor, conceded=conceded, hr=hr)


def test_fan_factor_dice_are_3d6_after_a_win_and_2d6_otherwise():
    """R: won: 3d6; drawn or lost: 2d6."""
    assert pm.fan_factor_dice(outcome="win", hr=HR) == "3d6"
    assert pm.fan_factor_dice(outcome="draw", hr=HR) == "2d6"
    assert pm.fan_factor_dice(outcome="loss", hr=HR) == "2d6"


def test_win_raises_fan_factor_when_3d6_beats_it():
    """R: won — 3d6 higher than FF: +1; equal or lower: no change (a win never lowers it)."""
    assert ff((3, 3, 3), "win", 8).delta == 1
    assert ff((3, 3, 2), "win", 8).delta == 0
    assert ff((1, 1, 1), "win", 8).delta == 0


def test_draw_moves_fan_factor_either_way():
    """R: drawn — 2d6 higher than FF: +1; lower: −1; equal: no change."""
    assert ff((4, 3), "draw", 6).delta == 1
    assert ff((3, 3), "draw", 6).delta == 0
    assert ff((3, 2), "draw", 6).delta == -1


def test_loss_only_lowers_fan_factor():
    """R: lost — 2d6 lower than FF: −1; never +1."""
    assert ff((2, 2), "loss", 5).delta == -1
    assert ff((6, 6), "loss", 5).delta == 0


def test_conceding_team_loses_one_ff_without_rolling():
    """R: a conceding team loses 1 Fan Factor automatically and may not roll."""
    result = ff((), "loss", 5, conceded=True)
    assert result.delta == -1
    assert "without rolling" in result.explanation


def test_conceding_at_ff_0_never_goes_negative():
    """H: Fan Factor never below 0."""
    assert ff((), "loss", 0, conceded=True).delta == 0


def test_fan_factor_0_is_never_lowered():
    """H: Fan Factor never below 0 — a loss or draw at FF 0 cannot lower it."""
    assert ff((1, 1), "loss", 0).delta == 0
    assert ff((1, 1), "draw", 0).delta == 1


def test_fan_factor_minimum_override_stops_the_fall():
    """H: a league whose Fan Factor never falls below 3."""
    hr = override(fan_factor_change={"minimum": 3})
    assert ff((1, 1), "loss", 3, hr=hr).delta == 0
    assert ff((1, 1), "loss", 4, hr=hr).delta == -1


def test_fan_factor_refuses_the_wrong_number_of_dice():
    """R (Fan Factor): 3d6 after a win, 2d6 after a draw or loss, each die 1–6."""
    with pytest.raises(ValueError):
        ff((3, 3), "win", 5)
    with pytest.raises(ValueError):
        ff((3, 3, 3), "loss", 5)
    with pytest.raises(ValueError):
        ff((7, 1), "draw", 5)


@given(
    outcome=st.sampled_from(["win", "draw", "loss"]),
    fan_factor=st.integers(0, 30),
    conceded=st.booleans(),
    dice=st.lists(st.integers(1, 6), min_size=3, max_size=3),
)
def test_fan_factor_never_below_zero(outcome, fan_factor, conceded, dice):
    """H: Fan Factor never below 0; a change is at most one step."""
    rolled = tuple(dice[:3] if outcome == "win" else dice[:2])
    delta = ff(() if conceded else rolled, outcome, fan_factor, conceded=conceded).delta
    assert fan_factor + delta >= 0
    assert delta in (-1, 0, 1)


# --- 3. Fortune and FAME: sponsorship --------------------------------------------------------------------


def sponsor(d20=10, fan_factor=0, owns_stadium=False, outcome="loss", margin=0, casualties=0, kind="league", hr=HR):
    return pm.sponsorship(
        d20=d20,
        fan_factor=fan_factor,
        owns_stadium=owns_stadium,
        outcome=outcome,
        touchdown_margin=margin,
        opponent_casualties=casualties,
        kind=kind,
        hr=hr,
    )


@pytest.mark.parametrize(
    ("d20", "fan_factor", "result"), [(15, 4, "none"), (15, 5, "one_time"), (20, 4, "one_time"), (20, 5, "ongoing")]
)
def test_sponsorship_boundaries_19_20_24_25(d20, fan_factor, result):
    """R: 20 or more One-time Sponsorship; 25 or more Ongoing."""
    roll = sponsor(d20=d20, fan_factor=fan_factor)
    assert roll.total == d20 + fan_factor
    assert roll.result == result


def test_sponsorship_adds_each_modifier():
    """R: +2 owns a stadium, +2 won, +1 two more touchdowns, +2 at 3+ casualties, +1 more at 5+."""
    assert sponsor(d20=5, fan_factor=3).total == 8
    assert sponsor(d20=5, owns_stadium=True).total == 7
    assert sponsor(d20=5, outcome="win").total == 7
    assert sponsor(d20=5, margin=1).total == 5
    assert sponsor(d20=5, margin=2).total == 6
    assert sponsor(d20=5, casualties=2).total == 5
    assert sponsor(d20=5, casualties=3).total == 7
    assert sponsor(d20=5, casualties=4).total == 7
    assert sponsor(d20=5, casualties=5).total == 8


def test_playoff_adds_3_to_sponsorship():
    """R: +3 if the game was part of the play-offs."""
    assert sponsor(d20=5, kind="playoff").total == 8
    assert sponsor(d20=5, kind="friendly").total == 5


def test_final_adds_playoff_and_final_bonuses_to_sponsorship():
    """R: a final is a play-off match: +3 play-off and +2 more for the final."""
    roll = sponsor(d20=10, fan_factor=5, owns_stadium=True, outcome="win", margin=2, casualties=5, kind="final")
    assert roll.total == 10 + 5 + 2 + 2 + 1 + 2 + 1 + 3 + 2
    assert roll.result == "ongoing"
    for words in ("Fan Factor", "owns a stadium", "won", "touchdowns", "3+ casualties", "5+ casualties", "play-off"):
        assert words in roll.explanation
    assert "final" in roll.explanation


def test_sponsorship_threshold_override():
    """H: a commissioner who lowers the One-time threshold to 18."""
    assert sponsor(d20=18, hr=override(sponsorship={"one_time_threshold": 18})).result == "one_time"
    assert sponsor(d20=18).result == "none"


def test_the_casualties_a_team_suffered_are_its_injured_players_however_inflicted():
    """R ("3. Fortune and FAME", Sponsorship): "+2 if the other team suffered at least 3 casualties (however they
    were inflicted)": the other team's players with an injury on the result, whatever the casualty counters of
    either side say (a crowd push or a failed dodge is inflicted by no one)."""
    result = {
        "teams": [{"team": 1, "casualties_inflicted": 5}, {"team": 2, "casualties_inflicted": 0}],
        "players": [
            {"team": 1, "player": 10, "casualties": 5, "injury": ""},
            {"team": 2, "player": 20, "casualties": 0, "injury": "badly_hurt"},
            {"team": 2, "player": 21, "casualties": 0, "injury": "dead"},
            {"team": 2, "player": 22, "casualties": 0, "injury": "stat_loss", "stat": "MA"},
            {"team": 2, "player": 23, "touchdowns": 1, "injury": ""},
            {"team": 1, "player": 11, "casualties": 0, "injury": "niggling"},
        ],
    }

    assert pm.casualties_suffered(result, team_id=2) == 3
    assert pm.casualties_suffered(result, team_id=1) == 1
    assert pm.casualties_suffered({"forfeit": {"team": 1, "reason": "No show"}}, team_id=2) == 0


def test_sponsorship_refuses_a_d20_outside_its_faces():
    """R (Sponsorship): the roll is a d20 (1–20)."""
    with pytest.raises(ValueError):
        sponsor(d20=21)
    with pytest.raises(ValueError):
        sponsor(d20=0)


def test_one_time_sponsorship_pays_d6_times_6000_and_a_1_costs_a_player():
    """R: receive d6 × 6,000 gil; a second d6 of 1 — a random player misses the next match."""
    paid = pm.one_time_sponsorship(d6_amount=3, d6_risk=1, hr=HR)
    assert (paid.amount, paid.player_misses_next_match) == (18_000, True)
    assert "18,000 gil" in paid.explanation
    assert pm.one_time_sponsorship(d6_amount=6, d6_risk=2, hr=HR).player_misses_next_match is False


def test_ongoing_sponsorship_pays_d3_times_1000_and_a_1_costs_a_player():
    """R: receive d3 × 1,000 gil; a d6 of 1 — a random player misses the next match."""
    paid = pm.ongoing_sponsorship(d3_amount=2, d6_risk=1, hr=HR)
    assert (paid.amount, paid.player_misses_next_match) == (2000, True)
    assert pm.ongoing_sponsorship(d3_amount=3, d6_risk=6, hr=HR).player_misses_next_match is False
    with pytest.raises(ValueError):
        pm.ongoing_sponsorship(d3_amount=4, d6_risk=1, hr=HR)


def test_random_player_picks_by_roll_in_shirt_order():
    """H: 1dN over the eligible players ordered by shirt number."""
    assert pm.random_player(roll=1, eligible=[40, 12, 7]) == 40
    assert pm.random_player(roll=3, eligible=[40, 12, 7]) == 7
    with pytest.raises(ValueError):
        pm.random_player(roll=4, eligible=[40, 12, 7])
    with pytest.raises(ValueError):
        pm.random_player(roll=0, eligible=[40])
    with pytest.raises(ValueError):
        pm.random_player(roll=1, eligible=[])


@pytest.mark.parametrize(
    ("fans", "opponent", "fame"),
    [(5000, 5000, 0), (4000, 5000, 0), (6000, 5000, 1), (9999, 5000, 1), (10_000, 5000, 2)],
)
def test_fame_from_fans(fans, opponent, fame):
    """H: FAME 0 if your fans ≤ the opponent's, 1 if more, 2 if at least double."""
    assert pm.fame(fans=fans, opponent_fans=opponent, hr=HR) == fame


# --- 4. Hire and fire ------------------------------------------------------------------------------------


def test_natural_8_loses_the_residency_and_spending_cannot_help():
    """R/I: a natural 8 loses the stadium; a roll of 8 cannot be modified, so nothing is spent."""
    keep = pm.keep_residency(d8=8, spend_points=5, fan_factor=20, hr=HR)
    assert (keep.kept, keep.cost) == (False, 0)


def test_residency_lost_when_the_roll_is_higher_than_fan_factor():
    """R/I: a final result higher than FF loses the residency; equal keeps it."""
    assert pm.keep_residency(d8=6, spend_points=0, fan_factor=5, hr=HR).kept is False
    assert pm.keep_residency(d8=5, spend_points=0, fan_factor=5, hr=HR).kept is True


def test_spending_3000_gil_per_point_keeps_the_residency():
    """R: each 3,000 gil spent deducts 1 from the roll."""
    keep = pm.keep_residency(d8=7, spend_points=2, fan_factor=5, hr=HR)
    assert (keep.kept, keep.cost) == (True, 6000)
    short = pm.keep_residency(d8=7, spend_points=1, fan_factor=5, hr=HR)
    assert (short.kept, short.cost) == (False, 3000)


def test_keep_residency_refuses_negative_spending_and_bad_dice():
    """R (Keeping a residency): a d8; gil spent only lowers the roll (no negative spending)."""
    with pytest.raises(ValueError):
        pm.keep_residency(d8=3, spend_points=-1, fan_factor=5, hr=HR)
    with pytest.raises(ValueError):
        pm.keep_residency(d8=9, spend_points=0, fan_factor=5, hr=HR)


@pytest.mark.parametrize(
    ("d6", "two_d6", "amount", "needs"),
    [(1, 2, 2000, True), (1, 12, 12_000, True), (2, 7, 17_000, True), (5, 12, 22_000, True), (6, None, 25_000, False)],
)
def test_stadium_sale_table(d6, two_d6, amount, needs):
    """R: 1 Swindled 2d6 × 1,000; 2–5 Sold at a loss 10,000 + 2d6 × 1,000; 6 Break even 25,000."""
    assert pm.stadium_sale_needs_amount_roll(d6=d6, hr=HR) is needs
    sale = pm.stadium_sale(d6=d6, two_d6=two_d6, hr=HR)
    assert sale.amount == amount
    assert f"{amount:,} gil" in sale.explanation


def test_stadium_sale_needs_the_2d6_on_1_to_5():
    """R (Selling a stadium): results 1–5 pay by a 2d6 amount roll (2–12)."""
    with pytest.raises(ValueError):
        pm.stadium_sale(d6=3, two_d6=None, hr=HR)
    with pytest.raises(ValueError):
        pm.stadium_sale(d6=3, two_d6=13, hr=HR)


# --- 5. Prepare for next match ---------------------------------------------------------------------------


def test_no_expensive_mistake_below_10000_and_no_roll():
    """R: only a treasury of at least 10,000 gil rolls for expensive mistakes."""
    assert pm.expensive_mistake_needs_roll(treasury=9999, hr=HR) is False
    assert pm.expensive_mistake(treasury=9999, d6=None, hr=HR) == "none"
    assert pm.expensive_mistake_needs_roll(treasury=10_000, hr=HR) is True


@pytest.mark.parametrize(
    ("treasury", "results"),
    [
        (10_000, "minor averted averted averted averted averted"),
        (19_999, "minor averted averted averted averted averted"),
        (20_000, "minor minor averted averted averted averted"),
        (29_999, "minor minor averted averted averted averted"),
        (30_000, "major minor minor averted averted averted"),
        (40_000, "major major minor minor averted averted"),
        (59_999, "catastrophe major major minor minor averted"),
        (60_000, "catastrophe catastrophe major major minor minor"),
        (1_000_000, "catastrophe catastrophe major major minor minor"),
    ],
)
def test_expensive_mistake_brackets(treasury, results):
    """H: the expensive-mistakes table, bracket = the highest minimum the treasury reaches."""
    assert [pm.expensive_mistake(treasury=treasury, d6=d6, hr=HR) for d6 in range(1, 7)] == results.split()


def test_expensive_mistake_needs_the_d6_from_10000():
    """R (Expensive mistakes): a treasury of 10,000 or more must roll the d6 (1–6)."""
    with pytest.raises(ValueError):
        pm.expensive_mistake(treasury=10_000, d6=None, hr=HR)
    with pytest.raises(ValueError):
        pm.expensive_mistake(treasury=10_000, d6=7, hr=HR)


def test_minor_expensive_mistake_loses_d3_thousand():
    """H: minor — lose d3 × 1,000."""
    assert pm.expensive_mistake_loss(kind="minor", treasury=15_000, d3=2, hr=HR).amount == 2000


def test_minor_expensive_mistake_never_takes_more_than_the_treasury():
    """H/I: never more than the treasury holds (a commissioner's bracket may start below 3,000)."""
    assert pm.expensive_mistake_loss(kind="minor", treasury=1500, d3=3, hr=HR).amount == 1500


@pytest.mark.parametrize(("treasury", "loss"), [(35_000, 17_500), (33_700, 16_500), (30_000, 15_000), (30_999, 15_000)])
def test_major_expensive_mistake_rounds_the_loss_down_to_500(treasury, loss):
    """H/I: major — lose half the treasury; the amount lost is rounded down to the nearest 500."""
    result = pm.expensive_mistake_loss(kind="major", treasury=treasury, hr=HR)
    assert result.amount == loss
    assert f"{loss:,} gil" in result.explanation


def test_catastrophe_keeps_only_2d6_thousand():
    """H: catastrophe — keep only 2d6 × 1,000 if that is less than the treasury."""
    assert pm.expensive_mistake_loss(kind="catastrophe", treasury=60_000, two_d6=7, hr=HR).amount == 53_000
    assert pm.expensive_mistake_loss(kind="catastrophe", treasury=12_000, two_d6=12, hr=HR).amount == 0
    assert pm.expensive_mistake_loss(kind="catastrophe", treasury=11_000, two_d6=12, hr=HR).amount == 0


def test_averted_and_no_mistake_lose_nothing():
    """H (Expensive mistakes): averted or no mistake costs nothing; an unknown kind is a ValueError."""
    assert pm.expensive_mistake_loss(kind="averted", treasury=50_000, hr=HR).amount == 0
    assert pm.expensive_mistake_loss(kind="none", treasury=5000, hr=HR).amount == 0
    with pytest.raises(ValueError):
        pm.expensive_mistake_loss(kind="disaster", treasury=50_000, hr=HR)
    with pytest.raises(ValueError):
        pm.expensive_mistake_loss(kind="minor", treasury=50_000, d3=None, hr=HR)


def test_major_mistake_override_changes_the_rounding():
    """H: a league that rounds the major loss down to the nearest 1,000."""
    hr = override(expensive_mistakes={"major": {"round_down_to": 1000}})
    assert pm.expensive_mistake_loss(kind="major", treasury=35_000, hr=hr).amount == 17_000


@given(
    treasury=st.integers(0, 2_000_000),
    d6=st.integers(1, 6),
    d3=st.integers(1, 3),
    two_d6=st.integers(2, 12),
)
def test_expensive_mistake_loss_never_exceeds_the_treasury(treasury, d6, d3, two_d6):
    """R/H: the treasury never goes below 0 through an expensive mistake."""
    kind = pm.expensive_mistake(treasury=treasury, d6=d6, hr=HR)
    loss = pm.expensive_mistake_loss(kind=kind, treasury=treasury, d3=d3, two_d6=two_d6, hr=HR).amount
    assert 0 <= loss <= treasury
    for any_kind in ("minor", "major", "catastrophe"):
        loss = pm.expensive_mistake_loss(kind=any_kind, treasury=treasury, d3=d3, two_d6=two_d6, hr=HR).amount
        assert 0 <= loss <= treasury


@pytest.mark.parametrize(("can_field", "needed"), [(0, 11), (7, 4), (10, 1), (11, 0), (14, 0)])
def test_journeymen_fill_the_team_up_to_11(can_field, needed):
    """R: a team that can field 10 or fewer adds free Journeymen until it can field 11."""
    assert pm.journeymen_needed(can_field=can_field, hr=HR) == needed


# --- Conceding -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("d6", "spp", "leaves"), [(1, 51, True), (3, 51, True), (4, 51, False), (1, 50, False)])
def test_conceding_team_players_with_51_spp_leave_on_1_to_3(d6, spp, leaves):
    """R: players of the conceding team with 51 SPP or more leave on a d6 of 1–3."""
    assert pm.concede_leaves(d6=d6, spp=spp, hr=HR) is leaves
    assert pm.concede_leave_needs_roll(spp=spp, hr=HR) is (spp >= 51)


def test_concede_leave_refuses_a_bad_die():
    """R (Conceding): the leave roll is a d6 (1–6)."""
    with pytest.raises(ValueError):
        pm.concede_leaves(d6=0, spp=60, hr=HR)


# --- house rules -----------------------------------------------------------------------------------------


def test_skills_are_a_valid_house_rule_override():
    """H: a commissioner may replace a skill list (lists replace whole)."""
    hr = override(skills={"mutation": ["Claw", "Horns"]})
    assert pm.skill_choices(categories=["mutation"], known=["Horns"], hr=hr) == ["Claw"]
    assert HR["skills"]["general"] == get_ruleset("blitzbowl").default_house_rules()["skills"]["general"]


def test_functions_never_mutate_the_house_rules():
    """H: the house rules are the league's data; rule functions only read them."""
    before = copy.deepcopy(HR)
    winnings(d6=1, fame=0, outcome="loss", at_owned_stadium=True, d3=3)
    residency(d6=3, fan_factor=13)
    sponsor(kind="final")
    assert before == HR
