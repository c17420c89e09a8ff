"""Blitz Bowl on the match pages: which result form, report sections and step widgets the pages show, as plain
data (the web layer keeps the form classes, keyed by these kinds). rules/blitzbowl.md "Result", "Post-match"."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from campaigns.rulesets.presentation import ResultField

from .prematch import ITEM_WORDS, weather_words
from .words import humanise

__all__ = ["INDUCEMENT_ITEMS", "weather_words"]

RESULT_FORM = "player_counters"
REPORT_SECTIONS = ("lines_counters", "performances")

#: A player's row on the result form (rules/blitzbowl.md "Result"): his counters, and an injury with the
#: attribute it lowered.
RESULT_ROW_FIELDS = (
    ResultField("touchdowns", "Touchdowns", abbr="TD"),
    ResultField("casualties", "Casualties", abbr="CAS"),
    ResultField("completions", "Completions", abbr="CP"),
    ResultField("interceptions", "Interceptions", abbr="INT"),
    ResultField("injury", "Injury", kind="choice", choices="injury"),
    ResultField("stat", "Stat lost", kind="choice", choices="stat"),
)

#: The inducements a team may buy (rules/blitzbowl.md "Inducements"), in the shop's order, with their names.
INDUCEMENT_ITEMS = MappingProxyType(dict(ITEM_WORDS))

#: How each post-match decision is asked.
DECISION_WIDGETS = MappingProxyType(
    {
        "improvements": "improvements",
        "reroll_winnings": "yes_no",
        "seek_sponsor": "yes_no",
        "residency": "one_of",
        "end_sponsorships": "ids",
        "hire_journeymen": "ids",
        "keep_residency_spend": "gil",
    }
)

OPTION_LABELS = MappingProxyType(
    {
        "attempt": "Attempt a residency deal",
        "accept_cost": "Accept: pay all of this match's winnings",
        "reject": "Reject",
        "ma": "+1 MA",
        "av": "+1 AV",
        "ag": "+1 AG",
        "st": "+1 ST",
    }
)

#: Whose names label the ids a decision offers (players unless listed).
ID_LABELS = MappingProxyType({"end_sponsorships": "sponsorships", "hire_journeymen": "players"})

PREMATCH_HINTS = MappingProxyType(
    {
        "aggressor": "On a tie, type the re-roll's dice after the first two (e.g. 3, 4, 5, 2); dice still missing "
        "are rolled by the server."
    }
)


def result_choices(hr: Mapping) -> dict[str, list[tuple[Any, str]]]:
    """The injuries a result may record and the attribute a stat loss lowers (the league's house rules)."""
    return {
        "injury": [("", "—")] + [(i, humanise(i)) for i in hr.get("injuries", ())],
        "stat": [("", "—")] + [(s, s.upper()) for s in hr.get("stat_loss_attributes", ())],
    }
