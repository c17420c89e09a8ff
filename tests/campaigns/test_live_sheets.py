"""Each ruleset's live match sheet (campaigns/rulesets/<key>/live.py): the taps fold into exactly the result
body the API takes (api-v1 "Result body"), and that body passes the ruleset's own `parse_result`.

Properties: for any sequence of legal taps, the folded body is accepted by parse_result (where the taps make a
legal result), each team's score is what its scoring taps add, and every tapped counter lands on the tapped
player. Unit tests pin the shapes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset
from campaigns.rulesets.live import check_event

HOME, AWAY = 11, 12
TEAMS = {HOME: [101, 102, 103, 104, 105, 106], AWAY: [201, 202, 203, 204, 205, 206]}
ROSTERS = {team: dict.fromkeys(players, "active") for team, players in TEAMS.items()}


def ev(kind, team, player=None, players=(), option=""):
    return {"kind": kind, "team": team, "player": player, "players": list(players), "option": option}


def sheet(key, **overrides):
    rules = get_ruleset(key)
    hr = rules.default_house_rules()
    for name, value in overrides.items():
        hr[name] = value
    return rules, hr


# --- Blitz Bowl (rules/blitzbowl.md "Star Player Points", "Injuries recorded on a result") ---------------------


def test_blitzbowl_taps_fold_into_the_result_body_the_api_takes():
    rules, hr = sheet("blitzbowl")
    events = [
        ev("touchdown", HOME, 101),
        ev("completion", HOME, 102),
        ev("touchdown", HOME, 101),
        ev("casualty", AWAY, 203),
        ev("interception", AWAY, 204),
        ev("touchdown", AWAY, 205),
        ev("injury", HOME, 103, option="miss_next_match"),
        ev("injury", AWAY, 206, option="stat_loss:ag"),
        ev("mvp", HOME, 102),
        ev("mvp", HOME, 104),  # the latest MVP of a team is the one recorded
        ev("mvp", AWAY, 201),
    ]
    body = rules.live_result_body(events, teams=TEAMS, hr=hr)
    assert body == {
        "teams": [
            {"team": HOME, "score": 2, "casualties_inflicted": 0, "mvp": 104},
            {"team": AWAY, "score": 1, "casualties_inflicted": 1, "mvp": 201},
        ],
        "players": [
            {"player": 101, "touchdowns": 2},
            {"player": 102, "completions": 1},
            {"player": 103, "injury": "miss_next_match"},
            {"player": 203, "casualties": 1},
            {"player": 204, "interceptions": 1},
            {"player": 205, "touchdowns": 1},
            {"player": 206, "injury": "stat_loss", "stat": "ag"},
        ],
    }
    result = rules.parse_result(body, rosters=ROSTERS, event="", hr=hr)
    assert [t["outcome"] for t in result["teams"]] == ["win", "loss"]


def test_blitzbowl_offers_every_injury_of_the_league_and_a_stat_loss_per_stat():
    rules, hr = sheet("blitzbowl")
    injury = next(k for k in rules.live_events(hr) if k.kind == "injury")
    values = [v for v, _ in injury.options]
    assert "stat_loss" not in values
    assert {f"stat_loss:{s}" for s in hr["stat_loss_attributes"]} <= set(values)
    assert {"badly_hurt", "miss_next_match", "niggling", "dead"} <= set(values)


KINDS = st.sampled_from(["touchdown", "casualty", "completion", "interception", "mvp"])
PLAYERS = st.sampled_from([p for ps in TEAMS.values() for p in ps])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(KINDS, PLAYERS), max_size=30))
def test_blitzbowl_any_taps_fold_into_a_body_parse_result_accepts_with_the_tapped_counts(taps):
    rules, hr = sheet("blitzbowl")
    team_of = {p: t for t, ps in TEAMS.items() for p in ps}
    events = [ev(kind, team_of[p], p) for kind, p in taps]
    body = rules.live_result_body(events, teams=TEAMS, hr=hr)
    result = rules.parse_result(body, rosters=ROSTERS, event="", hr=hr)
    for line in result["teams"]:
        assert line["score"] == sum(1 for k, p in taps if k == "touchdown" and team_of[p] == line["team"])
    rows = {r["player"]: r for r in result["players"]}
    for stat, kind in (("touchdowns", "touchdown"), ("casualties", "casualty"), ("completions", "completion")):
        for p in team_of:
            tapped = sum(1 for k, q in taps if k == kind and q == p)
            assert rows.get(p, {}).get(stat, 0) == tapped
    assert rules.live_score(events, teams=TEAMS, hr=hr) == {t["team"]: t["score"] for t in result["teams"]}


# --- ElfBall (rules/elfball.md "Matches", "Goal Points and abilities", "Injuries") -------------------------------


def test_elfball_goals_carry_the_players_on_the_field_and_win_the_tests():
    rules, hr = sheet("elfball")
    events = [
        ev("goal", HOME, players=[101, 102, 103]),
        ev("goal", AWAY, players=[201, 202]),
        ev("injury", AWAY, 203, option="out_for_game"),
        ev("goal", HOME, players=[101, 104]),
    ]
    body = rules.live_result_body(events, teams=TEAMS, hr=hr)
    assert body == {
        "teams": [{"team": HOME, "score": 2}, {"team": AWAY, "score": 1}],
        "goals": [
            {"team": HOME, "on_field": [101, 102, 103]},
            {"team": AWAY, "on_field": [201, 202]},
            {"team": HOME, "on_field": [101, 104]},
        ],
        "players": [{"player": 203, "injury": "out_for_game"}],
    }
    result = rules.parse_result(body, rosters=ROSTERS, event="", hr=hr, context={"tests_to_win": 2})
    assert [t["outcome"] for t in result["teams"]] == ["win", "loss"]
    assert not rules.live_events(hr)[0].once  # ElfBall has no MVP
    assert all(k.kind != "mvp" for k in rules.live_events(hr))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_elfball_any_goals_to_a_win_fold_into_a_body_parse_result_accepts(data):
    rules, hr = sheet("elfball")
    winner = data.draw(st.sampled_from([HOME, AWAY]))
    loser_goals = data.draw(st.integers(0, 1))
    order = data.draw(st.permutations([winner, winner] + [HOME if winner == AWAY else AWAY] * loser_goals))
    events = [
        ev("goal", t, players=data.draw(st.lists(st.sampled_from(TEAMS[t]), min_size=1, max_size=6, unique=True)))
        for t in order
    ]
    body = rules.live_result_body(events, teams=TEAMS, hr=hr)
    result = rules.parse_result(body, rosters=ROSTERS, event="", hr=hr, context={"tests_to_win": 2})
    assert {t["team"]: t["outcome"] for t in result["teams"]}[winner] == "win"
    assert len(body["goals"]) == len(events)


# --- Bone Cruncher (rules/bonecruncher.md "Events", "Wounds") ----------------------------------------------------


def test_bonecruncher_points_wounds_and_critical_wounds_fold_into_the_scorchball_body():
    rules, hr = sheet("bonecruncher")
    events = [
        ev("point", HOME),
        ev("wound", AWAY, 202),
        ev("wound", AWAY, 202),
        ev("critical", HOME, 103, option="6"),
        ev("point", HOME),
        ev("point", AWAY),
    ]
    body = rules.live_result_body(events, teams=TEAMS, hr=hr, event="scorchball")
    assert body == {
        "teams": [{"team": HOME, "score": 2}, {"team": AWAY, "score": 1}],
        "wounds": [
            {"player": 103, "wounds": 0, "critical": [6]},
            {"player": 202, "wounds": 2, "critical": []},
        ],
    }
    result = rules.parse_result(body, rosters=ROSTERS, event="scorchball", hr=hr)
    assert [t["outcome"] for t in result["teams"]] == ["win", "loss"]
    assert result["rolls"] == {"critical_wound": [6]}


def test_bonecruncher_advanced_wounds_are_tapped_per_body_area():
    rules, hr = sheet("bonecruncher", advanced_wounds=True)
    wound = next(k for k in rules.live_events(hr) if k.kind == "wound")
    assert [v for v, _ in wound.options] == ["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"]
    events = [ev("wound", HOME, 101, option="head"), ev("wound", HOME, 101, option="left_leg")]
    events.append(ev("wound", HOME, 101, option="head"))
    body = rules.live_result_body(events, teams=TEAMS, hr=hr)
    assert body["wounds"] == [{"player": 101, "wounds": 3, "critical": [], "areas": {"head": 2, "left_leg": 1}}]
    result = rules.parse_result(body, rosters=ROSTERS, event="", hr=hr)
    row = next(r for r in result["players"] if r["player"] == 101)
    assert row["areas"] == {"head": 2, "left_leg": 1}


def test_bonecruncher_terminix_taps_placings_and_eliminations_and_a_player_sitting_out_leaves_the_squad():
    rules, hr = sheet("bonecruncher")
    third = {13: [301, 302]}
    teams = {**TEAMS, **third}
    kinds = {k.kind: k for k in rules.live_events(hr, event="terminix", teams=3)}
    assert [v for v, _ in kinds["placing"].options] == ["1", "2", "3"]
    assert "point" not in kinds
    events = [
        ev("elimination", HOME),
        ev("elimination", HOME),
        ev("placing", AWAY, option="1"),
        ev("placing", AWAY, option="2"),  # the latest placing is the one recorded
        ev("placing", HOME, option="1"),
        ev("placing", 13, option="3"),
        ev("sits_out", 13, 302),
    ]
    body = rules.live_result_body(events, teams=teams, hr=hr, event="terminix")
    assert body["teams"] == [
        {"team": HOME, "placing": 1, "eliminations": 2},
        {"team": AWAY, "placing": 2, "eliminations": 0},
        {"team": 13, "placing": 3, "eliminations": 0, "squad": [301]},
    ]
    rosters = {t: dict.fromkeys(ps, "active") for t, ps in teams.items()}
    result = rules.parse_result(body, rosters=rosters, event="terminix", hr=hr)
    assert [t["outcome"] for t in result["teams"]] == ["win", "loss", "loss"]


def test_bonecruncher_a_team_bigger_than_the_squad_names_its_squad():
    rules, hr = sheet("bonecruncher")
    teams = {HOME: list(range(101, 110)), AWAY: TEAMS[AWAY]}
    body = rules.live_result_body([ev("sits_out", HOME, 109)], teams=teams, hr=hr)
    assert body["teams"][0] == {"team": HOME, "squad": list(range(101, 109)), "score": 0}
    assert "squad" not in body["teams"][1]


# --- the shared checks -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"kind": "sneeze", "player": 101}, "kind"),
        ({"kind": "touchdown", "player": 999}, "player"),
        ({"kind": "touchdown", "player": "101"}, "player"),
        ({"kind": "touchdown", "player": 101, "team": AWAY}, "team"),
        ({"kind": "injury", "player": 101, "option": "sneezed"}, "option"),
        ({"kind": "touchdown", "player": 101, "option": "twice"}, "option"),
        ({"kind": "touchdown", "player": True}, "player"),
    ],
)
def test_a_tap_the_sheet_does_not_offer_is_refused_naming_the_field(raw, field):
    rules, hr = sheet("blitzbowl")
    with pytest.raises(RuleViolation) as refused:
        rules.live_check_event(raw, teams=TEAMS, hr=hr)
    assert refused.value.field == field


def test_a_goal_with_players_of_both_teams_is_refused():
    rules, hr = sheet("elfball")
    with pytest.raises(RuleViolation) as refused:
        check_event({"kind": "goal", "players": [101, 201]}, events=rules.live_events(hr), teams=TEAMS)
    assert refused.value.field == "players"


def test_a_tapped_event_is_normalised_with_its_team():
    rules, hr = sheet("blitzbowl")
    assert rules.live_check_event({"kind": "touchdown", "player": 201}, teams=TEAMS, hr=hr) == ev(
        "touchdown", AWAY, 201
    )


@pytest.mark.parametrize("key", ["blitzbowl", "elfball"])
def test_a_team_that_concedes_is_recorded_as_conceding_and_loses(key):
    """R (rules/blitzbowl.md, rules/elfball.md "Conceding"): the conceding team loses."""
    rules, hr = sheet(key)
    events = [ev("concede", AWAY)]
    body = rules.live_result_body(events, teams=TEAMS, hr=hr)
    assert body["teams"][1]["conceded"] is True
    assert "conceded" not in body["teams"][0]
    result = rules.parse_result(body, rosters=ROSTERS, event="", hr=hr, context={"tests_to_win": 2})
    assert [t["outcome"] for t in result["teams"]] == ["win", "loss"]
