"""Issue 14 for ElfBall (api-v1 v1.1 "Players and leaders": elfball `goals`, the goals scored with the player on the
field, and `goal_points`): two matches played through the API, the leaders, a player's career and the records
worked out by hand, and a commissioner's correction changing them. R (ElfBall "Goal Points"): every player on
the field when his team scores gains 1 Goal Point."""

from __future__ import annotations

import pytest

from tests.dugout.reports.test_report_content import elf_cup, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def elf(api_as, commissioner):
    cup = elf_cup(api_as, commissioner, "Elf Leaders", ("elf-ann", "elf-ben"))
    league, widows, razors, a, b = (cup[k] for k in ("league", "widows", "razors", "a", "b"))
    # Widows 2–1 Razorbacks: two goals with A1, A2, A4 on the field, one with B1, B2.
    second = play(
        api_as,
        commissioner,
        cup["ben"],
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
    return {**cup, "matches": [cup["first"], second]}


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
