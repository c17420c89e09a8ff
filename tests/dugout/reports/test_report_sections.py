"""The weekly report's sections come from the ruleset registry (dugout.reports.sections).

Each ruleset lists its sections in order (`Ruleset.weekly_report_sections`, campaigns/rulesets/<key>/report.py)
and words what differs per game (`Ruleset.words`); the report code keeps a catalogue keyed by section name and never
asks which game it is. The full content of each game's report is pinned in test_report_content.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from campaigns.rulesets import REGISTRY, get_ruleset
from dugout.reports import build_report
from dugout.reports.sections import SECTIONS
from tests.dugout.reports.test_report_content import week_window
from tests.factories import LeagueFactory

FRAME = ["league", "week_start", "week_end", "headline", "no_matches", "terms"]


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_every_section_a_ruleset_lists_is_in_the_catalogue_once(key):
    rules = get_ruleset(key)
    assert rules.weekly_report_sections, key
    assert [s for s in rules.weekly_report_sections if s not in SECTIONS] == []
    assert len(set(rules.weekly_report_sections)) == len(rules.weekly_report_sections)
    assert set(rules.report_terms) == {"score", "score_short", "value_unit"}
    for board in (rules.report_scorers, rules.report_casualties):
        assert board is None or (len(board) == 3 and board[0] in ("player", "team"))


def test_the_report_code_names_no_ruleset():
    root = Path(settings.BASE_DIR)
    files = sorted((root / "dugout" / "reports").glob("*.py"))
    assert root / "dugout" / "reports" / "services.py" in files
    found = [
        f"{path.relative_to(root)}:{n}: {line.strip()}"
        for path in files
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"ruleset *(==|!=|in\b)|\.key *==", line)
    ]
    assert found == []


@pytest.mark.django_db
def test_the_report_has_the_sections_its_ruleset_lists_in_that_order(monkeypatch, commissioner):
    league = LeagueFactory(created_by=commissioner, ruleset="bonecruncher")
    monkeypatch.setattr(get_ruleset("bonecruncher"), "weekly_report_sections", ("fixtures", "bonecruncher", "results"))
    start, end = week_window()
    report = build_report(league=league, week_start=start, week_end=end)
    assert list(report) == [*FRAME, "fixtures", "bonecruncher", "results"]
    assert report["headline"] == "No matches played this week"
    assert report["terms"] == {"score": "points", "score_short": "Pts", "casualties": "eliminations", "value_unit": ""}


@pytest.mark.django_db
def test_a_section_with_nothing_to_say_leaves_itself_out(commissioner):
    # A Blitz Bowl league with no team yet has no team value: no movers and no chart, though Blitz Bowl lists them.
    league = LeagueFactory(created_by=commissioner, ruleset="blitzbowl")
    start, end = week_window()
    report = build_report(league=league, week_start=start, week_end=end)
    sections = get_ruleset("blitzbowl").weekly_report_sections
    assert "tv_movers" in sections and "chart" in sections
    assert "tv_movers" not in report and "chart" not in report
    assert list(report) == FRAME + [
        s for s in get_ruleset("blitzbowl").weekly_report_sections if s not in ("tv_movers", "chart")
    ]


# --- the sentences each game's words give the report ---------------------------------------------------------------


def test_blitz_bowl_serious_injuries_are_a_missed_match_a_niggle_or_a_lost_attribute():
    # rules/blitzbowl.md "Injuries recorded on a result": badly hurt heals by the next match; a death has its own
    # section.
    words = get_ruleset("blitzbowl").words
    assert words.serious_injury({"injury": "stat_loss", "injury_detail": "ag"}) == (
        "stat_loss",
        ["lasting injury: −1 AG"],
    )
    assert words.serious_injury({"injury": "miss_next_match"}) == ("miss_next_match", ["misses the next match"])
    assert words.serious_injury({"injury": "badly_hurt"})[1] == []
    assert words.serious_injury({"injury": "dead"})[1] == []
    assert words.report_headline(sides=[{"score": 1, "casualties_inflicted": 1}], rows=[]) == [
        "1 touchdown",
        "1 casualty",
    ]


def test_elfball_headline_counts_tests_won_and_goal_points():
    words = get_ruleset("elfball").words
    sides = [{"score": 2}, {"score": 1}]
    assert words.report_headline(sides=sides, rows=[{"goal_points": 1}]) == ["3 Tests won", "1 Goal Point"]
    assert words.serious_injury({"injury": "", "detail": {"lasting": [{"cause": "potion", "attribute": "dodge"}]}}) == (
        "lasting_injury",
        ["seizure (Magic Potion): Dodge −1"],
    )


def test_a_lasting_critical_wound_reads_as_its_condition_and_honours_severed_arm_heals():
    # rules/bonecruncher.md "Wounds": criticals 2, 3 and 6 last between matches; H: a severed arm never heals
    # unless the league's house rule `trainer_healing.severed_arm_heals` says so.
    rules = get_ruleset("bonecruncher")
    hr = rules.default_house_rules()
    words = rules.words
    assert words.critical_wound({"roll": 6, "side": "left"}, hr=hr) == "severed left arm (never heals)"
    assert words.critical_wound({"roll": 2, "side": "right"}, hr=hr) == words.condition(
        {"key": "incapacitated_leg", "side": "right"}, hr=hr
    )
    hr["trainer_healing"]["severed_arm_heals"] = True
    assert words.critical_wound({"roll": 6, "side": "left"}, hr=hr) == "severed left arm"
    # A passing one reads as the chart names it.
    assert words.critical_wound({"roll": 1, "side": "right"}, hr=hr) == "Stunned arm (right)"
    assert words.critical_wound({"roll": 5}, hr=hr) == "Head wound"
    assert words.serious_injury({"injury": "", "detail": {"critical": [{"roll": 4}]}}, hr=hr) == (
        "critical_wound",
        ["Torso wound"],
    )
