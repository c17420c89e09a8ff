"""A post-match step declares the parts of its views it reads (`Step.reads`); the engine loads only those and
puts `Unread` in place of the others, which fails loudly when touched — so a step that reads more than it
declares is caught by its rule tests (tests/matches/test_blitzbowl_steps.py, rules/blitzbowl.md "Post-match
sequence"), never answered from an empty part."""

from __future__ import annotations

import pytest

from campaigns import engine
from campaigns.rulesets import get_ruleset


@pytest.mark.parametrize("use", [iter, len, bool, lambda p: p[0], lambda p: 1 in p, lambda p: p.items()])
def test_an_unread_part_fails_loudly_however_it_is_touched(use):
    with pytest.raises(engine.UnreadPart, match="players"):
        use(engine.Unread("players"))


def test_a_step_cannot_declare_a_part_the_engine_does_not_know():
    with pytest.raises(ValueError, match="injuries"):
        engine.Step("x", "X", lambda ctx: None, reads=frozenset({"players", "injuries"}))


def test_a_step_without_a_declaration_reads_every_part():
    step = engine.Step("x", "X", lambda ctx: None)
    assert step.view_parts() == engine.VIEW_PARTS


def test_every_blitzbowl_step_declares_what_it_reads_rules_blitzbowl_postmatch_sequence():
    """R ("Post-match sequence" 1-5): each of the five steps reads the players; only Improvements the match rows,
    only Fortune the sponsorships, only Hire and fire and Prepare the roster's positions (a journeyman's cost;
    the Team Value recorded at the end)."""
    reads = {s.key: s.reads for s in get_ruleset("blitzbowl").postmatch_steps}
    assert reads == {
        "improvements": {"players", "player_rows"},
        "team_stats": {"players"},
        "fortune": {"players", "sponsorships"},
        "hire_fire": {"players", "positions"},
        "prepare": {"players", "positions"},
    }
