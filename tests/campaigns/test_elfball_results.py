"""The ElfBall result format (api-v1 "Result body"; ../shared/rules/elfball.md "Matches", "Goal Points and
abilities", "Injuries", "Magic Potion table").

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).
"""

import copy

import pytest

from campaigns import house_rules
from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset

EB = get_ruleset("elfball")
HR = EB.default_house_rules()

# Team 1: 101–104 can play (104 a journeyman), 105 misses this match. Team 2: 201–204.
ROSTERS = {
    1: {101: "active", 102: "active", 103: "active", 104: "journeyman", 105: "miss_next_match"},
    2: {201: "active", 202: "active", 203: "active", 204: "active"},
}
MIDFIELDER = {"jog": 5, "might": 3, "tackle": 3, "dodge": 3, "skill": 3, "grit": 3, "base": 25}
DEADWOOD = {"jog": 3, "might": 6, "tackle": 5, "dodge": 1, "skill": 1, "grit": 4, "base": 40}
HUNTER = {"jog": 5, "might": 3, "tackle": 5, "dodge": 3, "skill": 2, "grit": 3, "base": 25}  # jog and tackle tie
CONTEXT = {
    "tests_to_win": 2,
    "stock": {1: {"magic_potion": 2}, 2: {"magic_potion": 1}},
    "players": {
        101: {"attributes": MIDFIELDER, "abilities": []},
        102: {"attributes": MIDFIELDER, "abilities": ["push"]},
        103: {"attributes": HUNTER, "abilities": []},
        104: {"attributes": MIDFIELDER, "abilities": []},
        201: {"attributes": DEADWOOD, "abilities": []},
        202: {"attributes": HUNTER, "abilities": []},
        203: {"attributes": MIDFIELDER, "abilities": []},
        204: {"attributes": MIDFIELDER, "abilities": []},
    },
}


def override(**changes) -> dict:
    return house_rules.merge(HR, house_rules.validate_overrides(HR, changes))


def parse(body, *, hr=HR, context=CONTEXT, rosters=ROSTERS) -> dict:
    return EB.parse_result(body, rosters=rosters, event="", hr=hr, context=context)


def refused(body, field, match=None, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation, match=match) as exc:
        parse(body, **kwargs)
    assert exc.value.field == field, exc.value.message
    return exc.value


def won_2_1(**extra) -> dict:
    body = {
        "teams": [{"team": 1, "score": 2}, {"team": 2, "score": 1}],
        "goals": [
            {"team": 1, "on_field": [101, 102]},
            {"team": 2, "on_field": [201, 202, 203]},
            {"team": 1, "on_field": [101, 103, 104]},
        ],
    }
    body.update(extra)
    return body


def row(result, player) -> dict:
    return next(r for r in result["players"] if r["player"] == player)


# --- The whole result -------------------------------------------------------------------------------------------


def test_a_full_result_normalised():
    """R: Tests won, a Goal Point per goal to each player on the field, Grit outcomes and potions (hand-worked)."""
    body = won_2_1(
        players=[
            {"player": 201, "injury": "lasting_injury", "attribute": "might"},
            {"player": 102, "injury": "out_for_game"},
        ],
        potions=[{"player": 202, "roll": 6}, {"player": 103, "roll": 7, "ability": "agile"}],
    )
    result = parse(body)
    assert result["teams"] == [
        {
            "team": 1,
            "score": 2,
            "tests_won": 2,
            "conceded": False,
            "no_face_off": False,
            "outcome": "win",
            "casualties_inflicted": 0,
            "mvp": None,
        },
        {
            "team": 2,
            "score": 1,
            "tests_won": 1,
            "conceded": False,
            "no_face_off": False,
            "outcome": "loss",
            "casualties_inflicted": 0,
            "mvp": None,
        },
    ]
    assert [(r["player"], r["goal_points"], r["goals"]) for r in result["players"]] == [
        (101, 2, 2),
        (102, 1, 1),
        (103, 1, 1),
        (104, 1, 1),
        (201, 1, 1),
        (202, 1, 1),
        (203, 1, 1),
    ]
    assert row(result, 201) == {
        "team": 2,
        "player": 201,
        "goal_points": 1,
        "goals": 1,
        "concession_gp": 0,
        "injury": "lasting_injury",
        "attribute": "might",
        "potion": None,
        "potion_ability": None,
        "potion_attribute": None,
        "potions": [],
        "infirmary": True,
    }
    assert row(result, 102)["infirmary"] is True  # I: out for the game is the Infirmary
    assert row(result, 202)["potion"] == 6 and row(result, 202)["infirmary"] is False  # 6: misses a Test only
    assert row(result, 103)["potion_ability"] == "agile"
    assert result["goals"] == body["goals"]
    assert result["rolls"] == {"potion": [6, 7]}


def test_player_match_row_holds_exactly_the_playermatch_fields():
    """The per-match row is the source of truth: Goal Points, the Grit outcome and its attribute, the details."""
    result = parse(won_2_1(players=[{"player": 201, "injury": "lasting_injury", "attribute": "might"}]))
    assert EB.player_match_row(row(result, 201), mvp=False, hr=HR) == {
        "goal_points": 1,
        "injury": "lasting_injury",
        "injury_detail": "might",
        "mvp": False,
        "detail": {
            "goals": 1,
            "concession_gp": 0,
            "potion": None,
            "potion_ability": None,
            "potion_attribute": None,
            "potions": [],
            "infirmary": True,
        },
    }
    assert EB.player_match_row(row(result, 101), mvp=False, hr=HR)["injury"] == ""
    assert EB.counters == ("goal_points",)


def test_a_match_is_between_two_teams():
    with pytest.raises(RuleViolation, match="two teams"):
        parse(won_2_1(), rosters={**ROSTERS, 3: {}})


# --- Tests won and the outcome -------------------------------------------------------------------------------


def test_score_is_tests_won_from_zero_to_tests_to_win():
    """R: the first team to win N Tests wins; a score is 0–N."""
    refused(won_2_1(teams=[{"team": 1, "score": 3}, {"team": 2, "score": 1}]), "teams[0].score", "at most 2")
    refused(won_2_1(teams=[{"team": 1, "score": -1}, {"team": 2, "score": 1}]), "teams[0].score")
    refused(won_2_1(teams=[{"team": 1, "score": "2"}, {"team": 2, "score": 1}]), "teams[0].score")


def test_tests_to_win_comes_from_the_match_else_the_house_default():
    """R: N agreed before the match (usually 2 or 3); H: league default 2."""
    body = {"teams": [{"team": 1, "score": 3}, {"team": 2, "score": 0}], "goals": [{"team": 1, "on_field": [101]}] * 3}
    assert parse(body, context={**CONTEXT, "tests_to_win": 3})["teams"][0]["outcome"] == "win"
    refused(body, "teams[0].score", context={"players": CONTEXT["players"]})


def test_exactly_one_team_wins_n_tests():
    """R: the match continues until one team has won N Tests, and ends there."""
    refused({"teams": [{"team": 1, "score": 1}, {"team": 2, "score": 1}]}, "teams", "one team must have won 2")
    refused({"teams": [{"team": 1, "score": 2}, {"team": 2, "score": 2}]}, "teams[1].score", "only one team")


def test_the_winner_is_the_team_that_won_n_tests_whatever_the_body_order():
    body = {"teams": [{"team": 2, "score": 2}, {"team": 1, "score": 0}], "goals": [{"team": 2, "on_field": [201]}] * 2}
    result = parse(body)
    assert [(t["team"], t["outcome"]) for t in result["teams"]] == [(1, "loss"), (2, "win")]


def test_conceding_team_loses_and_the_opponent_scores_three():
    """R (Conceding): the conceding team loses; the opposing team's score becomes 3 goals for this game."""
    body = {
        "teams": [{"team": 1, "score": 1, "conceded": True}, {"team": 2, "score": 0}],
        "goals": [{"team": 1, "on_field": [101]}],
    }
    result = parse(body)
    assert [(t["team"], t["score"], t["tests_won"], t["outcome"]) for t in result["teams"]] == [
        (1, 1, 1, "loss"),
        (2, 3, 0, "win"),
    ]


def test_conceding_gives_each_opponent_not_in_the_infirmary_a_goal_point():
    """R (Conceding): each player of the opposing team not in the Infirmary receives one Goal Point.
    I: 'in the Infirmary' = out for the game or worse and not cured (201), or a potion that misses the game (202);
    unconscious (203) is the Recovery box, not the Infirmary."""
    body = {
        "teams": [{"team": 1, "score": 0}, {"team": 2, "score": 1, "conceded": True}],
        "goals": [{"team": 2, "on_field": [201, 202]}],
        "players": [{"player": 201, "injury": "out_for_game"}, {"player": 203, "injury": "unconscious"}],
        "potions": [{"player": 202, "roll": 3}],
    }
    result = parse(body)
    assert result["teams"][0]["score"] == 3
    gp = {r["player"]: (r["goal_points"], r["concession_gp"]) for r in result["players"]}
    # Team 1 players able to play: 101–104 (105 misses the match and gets nothing).
    assert gp == {101: (1, 1), 102: (1, 1), 103: (1, 1), 104: (1, 1), 201: (1, 0), 202: (1, 0), 203: (0, 0)}


def test_conceding_goal_points_skip_a_player_in_the_infirmary():
    body = {
        "teams": [{"team": 1, "score": 0}, {"team": 2, "score": 0, "conceded": True}],
        "goals": [],
        "players": [{"player": 101, "injury": "career_ending"}, {"player": 102, "injury": "out_for_game"}],
        "potions": [{"player": 102, "roll": 5}, {"player": 103, "roll": 6}],
    }
    result = parse(body)
    gp = {r["player"]: r["concession_gp"] for r in result["players"]}
    # 101 career-ended, 102 cured by 5 but misses the game: both in the Infirmary. 103 (6) misses only a Test.
    assert gp == {101: 0, 102: 0, 103: 1, 104: 1}


def test_a_conceded_match_ended_before_n_tests():
    """R: a concession happens before either team has won N Tests."""
    body = {"teams": [{"team": 1, "score": 2}, {"team": 2, "score": 0, "conceded": True}]}
    refused(body, "teams[0].score", "conceded before")


def test_only_one_team_can_concede():
    body = {"teams": [{"team": 1, "score": 0, "conceded": True}, {"team": 2, "score": 0, "conceded": True}]}
    refused(body, "teams[1].conceded", "Only one team")


def test_neither_team_can_face_off_is_a_tie():
    """R (Beginning a Test): if neither team can place a face-off player the game ends in a tie (I: the only draw)."""
    body = {
        "teams": [{"team": 1, "score": 1, "no_face_off": True}, {"team": 2, "score": 1, "no_face_off": True}],
        "goals": [{"team": 1, "on_field": [101]}, {"team": 2, "on_field": [201]}],
    }
    result = parse(body)
    assert [t["outcome"] for t in result["teams"]] == ["draw", "draw"]
    assert EB.league_points(outcome="draw", kind="league", hr=HR) == 1


def test_a_team_that_cannot_face_off_loses():
    """R/H (no_face_off_player_loses): if you cannot set up a player for the face-off, your team loses."""
    body = {"teams": [{"team": 1, "score": 1}, {"team": 2, "score": 0, "no_face_off": True}], "goals": []}
    body["goals"] = [{"team": 1, "on_field": [101]}]
    result = parse(body)
    assert [(t["score"], t["outcome"]) for t in result["teams"]] == [(1, "win"), (0, "loss")]
    refused(body, "teams[1].no_face_off", "house rules", hr=override(no_face_off_player_loses=False))


def test_face_off_ending_needs_both_scores_below_n():
    body = {"teams": [{"team": 1, "score": 2}, {"team": 2, "score": 0, "no_face_off": True}]}
    refused(body, "teams[0].score")


def test_concession_and_no_face_off_not_both():
    """Only one way of ending a match early at once."""
    refused(
        {"teams": [{"team": 1, "score": 0, "conceded": True}, {"team": 2, "score": 0, "no_face_off": True}]},
        "teams[1].no_face_off",
    )
    refused(
        {"teams": [{"team": 1, "score": 0, "conceded": True, "no_face_off": True}, {"team": 2, "score": 0}]},
        "teams[0].no_face_off",
    )


def test_draws_need_no_face_off():
    """I: a level score without no_face_off is refused (ElfBall matches are not drawn otherwise)."""
    refused({"teams": [{"team": 1, "score": 0}, {"team": 2, "score": 0}]}, "teams")


# --- Goals ------------------------------------------------------------------------------------------------------


def test_one_goal_entry_per_test_won():
    """R: each goal ends a Test: a team's goals equal its Tests won."""
    body = won_2_1()
    body["goals"] = body["goals"][:2]
    refused(body, "goals", "won 2 Test")


@pytest.mark.parametrize(
    ("on_field", "match"),
    [
        ([], "must list"),
        ("101", "must list"),
        ([101, 101], "twice"),
        ([201], "not a player of the scoring team"),
        ([105], "could not play"),
        ([999], "not a player"),
        ([True], "not a player"),
    ],
)
def test_on_field_lists_distinct_players_of_the_scoring_team_able_to_play(on_field, match):
    """R: the scoring team's players still on the playing field."""
    body = won_2_1()
    body["goals"][2] = {"team": 1, "on_field": on_field}
    refused(body, "goals[2].on_field", match)


def test_goal_team_must_be_in_the_match():
    body = won_2_1()
    body["goals"][0] = {"team": 9, "on_field": [101]}
    refused(body, "goals[0].team")
    body["goals"][0] = {"team": [1], "on_field": [101]}
    refused(body, "goals[0].team")


def test_without_goals_the_players_goal_points_count():
    """R: a result lists per goal the players on the field, or per player the Goal Points earned (≤ Tests won)."""
    body = {
        "teams": [{"team": 1, "score": 2}, {"team": 2, "score": 1}],
        "players": [{"player": 101, "goal_points": 2}, {"player": 201, "goal_points": 1}],
    }
    result = parse(body)
    assert [(r["player"], r["goal_points"], r["goals"]) for r in result["players"]] == [(101, 2, None), (201, 1, None)]
    assert result["goals"] == []
    body["players"][1]["goal_points"] = 2
    refused(body, "players[1].goal_points", "at most 1")


def test_goal_points_beside_goals_must_agree():
    refused(won_2_1(players=[{"player": 101, "goal_points": 1}]), "players[0].goal_points", "give goals")
    assert row(parse(won_2_1(players=[{"player": 101, "goal_points": 2}])), 101)["goal_points"] == 2


# --- Injuries ---------------------------------------------------------------------------------------------------


def test_injury_is_a_grit_challenge_outcome():
    """R: career_ending, lasting_injury, out_for_game, unconscious, none."""
    refused(won_2_1(players=[{"player": 102, "injury": "badly_hurt"}]), "players[0].injury", "career_ending")
    assert row(parse(won_2_1(players=[{"player": 202, "injury": "none"}])), 202)["injury"] == "none"


def test_basic_games_record_no_career_ending_or_lasting_injuries():
    """R: Basic results of the Grit Challenge: out for the game, unconscious, none."""
    refused(
        won_2_1(players=[{"player": 102, "injury": "lasting_injury"}]),
        "players[0].injury",
        hr=override(basic_mode=True),
    )


def test_injured_player_must_have_been_able_to_play():
    refused(won_2_1(players=[{"player": 105, "injury": "out_for_game"}]), "players[0].player", "could not play")
    refused(won_2_1(players=[{"player": [1], "injury": "out_for_game"}]), "players[0].player")


def test_attribute_only_with_a_lasting_injury():
    refused(won_2_1(players=[{"player": 102, "injury": "out_for_game", "attribute": "jog"}]), "players[0].attribute")


def test_lasting_injury_attribute_must_be_a_highest_one_and_not_base():
    """R: the attribute with the most points (coach chooses among ties); I: Base is not an attribute for it."""
    refused(won_2_1(players=[{"player": 201, "injury": "lasting_injury", "attribute": "base"}]), "players[0].attribute")
    refused(
        won_2_1(players=[{"player": 201, "injury": "lasting_injury", "attribute": "tackle"}]),
        "players[0].attribute",
        "highest attribute",
    )
    tied = parse(won_2_1(players=[{"player": 103, "injury": "lasting_injury", "attribute": "tackle"}]))
    assert row(tied, 103)["attribute"] == "tackle"
    # Without the attribute, the coach chooses in the post-match sequence.
    assert row(parse(won_2_1(players=[{"player": 103, "injury": "lasting_injury"}])), 103)["attribute"] is None


def test_attribute_is_only_name_checked_without_the_players_attributes():
    body = won_2_1(players=[{"player": 201, "injury": "lasting_injury", "attribute": "dodge"}])
    assert row(parse(body, context={"tests_to_win": 2}), 201)["attribute"] == "dodge"


# --- Potions ----------------------------------------------------------------------------------------------------


def test_a_potion_needs_its_d12_roll():
    """R: to use a potion, roll a D12."""
    refused(won_2_1(potions=[{"player": 101}]), "potions[0].roll", "D12")
    refused(won_2_1(potions=[{"player": 101, "roll": 13}]), "potions[0].roll", "at most 12")
    refused(won_2_1(potions=[{"player": 101, "roll": 0}]), "potions[0].roll")


def test_a_potion_is_drunk_by_a_player_of_the_match_able_to_play():
    refused(won_2_1(potions=[{"player": 999, "roll": 4}]), "potions[0].player")
    refused(won_2_1(potions=[{"player": 105, "roll": 4}]), "potions[0].player", "could not play")


def test_one_potion_per_player_per_game():
    """R: because this is potent stuff, a player may only take one potion per game (H potions_per_player)."""
    body = won_2_1(potions=[{"player": 101, "roll": 4}, {"player": 101, "roll": 9}])
    refused(body, "potions[1].player", "only 1 potion")
    result = parse(body, hr=override(potions_per_player_per_game=2))
    assert row(result, 101)["potions"] == [
        {"roll": 4, "ability": None, "attribute": None},
        {"roll": 9, "ability": None, "attribute": None},
    ]


def test_no_more_potions_than_the_team_has():
    """R: potions are bought (up to 3) and consumed when used."""
    body = won_2_1(potions=[{"player": 201, "roll": 4}, {"player": 202, "roll": 4}])
    refused(body, "potions[1].player", "only 1 Magic Potion")


def test_potion_ability_only_with_a_seven_and_a_basic_he_lacks():
    """R (7): the player gains one Basic ability of his choice that he doesn't already have, for this game."""
    refused(won_2_1(potions=[{"player": 101, "roll": 6, "ability": "push"}]), "potions[0].ability", "(7)")
    refused(won_2_1(potions=[{"player": 101, "roll": 7, "ability": "sprinter"}]), "potions[0].ability", "Basic")
    refused(won_2_1(potions=[{"player": 102, "roll": 7, "ability": "push"}]), "potions[0].ability", "already has")
    assert row(parse(won_2_1(potions=[{"player": 101, "roll": 7}])), 101)["potion_ability"] is None


def test_potion_attribute_only_with_a_seizure():
    """R (2): the seizure's lasting injury lowers the highest attribute (coach chooses among ties)."""
    refused(won_2_1(potions=[{"player": 101, "roll": 3, "attribute": "jog"}]), "potions[0].attribute", "(2)")
    refused(won_2_1(potions=[{"player": 101, "roll": 2, "attribute": "might"}]), "potions[0].attribute", "highest")
    assert row(parse(won_2_1(potions=[{"player": 103, "roll": 2, "attribute": "tackle"}])), 103)[
        "potion_attribute"
    ] == ("tackle")


def test_seizure_after_a_lasting_injury_takes_the_next_highest():
    """R: an uncured lasting injury, then the seizure's: the second lowers the highest after the first.
    Hunter jog 5 tackle 5: the injury lowers jog to 4, so the seizure must take tackle."""
    body = won_2_1(
        players=[{"player": 103, "injury": "lasting_injury", "attribute": "jog"}],
        potions=[{"player": 103, "roll": 2, "attribute": "jog"}],
    )
    refused(body, "potions[0].attribute", "tackle")
    body["potions"][0]["attribute"] = "tackle"
    assert row(parse(body), 103)["potion_attribute"] == "tackle"


def test_rolls_potion_must_be_the_potions_rolls():
    """The D12s rolled at the table are the potions' own rolls, logged once (rolls.potion)."""
    refused(won_2_1(potions=[{"player": 101, "roll": 4}], rolls={"potion": [5]}), "rolls.potion")
    refused(won_2_1(rolls={"potion": [5]}), "rolls.potion")
    assert parse(won_2_1(potions=[{"player": 101, "roll": 4}], rolls={"potion": [4]}))["rolls"] == {"potion": [4]}
    assert parse(won_2_1())["rolls"] == {}


def test_the_body_is_not_mutated():
    body = won_2_1(potions=[{"player": 101, "roll": 4}])
    before = copy.deepcopy(body)
    parse(body)
    assert body == before


@pytest.mark.parametrize(
    ("key", "value", "field"),
    [
        ("goals", {"team": 1}, "goals"),
        ("potions", [1], "potions"),
        ("players", "x", "players"),
        ("teams", None, "teams"),
    ],
)
def test_shapes_are_refused_naming_the_field(key, value, field):
    refused(won_2_1(**{key: value}), field)
