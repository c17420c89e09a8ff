"""ElfBall Advanced Rules team building as pure functions (../shared/rules/elfball.md, "Team building")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from campaigns.errors import RuleViolation


def team_points(*, player_values: Iterable[int], support: Mapping[str, int], support_points: Mapping[str, int]) -> int:
    """R: team value = 15 per player + 5 per ability held (both inside each player's value) + support bought."""
    return sum(player_values) + sum(
        count * support_points[item] for item, count in support.items() if item in support_points
    )


def check_budget(*, current: int, adding: int, budget: int, what: str) -> None:
    """R: the team's point value may never exceed 150 (H: the league's `points_budget`)."""
    if current + adding > budget:
        raise RuleViolation(
            f"{what} costs {adding} points: the team is worth {current} of its {budget}-point budget. "
            "Cut something or someone first.",
            field="points_budget",
        )


def check_minimum_players(*, players: int, minimum: int, in_creation: bool) -> None:
    """R: a team may never be cut below 6 players (once built: creation is free)."""
    if not in_creation and players - 1 < minimum:
        raise RuleViolation(f"An ElfBall team may never be cut below {minimum} players.", field="player")


def check_support_limit(*, current: int, adding: int, maximum: int, what: str) -> None:
    """R: team support items have their maximum (Magic Potion 3, Beer Garden Beauty 2, Cheerleader 4, Wizard 1)."""
    if current + adding > maximum:
        raise RuleViolation(f"A team may have at most {maximum} {what}; it has {current}.", field="quantity")


#: I: the rulebook sets no limit on N ("the first team to win N Tests wins … usually 2 or 3",
#: rules/elfball.md "Matches"). This bound is technical, not a rule: it only refuses absurd input (the
#: result page has a row per Test a team can win, and the match stores N in a small integer). Every check
#: of N — the API, the schedule page, the house rule and the result — reads it from here.
MAX_TESTS_TO_WIN = 99


def check_tests_to_win(n: object, *, field: str = "tests_to_win") -> int:
    """R: a match is a series of Tests; the first team to win N Tests wins (N agreed before the match, H league
    default 2). N is a whole number of at least 1; the rulebook sets no upper limit (I: `MAX_TESTS_TO_WIN`
    only refuses absurd input)."""
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_TESTS_TO_WIN:
        raise RuleViolation(
            f"Tests to win must be a whole number from 1 to {MAX_TESTS_TO_WIN} (the rulebook sets no limit; "
            f"{MAX_TESTS_TO_WIN} only refuses absurd input).",
            field=field,
        )
    return n
