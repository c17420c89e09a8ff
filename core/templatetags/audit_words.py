"""An audit entry's before and after as words for the audit pages: one row per value that an entry records — its
label (the house rule's, or the field's: "Starting treasury", "Staff › Cheerleader › Price") and its value
before and after, formatted ("100,000", "yes", "points, touchdown difference") — never Python's text of a dict.
`{% load audit_words %}` then `{% for row in entry|audit_changes %}`."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext

from campaigns.rulesets.words import humanise

register = template.Library()

#: Between the parts of a nested rule's label.
LABEL_JOIN = " › "


def _flat(value: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    """A value as {path of keys: leaf}; objects are walked, lists and scalars are leaves."""
    if isinstance(value, dict) and value:
        return {found: leaf for key, item in value.items() for found, leaf in _flat(item, (*path, str(key))).items()}
    return {path: value}


def _recorded(value: Any) -> dict[tuple[str, ...], Any]:
    """One side of an entry as {path: leaf}: nothing recorded (None, `{}`) is no row."""
    if value is None or value == {}:
        return {}
    return _flat(value)


def words(value: Any) -> str:
    """One recorded value as a page shows it."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return ", ".join(f"{humanise(key)} {words(item)}" for key, item in value.items()) or gettext("none")
    if isinstance(value, list | tuple):
        return ("; " if any(isinstance(item, dict) for item in value) else ", ").join(map(words, value)) or gettext(
            "none"
        )
    return str(value)


@register.filter
def audit_changes(entry) -> list[dict[str, str]]:
    """The entry's rows `{label, before, after}`, in the order recorded (before's keys, then after's new ones)."""
    before, after = _recorded(entry.before), _recorded(entry.after)
    rows = []
    for path in [*before, *(p for p in after if p not in before)]:
        label = LABEL_JOIN.join(humanise(part) for part in path) or gettext("Value")
        rows.append({"label": label, "before": words(before.get(path)), "after": words(after.get(path))})
    return rows
