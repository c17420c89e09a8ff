"""Issue 14 for ElfBall (api-v1 v1.1 "Players and leaders": elfball `goals`, the goals scored with the player on the
field, and `goal_points`): two matches played through the API, the leaders, a player's career and the records
worked out by hand, and a commissioner's correction changing them. R (ElfBall "Goal Points"): every player on
the field when his team scores gains 1 Goal Point."""

from __future__ import annotations

import pytest

from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire
from tests.league.test_report_content import ELF_STEPS, ids, play, walk

pytestmark = pytest.mark.django_db


@pytest.fixture
def elf(api_as, commissioner):
    league = LeagueFactory(created_by=commissioner, name="Elf Leaders", ruleset="elfball")
    ann, ben = UserFactory(username="elf-ann"), UserFactory(username="elf-ben")
    widows = TeamFactory(league=league, coach=ann, name="Ash Widows", roster="black_widows")
    razors = TeamFactory(league=league, coach=ben, name="Bog Razorbacks", roster="razorbacks")
    for n, position in enumerate(["hunter", "midfielder", "midfielder", "striker", "striker", "striker", "hunter"], 1):
        hire(widows, position, name=f"A{n}", number=n)
    for n in range(1, 8):
        hire(razors, "hunter" if n <= 4 else "midfielder", name=f"B{n}", number=n)
    a, b = ids(widows), ids(razors)
    # Widows 9–0 Razorbacks (9 Tests to win): nine goals with A1, A3, A5 on the field.
    first = play(
        api_as,
        commissioner,
        ben,
        league,
        [widows, razors],
        {
            "teams": [{"team": widows.pk, "score": 9}, {"team": razors.pk, "score": 0}],
            "goals": [{"team": widows.pk, "on_field": [a[1], a[3], a[5]]}] * 9,
        },
        tests_to_win=9,
    )
    for team in (widows, razors):
        walk(api_as, commissioner, first, team, ELF_STEPS)
    # Widows 2–1 Razorbacks: two goals with A1, A2, A4 on the field, one with B1, B2.
    second = play(
        api_as,
        commissioner,
        ben,
        league,
        [widows, razors],
        {
            "teams": [{"team": widows.pk, "score": 2}, {"team": razors.pk, "score": 1}],
            "goals": [
                {"team": widows.pk, "on_field": [a[1], a[2], a[4]]},
                {"team": widows.pk, "on_field": [a[1], a[2], a[4]]},
                {"team": razors.pk, "on_field": [b[1], b[2]]},
            ],
        },
    )
    return {"league": league, "widows": widows, "razors": razors, "a": a, "b": b, "matches": [first, second]}


def board(api, league, stat, season="all"):
    response = api.get(f"/api/v1/leagues/{league.pk}/leaders/?stat={stat}&season={season}")
    assert response.status_code == 200, response.content
    return [(row["name"], row["value"]) for row in response.json()["rows"]]


def test_goals_and_goal_points_leaders_worked_by_hand(api, elf):
    """A1 was on the field for all 11 goals; A3 and A5 for the nine of the first match; A2 and A4 for two; B1
    and B2 for the Razorbacks' one. Ties by name."""
    league = elf["league"]
    expected = [("A1", 11), ("A3", 9), ("A5", 9), ("A2", 2), ("A4", 2), ("B1", 1), ("B2", 1)]
    assert board(api, league, "goals") == expected
    assert board(api, league, "goal_points") == expected
    assert board(api, league, "goals", 1) == expected  # the open season is the only one


def test_a_players_career_and_the_records(api, elf):
    a1 = elf["a"][1]
    body = api.get(f"/api/v1/players/{a1}/").json()
    assert (body["career"]["matches"], body["career"]["goals"], body["career"]["goal_points"]) == (2, 11, 11)
    assert [(h["match"], h["goals"]) for h in body["history"]] == [(elf["matches"][1], 2), (elf["matches"][0], 9)]
    records = api.get(f"/api/v1/leagues/{elf['league'].pk}/records/").json()
    assert records["headline"] == "goals" and records["casualties"] is None
    in_a_match = records["players"]["goals"]["match"]
    assert [(r["name"], r["value"]) for r in in_a_match[:3]] == [("A1", 9), ("A3", 9), ("A5", 9)]
    assert records["biggest_wins"][0]["margin"] == 9 and records["biggest_wins"][0]["team_name"] == "Ash Widows"


def test_a_correction_changes_the_goals_leaders_and_the_career(api, api_as, commissioner, elf):
    """The second match corrected to 2–0 (a Test match has a winner): both goals with A2, A4, A6 on the field,
    A1 on the bench; the Razorbacks' goal struck out."""
    a, second = elf["a"], elf["matches"][1]
    assert board(api, elf["league"], "goals")[0] == ("A1", 11)  # cached now
    corrected = {
        "teams": [{"team": elf["widows"].pk, "score": 2}, {"team": elf["razors"].pk, "score": 0}],
        "goals": [{"team": elf["widows"].pk, "on_field": [a[2], a[4], a[6]]}] * 2,
    }
    response = api_as(commissioner).post(f"/api/v1/matches/{second}/correct/", corrected, format="json")
    assert response.status_code == 200, response.json()
    expected = [("A1", 9), ("A3", 9), ("A5", 9), ("A2", 2), ("A4", 2), ("A6", 2)]
    assert board(api, elf["league"], "goals") == expected
    assert board(api, elf["league"], "goal_points") == expected
    assert api.get(f"/api/v1/players/{a[1]}/").json()["career"]["goals"] == 9
