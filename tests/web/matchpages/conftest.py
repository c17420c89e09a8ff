"""Fixtures of the match pages' tests: Humes v Goblins with full teams, scheduled and played (final)."""

from __future__ import annotations

import pytest

from matches import services
from tests.web.matchpages.helpers import fill, play_standard


@pytest.fixture
def humes(team):
    """Alice's Humes with eleven linemen (treasury 45,000)."""
    fill(team, "lineman", "Hume")
    return team


@pytest.fixture
def goblins(other_team):
    """Bob's Goblins with eleven goblins (treasury 56,000)."""
    fill(other_team, "goblin", "Gob")
    return other_team


@pytest.fixture
def match(league, humes, goblins):
    """Humes (home) v Goblins, scheduled by Alice."""
    return services.match_schedule(user=humes.coach, league=league, team_ids=[humes.pk, goblins.pk])


@pytest.fixture
def final(match, humes, goblins):
    play_standard(match, humes, goblins)
    return match
