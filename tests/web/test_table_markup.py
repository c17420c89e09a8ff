"""Every template's wide tables, read as text (no browser): each scroll box takes keyboard focus and is a named
region, whether or not it overflows on the screen at hand; no header cell is left empty. The browser test
(test_axe_browser.py) runs axe-core over five pages; this holds the rule on every page that has a table."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
SCROLL_BOX = re.compile(r"<div\b[^>]*\bclass=\"table-scroll\"[^>]*>")
# A header cell with nothing in it: no text, no template tag, no element (a visually hidden <span> names it).
EMPTY_HEADER = re.compile(r"<th\b[^>]*>\s*</th>")


def templates() -> list[Path]:
    return sorted(TEMPLATES.rglob("*.html"))


def test_every_scroll_box_takes_focus_and_is_a_named_region():
    unreachable = []
    for path in templates():
        for tag in SCROLL_BOX.findall(path.read_text()):
            attributes = ('tabindex="0"', 'role="region"', 'aria-label="')
            if not all(a in tag for a in attributes):
                unreachable.append(f"{path.relative_to(TEMPLATES)}: {tag}")
    assert unreachable == [], "\n".join(unreachable)


def test_the_scroll_boxes_are_found():
    """The check above reads something: the roster, the match report's tables and the members' table."""
    found = {path.relative_to(TEMPLATES).as_posix() for path in templates() if SCROLL_BOX.search(path.read_text())}
    assert {"teams/_sheet.html", "matches/report.html", "league/dashboard.html"} <= found


def test_no_table_header_cell_is_empty():
    empty = []
    for path in templates():
        for match in EMPTY_HEADER.finditer(path.read_text()):
            empty.append(f"{path.relative_to(TEMPLATES)}: {match.group(0)}")
    assert empty == [], "\n".join(empty)
