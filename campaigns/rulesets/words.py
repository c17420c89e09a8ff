"""Words every ruleset shares: how a data key reads on a page or in a log line.

Each ruleset has its own `words` module (`campaigns/rulesets/<key>/words.py`) for the sentences only its game
prints; pages and logs ask `get_ruleset(key).words` rather than spelling a game's wording themselves. A ruleset's
module starts with `from campaigns.rulesets.words import *` so the shared words are always there.
"""

from __future__ import annotations

__all__ = ["humanise"]


def humanise(key: object) -> str:
    """A data key as words: "miss_next_match" → "Miss next match"."""
    return str(key).replace("_", " ").capitalize()


# --- the weekly report (league/reporting): what every game's report says, unless its words say otherwise --------


def plural(n: int, one: str, many: str | None = None) -> str:
    """3, "touchdown" → "3 touchdowns"; 1, "casualty", "casualties" → "1 casualty"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def report_headline(*, sides: list[dict], rows: list[dict]) -> list[str]:
    """The game's own numbers in the weekly report's headline ("6 touchdowns", "4 casualties"), from the week's
    final sides and player rows (plain dicts). A game without its own adds nothing to the match count."""
    return []


def serious_injury(row: dict, *, hr: dict | None = None) -> tuple[str, list[str]]:
    """A week's player row (plain dict) as the weekly report's serious injuries read it: (the injury's key, its
    words). No words: nothing serious (a death has its own section)."""
    return str(row.get("injury") or ""), []


__all__ += ["plural", "report_headline", "serious_injury"]
