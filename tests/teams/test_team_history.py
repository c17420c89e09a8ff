"""The team sheet's history (issue 14, brief I): its final matches newest first (date, opponent, score, outcome,
a link to the report), 50 a page; W-D-L and the current streak; server-drawn charts of the series the ruleset
declares (`Ruleset.team_series`), from the sides' pre-match snapshots, with a table fallback — and a correction
changes them."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from campaigns.rulesets import get_ruleset
from teams.history import PAGE, page_of, record
from tests.dugout.reports.test_report_content import BLITZ_STEPS, play, walk
from tests.dugout.test_ratings import _three_teams, res

pytestmark = pytest.mark.django_db


def test_w_d_l_and_the_current_streak():
    rows = [{"outcome": o} for o in ("win", "loss", "draw", "win", "win")]
    assert record(rows) == {"won": 3, "drawn": 1, "lost": 1, "streak": "W2"}
    assert record([]) == {"won": 0, "drawn": 0, "lost": 0, "streak": ""}


def test_the_history_is_paged_fifty_newest_first():
    rows = [{"match": n} for n in range(1, PAGE + 8)]
    first, second = page_of(rows, 1), page_of(rows, "2")
    assert [r["match"] for r in first["rows"]][:2] == [PAGE + 7, PAGE + 6] and len(first["rows"]) == PAGE
    assert len(second["rows"]) == 7 and second["previous"] == 1 and second["next"] is None
    assert page_of(rows, "x")["number"] == 1 and page_of(rows, 99)["number"] == 2


def test_only_the_declared_series_are_charted():
    """No ruleset branch outside campaigns/: the registry says which team series a game keeps."""
    assert [k for k, _ in get_ruleset("blitzbowl").team_series] == ["team_value", "treasury", "fan_factor"]
    assert get_ruleset("bonecruncher").team_series == ()


def test_the_sheet_shows_the_history_record_and_charts_and_a_correction_changes_them(api_as, client):
    commissioner, league, a, b, c = _three_teams(api_as, "H")
    first = play(api_as, commissioner, b.coach, league, [a, b], res(a, 1, b, 0))
    walk(
        api_as,
        commissioner,
        first,
        a,
        BLITZ_STEPS,
        fortune=({"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [3], "fan_factor": [1, 1, 1]}),
        prepare=({}, {"expensive_mistakes": [6]}),
    )
    second = play(api_as, commissioner, c.coach, league, [a, c], res(a, 1, c, 1))
    page = client.get(f"/teams/{a.pk}/").content.decode()
    assert "Won 1, drawn 1, lost 0" in page and "current streak: <strong>D1</strong>" in page
    assert page.index("H C") < page.index("H B")  # newest first
    assert f'href="/matches/{second}/"' in page and "1–1" in page and "1–0" in page
    for key in ("team_value", "treasury", "fan_factor"):
        assert f'id="team-chart-{key}"' in page
    svg = page[page.index("<svg") : page.index("</svg>") + 6]
    root = ET.fromstring(svg)
    assert root.find("{http://www.w3.org/2000/svg}title").text == "Team value (gil) before each match"
    assert "style=" not in svg
    # Eleven linemen: 55,000 before each match (the table fallback lists them).
    assert "<td>55000</td>" in page

    response = api_as(commissioner).post(f"/api/v1/matches/{second}/correct/", res(a, 0, c, 1), format="json")
    assert response.status_code == 200, response.json()
    page = client.get(f"/teams/{a.pk}/").content.decode()
    assert "Won 1, drawn 0, lost 1" in page and "current streak: <strong>L1</strong>" in page
