"""Where a match's pre-match sequence stands, as every reader asks it: whose shopping turn is open, whose coach
its current step waits for, and whether it holds the result up. Pure reads of the sequence's row and the
ruleset's steps: the pre-match services (matches/prematch.py), the result services' refusal and the list of what
waits for whom (matches/waiting.py) ask the same three questions here."""

from __future__ import annotations

from .models import Match, Prematch


def shopping_team(prematch: Prematch, steps) -> int | None:
    """The team whose shopping turn is open, if any."""
    if prematch.complete or not steps or prematch.pk is None:
        return None
    turn = steps[prematch.step_index].turn
    return getattr(prematch, f"{turn}_id") if turn else None


def prematch_actors(prematch: Prematch, steps, team_ids: list[int]) -> list[int]:
    """The teams whose coach the current step of a started, unfinished sequence waits for: the shopping team in
    its turn (only its coach closes it), else every team of the match (either coach rolls a shared step)."""
    if prematch.complete or not steps or prematch.pk is None:
        return []
    shopper = shopping_team(prematch, steps)
    return [shopper] if shopper is not None else list(team_ids)


def prematch_blocks_result(match: Match, prematch: Prematch | None) -> bool:
    """Whether the match's pre-match sequence holds its result up: a started, unfinished sequence of a ruleset
    whose pre-match sequence settles what the result needs (FAME). The result services refuse the result then;
    the list of what waits for whom shows the step instead."""
    started = prematch is not None and prematch.pk is not None  # (a page may hold an unsaved, unstarted one)
    return started and not prematch.complete and match.league.rules.fame_from_prematch
