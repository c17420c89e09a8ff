"""The shopping turns of the pre-match sequence (the scheduled match of tests/web/conftest.py)."""

from __future__ import annotations

import pytest

from matches.prematch import prematch_post
from tests.web.prematchpages.helpers import run_weather_and_fans


@pytest.fixture
def superior_turn(match, humes, goblins):
    run_weather_and_fans(match, humes, goblins)
    return match


@pytest.fixture
def underdog_turn(superior_turn, humes):
    """The Humes closed their shopping without buying: the Goblins' turn."""
    prematch_post(user=humes.coach, match_id=superior_turn.pk, step="inducements_superior", choices={"done": True})
    return superior_turn
