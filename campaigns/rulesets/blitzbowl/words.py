"""Blitz Bowl in words: the sentences a page or a log prints for this game, in one place."""

from __future__ import annotations

from campaigns.rulesets.words import *  # noqa: F403  (the shared words)
from campaigns.rulesets.words import humanise  # noqa: F401
