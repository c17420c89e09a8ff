"""The ruleset registry: code elsewhere asks `get_ruleset(key)` instead of testing ruleset names."""

from __future__ import annotations

from campaigns.rulesets.base import Ruleset
from campaigns.rulesets.blitzbowl import BlitzBowl
from campaigns.rulesets.bonecruncher import BoneCruncher
from campaigns.rulesets.elfball import ElfBall

REGISTRY: dict[str, Ruleset] = {r.key: r for r in (BlitzBowl(), ElfBall(), BoneCruncher())}
CHOICES = [(r.key, r.name) for r in REGISTRY.values()]


def get_ruleset(key: str) -> Ruleset:
    try:
        return REGISTRY[key]
    except KeyError:
        raise KeyError(f"unknown ruleset {key!r}") from None


__all__ = ["CHOICES", "REGISTRY", "Ruleset", "get_ruleset"]
