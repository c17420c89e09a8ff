"""A `?page=` value read as a page number, for the views that page a document themselves (a player's matches, a
team's rating history); Django's `Paginator` pages the lists."""

from __future__ import annotations


def page_number(raw: object) -> int:
    """A `?page=` value as a page number: ASCII digits of sane length, else 1 (the views answer an unknown page
    with the nearest one). `"²".isdigit()` is true and `int("²")` a ValueError; so is `int()` of 5,000 digits."""
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 9:
        return int(raw)
    return 1
