"""The demo leagues `load_demo` builds, one recipe per ruleset, registered by the ruleset's key: the command
walks the registry instead of asking which game a league plays."""

from __future__ import annotations

from dugout.management.demo import blitzbowl, bonecruncher, elfball
from dugout.management.demo.recipe import DemoLeague, build

#: Ruleset key → its demo league, in the order the command builds them.
DEMOS: dict[str, DemoLeague] = {demo.ruleset: demo for demo in (blitzbowl.DEMO, elfball.DEMO, bonecruncher.DEMO)}

__all__ = ["DEMOS", "DemoLeague", "build"]
