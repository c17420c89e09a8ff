"""The document's sections after its head, declared in dugout.export.SECTIONS' order."""

from __future__ import annotations

from collections.abc import Callable

from dugout.importer.divisions import read_divisions
from dugout.importer.matches import read_matches, write_history
from dugout.importer.records import read_audit, read_ledgers, read_reports, read_rolls, read_seasons
from dugout.importer.schedules import read_schedules
from dugout.importer.state import ImportState
from dugout.importer.teams import read_teams

#: The document's sections after its head, in dugout.export.SECTIONS' order: (key, reader of a chunk of its
#: records, "array" or "object"). A section may be missing (an older export): it is then empty.
SECTIONS: tuple[tuple[str, Callable[[ImportState, list], None], str], ...] = (
    ("divisions", read_divisions, "array"),
    ("teams", read_teams, "array"),
    ("schedules", read_schedules, "array"),
    ("matches", read_matches, "array"),
    ("ledgers", read_ledgers, "object"),
    ("rolls", read_rolls, "array"),
    ("reports", read_reports, "array"),
    ("seasons", read_seasons, "array"),
    ("audit", read_audit, "array"),
)
#: What runs once a section is read (the players' match rows wait for the matches).
AFTER = {"matches": write_history}
#: Keys of the head the import reads (`league`) or skips (derived, or of the export's moment).
HEAD = ("exported_at", "league", "house_rules")
