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
