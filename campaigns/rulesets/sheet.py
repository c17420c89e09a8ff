"""The team sheet every ruleset shares: how a roster table's column is declared, and the shared defaults.

Each ruleset declares its own columns, hint and staff labels in `campaigns/rulesets/<key>/sheet.py` (plain data
and pure functions of plain values); the page (teams/web/sheet.py) loops over the columns the ruleset declares
for the league's house rules, so no template or view asks which game it shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Column:
    """One column of the roster table.

    `key` names the player value the cell shows: the page supplies the player's own fields (`number`, `name`,
    `position`, `attributes`, `skills`, `value`, `status`, `race`, …) and the ruleset's `values()` adds or
    overrides the rest. `note`, `title` and `data` name further values shown under the cell, as its tooltip and
    as its `data-value` (read by scripts and tests)."""

    header: str
    key: str
    #: The cell's class ("num" right-aligns it; tests and scripts find a cell by its class).
    css: str = ""
    #: The header's long form: the header is shown as <abbr title="…">.
    abbr: str = ""
    #: How the cell renders: "text", "attributes" (KEY value pairs), "money" (thousands grouped) or "learn"
    #: (the text, and for the coach a form to learn one of the player's `learnable` abilities).
    kind: str = "text"
    #: Shown only when the league's house rule of this name is on.
    house_rule: str = ""
    note: str = ""
    title: str = ""
    data: str = ""

    def shown(self, hr: Mapping[str, Any]) -> bool:
        return not self.house_rule or bool(hr.get(self.house_rule))


NUMBER = Column("#", "number")
NAME = Column("Name", "name")
POSITION = Column("Position", "position")
ATTRIBUTES = Column("Attributes", "attributes", kind="attributes")
SKILLS = Column("Skills", "skills", css="abilities")
VALUE = Column("Value", "value", css="num", kind="money")
STATUS = Column("Status", "status")

#: A ruleset without a sheet of its own shows these.
COLUMNS: tuple[Column, ...] = (NUMBER, NAME, POSITION, ATTRIBUTES, SKILLS, VALUE, STATUS)

#: How a support item reads beside its count ("" → the item's key in words).
STAFF: Mapping[str, str] = {}


def hint(hr: Mapping[str, Any]) -> str:
    """A line under the racial traits explaining what the sheet's numbers mean ("" = none)."""
    return ""


def values(
    player: Any, *, shown: Mapping[str, Any], summary: Mapping[str, Any], injuries: Iterable[Mapping], hr: Mapping
) -> dict[str, Any]:
    """The ruleset's own cell values for a player (an engine.PlayerView), beyond those the page supplies in
    `shown`: `summary` is the ruleset's `player_summary`, `injuries` the player's recorded injuries."""
    return {}
