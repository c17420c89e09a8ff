"""Every ruleset's declared match-page presentation (campaigns/rulesets/<key>/pages.py) is one the web layer
knows: its result form kind, its report sections (each with a builder and a partial), its decisions' widgets —
the pages ask the registry and keep catalogues keyed by kind, never by ruleset name."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from campaigns.rulesets import REGISTRY
from matches.web.forms import RESULT_FORMS
from matches.web.forms.decisions import WIDGETS
from matches.web.report_sections import SECTIONS

RULESETS = sorted(REGISTRY)


@pytest.mark.parametrize("key", RULESETS)
def test_each_rulesets_presentation_is_in_the_web_catalogues(key):
    rules = REGISTRY[key]
    assert rules.result_form in RESULT_FORMS
    assert rules.match_report_sections and all(section in SECTIONS for section in rules.match_report_sections)
    for section in rules.match_report_sections:
        assert (Path(settings.BASE_DIR) / "templates" / "matches" / "report" / f"_{section}.html").is_file()
    assert set(rules.decision_widgets.values()) <= set(WIDGETS)


@pytest.mark.parametrize("key", RULESETS)
def test_each_result_form_gets_the_choices_it_offers_from_its_ruleset(key):
    """The choices come from the rules' own data under the house rules (never a copy in the forms)."""
    rules = REGISTRY[key]
    choices = rules.result_choices(rules.default_house_rules())
    assert choices and all(isinstance(options, (list, dict)) for options in choices.values())


def test_bone_cruncher_result_choices_are_the_leagues_chart_and_the_rules_body_areas():
    """rules/bonecruncher.md "Wounds": the result form offers the league's Critical Wound Chart (a commissioner's
    renamed result included) and the body areas of the wounds rules."""
    from campaigns.rulesets.bonecruncher import wounds

    rules = REGISTRY["bonecruncher"]
    hr = rules.default_house_rules()
    hr["critical_wound_chart"]["results"]["5"]["name"] = "Cracked skull"

    choices = rules.result_choices(hr)

    assert (5, "5: Cracked skull") in choices["critical"]
    assert choices["chart"][2] == "leg" and choices["chart"][5] == "head"
    assert [area for area, _ in choices["area"]] == list(wounds.AREAS)


def test_elfball_result_choices_follow_the_basic_rules_and_the_potion_die():
    """rules/elfball.md "Injuries", "Magic Potion": basic-rules leagues record the basic outcomes; the potion
    select has a face per side of the league's die."""
    rules = REGISTRY["elfball"]
    hr = rules.default_house_rules()
    advanced = dict(rules.result_choices(hr)["grit"])
    basic = dict(rules.result_choices({**hr, "basic_mode": True})["grit"])

    assert "career_ending" in advanced and "career_ending" not in basic
    assert len(rules.result_choices({**hr, "magic_potion_die": "d6"})["potion"]) == 1 + 6


def test_no_match_page_or_template_branches_on_a_ruleset():
    """The pages ask the registry: no `ruleset == …` / `.key == …` in matches/ or templates/matches/."""
    import re

    root = Path(settings.BASE_DIR)
    branch = re.compile(r"ruleset\s*==|\.key\s*==|ruleset\s+in\s*\(")
    found = [
        f"{path.relative_to(root)}:{n}"
        for pattern in ("matches/**/*.py", "templates/matches/**/*.html")
        for path in sorted(root.glob(pattern))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if branch.search(line)
    ]
    assert found == []
