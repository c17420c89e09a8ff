"""Bone Cruncher results and league points (../shared/rules/bonecruncher.md "Events", "Wounds";
../shared/docs/api-v1.md "Result body").

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).
"""

import copy

import pytest

from campaigns.engine import PlayerView
from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset

BC = get_ruleset("bonecruncher")
HR = BC.default_house_rules()
ADV = copy.deepcopy(HR)
ADV["advanced_wounds"] = True

#: Two teams of 12: team 1 has players 101–112, team 2 201–212.
ROSTERS = {1: {100 + i: "active" for i in range(1, 13)}, 2: {200 + i: "active" for i in range(1, 13)}}


def squad(team: int, n: int = 8) -> list[int]:
    return [team * 100 + i for i in range(1, n + 1)]


def scorchball(score1=3, score2=1, *, wounds=None, **extra) -> dict:
    body = {
        "teams": [
            {"team": 1, "score": score1, "squad": squad(1)},
            {"team": 2, "score": score2, "squad": squad(2)},
        ],
        **extra,
    }
    if wounds is not None:
        body["wounds"] = wounds
    return body


def parse(body, *, rosters=ROSTERS, event="scorchball", hr=HR):
    return BC.parse_result(body, rosters=rosters, event=event, hr=hr)


def refused(body, field, **kw) -> RuleViolation:
    with pytest.raises(RuleViolation) as exc:
        parse(body, **kw)
    assert exc.value.field == field, exc.value.message
    return exc.value


# --- Scorchball ----------------------------------------------------------------------------------------------------


def test_scorchball_result_normalised():
    """R Scorchball: points per team, the higher wins; one player row per squad player."""
    result = parse(
        scorchball(3, 1, wounds=[{"player": 102, "wounds": 3, "critical": [2, {"roll": 6, "side": "right"}]}])
    )
    one, two = result["teams"]
    assert one == {
        "team": 1,
        "score": 3,
        "placing": None,
        "eliminations": 0,
        "casualties_inflicted": 0,
        "squad": squad(1),
        "conceded": False,
        "outcome": "win",
        "mvp": None,
    }
    assert two["outcome"] == "loss"
    assert len(result["players"]) == 16
    row = next(r for r in result["players"] if r["player"] == 102)
    assert row == {
        "team": 1,
        "player": 102,
        "wounds": 3,
        "areas": {},
        "critical": [
            {"roll": 2, "key": "incapacitated_leg", "side": None},
            {"roll": 6, "key": "severed_arm", "side": "right"},
        ],
    }
    assert next(r for r in result["players"] if r["player"] == 201) == {
        "team": 2,
        "player": 201,
        "wounds": 0,
        "areas": {},
        "critical": [],
    }
    assert result["rolls"] == {"critical_wound": [2, 6]}


def test_an_ordinary_match_is_scorchball():
    """I: an ordinary match (event "") is played as Scorchball: squads of 8, named when a team has more."""
    assert parse(scorchball(), event="")["teams"][0]["outcome"] == "win"
    body = scorchball()
    del body["teams"][1]["squad"]
    assert "must be named" in refused(body, "teams[1].squad", event="").message


#: Two teams of exactly 8 (R Scorchball: a squad of 8): team 1 has players 101–108, team 2 201–208.
EIGHTS = {1: {100 + i: "active" for i in range(1, 9)}, 2: {200 + i: "active" for i in range(1, 9)}}


def contract_scorchball(score1=3, score2=1) -> dict:
    """The contract's result shape (api-v1 "Result body"): no `squad`, which is a Bone Cruncher extension."""
    return {"teams": [{"team": 1, "score": score1}, {"team": 2, "score": score2}]}


@pytest.mark.parametrize("event", ["scorchball", ""])
def test_scorchball_squad_defaults_to_the_eight_able_players(event):
    """R Scorchball "squad of 8" (rules/bonecruncher.md "Events"); I: the squad, left out, is every player able
    to play — as Terminix does — so the contract's shape is enough for two teams of exactly 8."""
    result = parse(contract_scorchball(), rosters=EIGHTS, event=event)
    assert [t["squad"] for t in result["teams"]] == [sorted(EIGHTS[1]), sorted(EIGHTS[2])]
    assert [t["outcome"] for t in result["teams"]] == ["win", "loss"]
    assert {r["player"] for r in result["players"]} == set(EIGHTS[1]) | set(EIGHTS[2])


def test_scorchball_default_squad_leaves_out_players_who_cannot_play():
    """R: a dead player never plays again; I: the default squad is the players able to play, so a team of 9 with
    one dead fields its 8 living and a journeyman counts as able."""
    rosters = {1: {**EIGHTS[1], 109: "dead"}, 2: {**EIGHTS[2], 208: "journeyman"}}
    result = parse(contract_scorchball(), rosters=rosters, event="scorchball")
    assert result["teams"][0]["squad"] == sorted(EIGHTS[1])
    assert 208 in result["teams"][1]["squad"]


def test_scorchball_with_more_than_eight_able_players_must_name_its_squad():
    """R Scorchball squad of 8 taken from the team's 12: with 12 able players and no squad the rulebook cannot
    tell who played, so the squad must be named (a 400 naming the field)."""
    body = contract_scorchball()
    rosters = {1: ROSTERS[1], 2: EIGHTS[2]}
    message = refused(body, "teams[0].squad", rosters=rosters).message
    assert "must be named" in message and "12" in message and "8" in message


def test_wounds_need_no_named_squad_when_it_defaults():
    """I: wounds are taken by squad players; a defaulted squad counts like a named one."""
    body = {**contract_scorchball(), "wounds": [{"player": 203, "wounds": 2}]}
    rows = {r["player"]: r for r in parse(body, rosters=EIGHTS)["players"]}
    assert rows[203]["wounds"] == 2


def test_scorchball_draw_and_its_league_points():
    """R: equal points is a draw; H: Scorchball win 3 / draw 1 / loss 0."""
    result = parse(scorchball(2, 2))
    assert [t["outcome"] for t in result["teams"]] == ["draw", "draw"]
    points = [BC.league_points(outcome=o, kind="league", hr=HR, event="scorchball") for o in ("win", "draw", "loss")]
    assert points == [3, 1, 0]


def test_scorchball_squad_of_eight():
    """R: a squad of 8 taken from the team's 12 — 9 refused, none refused, 1 to 8 accepted."""
    body = scorchball()
    body["teams"][0]["squad"] = squad(1, 9)
    assert "at most 8" in refused(body, "teams[0].squad").message
    body["teams"][0]["squad"] = []
    refused(body, "teams[0].squad")
    body["teams"][0]["squad"] = [101]
    assert parse(body)["teams"][0]["squad"] == [101]


def test_squad_players_must_be_distinct_players_of_the_team():
    """R: a team's squad is its own players, each once."""
    body = scorchball()
    body["teams"][0]["squad"] = [101, 101]
    refused(body, "teams[0].squad[1]")
    body["teams"][0]["squad"] = [101, 201]
    refused(body, "teams[0].squad[1]")


def test_a_dead_player_never_plays_again():
    """R: a dead player is removed; he cannot be in a squad or take wounds."""
    rosters = {1: {**ROSTERS[1], 103: "dead"}, 2: ROSTERS[2]}
    assert "dead" in refused(scorchball(), "teams[0].squad[2]", rosters=rosters).message
    body = scorchball(wounds=[{"player": 103, "wounds": 1}])
    body["teams"][0]["squad"] = [101, 102]
    refused(body, "wounds[0].player", rosters=rosters)


def test_scorchball_is_two_teams():
    """R: Scorchball is played by two teams."""
    rosters = {**ROSTERS, 3: {301: "active"}}
    refused(scorchball(), "teams", rosters=rosters)


def test_points_target_only_one_team_reaches_it():
    """H: with the points end condition, the match ends when a team reaches the target."""
    hr = copy.deepcopy(HR)
    hr["events"]["scorchball"].update(end_condition="points", points_target=10)
    parse(scorchball(10, 7), hr=hr)
    refused(scorchball(10, 12), "teams[1].score", hr=hr)


def test_scores_are_whole_points_and_there_is_no_conceding():
    body = scorchball()
    body["teams"][0]["score"] = -1
    refused(body, "teams[0].score")
    body = scorchball()
    body["teams"][1]["conceded"] = True
    refused(body, "teams[1].conceded")


def test_unknown_event_is_refused():
    refused(scorchball(), "event", event="blood_bowl")


def test_players_rows_are_not_part_of_a_bone_cruncher_result():
    """I: the squads say who played; a players list would be ignored, so it is refused."""
    refused(scorchball(players=[{"player": 101}]), "players")
    parse(scorchball(players=[]))


# --- wounds ----------------------------------------------------------------------------------------------------------


def test_wounds_of_a_player_outside_the_squad_are_refused():
    """I: wounds are taken by players of a squad."""
    assert "squad" in refused(scorchball(wounds=[{"player": 109, "wounds": 1}]), "wounds[0].player").message
    refused(scorchball(wounds=[{"player": 999, "wounds": 1}]), "wounds[0].player")


def test_a_player_is_listed_once_in_wounds():
    refused(scorchball(wounds=[{"player": 101, "wounds": 1}, {"player": 101, "wounds": 2}]), "wounds[1].player")


def test_basic_wounds_are_a_count():
    """R basic: wounds are a count; I: areas need advanced wounds."""
    refused(scorchball(wounds=[{"player": 101, "areas": {"head": 1}}]), "wounds[0].areas")
    refused(scorchball(wounds=[{"player": 101, "wounds": 1.5}]), "wounds[0].wounds")


def test_advanced_wounds_per_area():
    """R advanced: wounds per body area; I: a bare count strikes the torso; a count must match its areas."""
    body = scorchball(
        wounds=[
            {"player": 101, "areas": {"torso": 2, "head": 1, "left_leg": 0}},
            {"player": 102, "wounds": 4},
            {"player": 103, "wounds": 3, "areas": {"right_arm": 3}},
        ]
    )
    rows = {r["player"]: r for r in parse(body, hr=ADV)["players"]}
    assert (rows[101]["areas"], rows[101]["wounds"]) == ({"head": 1, "torso": 2}, 3)
    assert (rows[102]["areas"], rows[102]["wounds"]) == ({"torso": 4}, 4)
    assert rows[103]["areas"] == {"right_arm": 3}
    refused(scorchball(wounds=[{"player": 101, "wounds": 2, "areas": {"head": 1}}]), "wounds[0].wounds", hr=ADV)
    refused(scorchball(wounds=[{"player": 101, "areas": {"tail": 1}}]), "wounds[0].areas", hr=ADV)


def test_critical_wound_entries():
    """R: the Critical Wound Chart is a d6; a side belongs to an arm or leg result only."""
    refused(scorchball(wounds=[{"player": 101, "critical": [7]}]), "wounds[0].critical[0]")
    refused(
        scorchball(wounds=[{"player": 101, "critical": [{"roll": 4, "side": "left"}]}]), "wounds[0].critical[0].side"
    )
    refused(scorchball(wounds=[{"player": 101, "critical": [{"roll": 2, "side": "up"}]}]), "wounds[0].critical[0].side")
    refused(scorchball(wounds=[{"player": 101, "critical": 2}]), "wounds[0].critical")


def test_critical_rolls_are_recorded_in_body_order():
    body = scorchball(wounds=[{"player": 202, "critical": [5, 1]}, {"player": 101, "critical": [{"roll": 3}]}])
    assert parse(body)["rolls"] == {"critical_wound": [5, 1, 3]}
    assert parse(scorchball())["rolls"] == {}
    assert "critical_wound" in BC.roll_catalogue(HR)


# --- Terminix ----------------------------------------------------------------------------------------------------

T3 = {**ROSTERS, 3: {300 + i: "active" for i in range(1, 11)}}


def terminix(*placings, eliminations=(0, 0, 0)) -> dict:
    return {
        "teams": [
            {"team": team, "placing": placing, "eliminations": elim}
            for team, placing, elim in zip((1, 2, 3), placings, eliminations, strict=False)
        ]
    }


def test_terminix_placings_outcomes_and_default_squads():
    """R Terminix: two or more teams; placing 1 wins, the others lose; I: the squad defaults to every player able
    to play (at most 12)."""
    result = parse(terminix(2, 1, 3, eliminations=(4, 7, 1)), rosters=T3, event="terminix")
    by_team = {t["team"]: t for t in result["teams"]}
    assert [by_team[t]["outcome"] for t in (1, 2, 3)] == ["loss", "win", "loss"]
    assert by_team[2]["casualties_inflicted"] == by_team[2]["eliminations"] == 7
    assert by_team[1]["score"] is None and by_team[1]["placing"] == 2
    assert by_team[1]["squad"] == sorted(ROSTERS[1])
    assert len(result["players"]) == 12 + 12 + 10


def test_terminix_placings_must_be_complete_and_distinct():
    """R: each placing from 1 to n goes to exactly one team."""
    assert "already" in refused(terminix(1, 1, 2), "teams[1].placing", rosters=T3, event="terminix").message
    refused(terminix(1, 2, 4), "teams[2].placing", rosters=T3, event="terminix")  # incomplete: no 3rd
    refused(terminix(1, None, 2), "teams[1].placing", rosters=T3, event="terminix")


def test_terminix_squad_of_twelve():
    """R: Terminix squads of 12; I: a team with more than 12 able players must list its squad."""
    rosters = {1: {100 + i: "active" for i in range(1, 15)}, 2: ROSTERS[2]}
    body = terminix(1, 2)
    refused(body, "teams[0].squad", rosters=rosters, event="terminix")
    body["teams"][0]["squad"] = [100 + i for i in range(1, 13)]
    assert len(parse(body, rosters=rosters, event="terminix")["teams"][0]["squad"]) == 12
    body["teams"][0]["squad"] = [100 + i for i in range(1, 14)]
    refused(body, "teams[0].squad", rosters=rosters, event="terminix")


def test_terminix_eliminations_cannot_exceed_the_opponents():
    """I: a team eliminates at most the players of the other squads."""
    rosters = {1: ROSTERS[1], 2: {201: "active", 202: "active"}}
    refused(terminix(1, 2, eliminations=(3, 0)), "teams[0].eliminations", rosters=rosters, event="terminix")


@pytest.mark.parametrize(("placing", "points"), [(1, 3), (2, 1), (3, 0), (5, 0)])
def test_terminix_league_points_by_placing(placing, points):
    """H: Terminix 1st 3, 2nd 1, others 0."""
    outcome = "win" if placing == 1 else "loss"
    assert BC.league_points(outcome=outcome, kind="league", hr=HR, event="terminix", placing=placing) == points


def test_friendlies_give_no_league_points_unless_the_commissioner_says_so():
    """H: friendlies give no points (friendlies_give_points)."""
    assert BC.league_points(outcome="win", kind="friendly", hr=HR, event="scorchball") == 0
    hr = dict(HR, friendlies_give_points=True)
    assert BC.league_points(outcome="win", kind="friendly", hr=hr, event="terminix", placing=1) == 3


# --- the match row and the team sheet ------------------------------------------------------------------------------


def test_player_match_row_counts_the_critical_wounds():
    """I: the row's wounds are every hit of the match — the plain wounds and the chart's wounds of each critical."""
    result = parse(scorchball(wounds=[{"player": 101, "wounds": 3, "critical": [2, 6]}]))
    row = BC.player_match_row(result["players"][0], mvp=False, hr=HR)
    assert row == {
        "wounds": 3 + 2 + 4,
        "detail": {
            "areas": {},
            "critical": [
                {"roll": 2, "key": "incapacitated_leg", "side": None},
                {"roll": 6, "key": "severed_arm", "side": None},
            ],
            "plain_wounds": 3,
            "squad": True,
        },
    }


def test_player_summary_for_the_team_sheet():
    """R: the Goalie's armour, an incapacitated leg's −2 movement; H: Elite after 5 matches."""
    template = next(r for r in BC.roster_data() if r["key"] == "elves")["health_template"]
    player = PlayerView(
        id=1,
        name="Ael",
        number=1,
        position="player",
        status="active",
        spp=0,
        skills=(),
        attributes={"move": 6},
        value=0,
        role="goalie",
        wounds=4,
        armour_used=1,
        conditions=({"key": "incapacitated_leg", "side": "left"},),
        matches_survived=5,
        race="elves",
        health_template=template,
    )
    summary = BC.player_summary(player, HR)
    assert summary == {
        "armour_boxes": 1,
        "wound_limit": 10,
        "movement": 4,
        "elite": False,
        "conditions": ["incapacitated left leg (movement −2 until healed)"],
        "qualifies_for_elite": True,
    }
    assert BC.player_summary(player, ADV)["armour_boxes"] == 3 + 3
    assert BC.player_summary(player, ADV)["wound_limit"] == 36
