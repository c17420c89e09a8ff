"""A player's row on the result form is the one its ruleset declares (`result_row_fields` in the ruleset's
presentation): the form's fields and the table's column headings both follow that declaration, never a list of
their own."""

from __future__ import annotations

import re

import pytest

from campaigns.rulesets import REGISTRY
from campaigns.rulesets.presentation import ResultField
from tests.web.matchpages.helpers import players, result_url, text

pytestmark = pytest.mark.django_db


def _headings(page: str) -> list[str]:
    head = re.search(r'<table class="grid players">.*?<thead>(.*?)</thead>', page, flags=re.S).group(1)
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in re.findall(r"<th\b[^>]*>(.*?)</th>", head)]


def _row_names(page: str, player) -> list[str]:
    return re.findall(rf'name="player_{player.pk}_(\w+)"', page)


def test_the_result_table_is_headed_and_filled_by_the_declared_row_fields(client, match, humes, coach):
    declared = REGISTRY["blitzbowl"].result_row_fields
    client.force_login(coach)

    page = text(client.get(result_url(match)))

    assert _headings(page) == ["Player"] + [field.abbr or field.label for field in declared]
    assert _row_names(page, players(humes)[1]) == [field.key for field in declared]
    assert '<abbr title="Touchdowns">TD</abbr>' in page


def test_a_change_to_the_declaration_is_the_pages_change(client, match, humes, coach, monkeypatch):
    """Declared once: drop a counter and add a hint in the ruleset's presentation, and the form and its table
    follow with nothing else changed."""
    rules = REGISTRY["blitzbowl"]
    fields = tuple(f for f in rules.result_row_fields if f.key != "completions")
    fields = (ResultField("touchdowns", "Touchdowns", abbr="TD", hint="(each one)"), *fields[1:])
    monkeypatch.setattr(rules, "result_row_fields", fields)
    client.force_login(coach)

    page = text(client.get(result_url(match)))

    assert _row_names(page, players(humes)[1]) == [f.key for f in fields]
    assert "completions" not in _row_names(page, players(humes)[2])
    assert _headings(page)[:2] == ["Player", "TD (each one)"] and "CP" not in _headings(page)
