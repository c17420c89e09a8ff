"""The import's checks of values: each takes (value, path) and answers the value to store or raises
BadDocument naming the path; `field` reads one field of a record with its check."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from campaigns.errors import RuleViolation
from teams.identity.services import COLOUR


class BadDocument(RuleViolation):
    """The document is not an export this service can rebuild: `field` is the path of the first bad value."""


class TooLarge(RuleViolation):
    """The document is longer than MAX_BYTES (answered 413)."""


def bad(path: str, message: str) -> BadDocument:
    return BadDocument(message, field=path or "document")


MISSING = object()


def field(record: Any, path: str, name: str, check: Callable[[Any, str], Any], default: Any = MISSING) -> Any:
    if not isinstance(record, dict):
        raise bad(path, "Expected an object.")
    here = f"{path}.{name}"
    if name not in record:
        if default is MISSING:
            raise bad(here, "This field is required.")
        return default
    return check(record[name], here)


def integer(low: int | None = 0, high: int | None = None, null: bool = False) -> Callable[[Any, str], Any]:
    def check(value, path):
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad(path, "Expected a whole number" + (" or null." if null else "."))
        if (low is not None and value < low) or (high is not None and value > high):
            raise bad(path, f"Expected a number from {low} to {high if high is not None else 'any'}.")
        return value

    return check


def text(max_length: int | None = None, choices: tuple[str, ...] | None = None, null: bool = False):
    def check(value, path):
        if value is None and null:
            return None
        if not isinstance(value, str):
            raise bad(path, "Expected text.")
        if max_length is not None and len(value) > max_length:
            raise bad(path, f"At most {max_length} characters.")
        if choices is not None and value not in choices:
            raise bad(path, f"Expected one of {', '.join(repr(c) for c in choices)}.")
        return value

    return check


def boolean(value, path):
    if not isinstance(value, bool):
        raise bad(path, "Expected true or false.")
    return value


def timestamp(null: bool = False):
    def check(value, path):
        if value is None and null:
            return None
        if not isinstance(value, str):
            raise bad(path, "Expected an ISO 8601 timestamp.")
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise bad(path, "Expected an ISO 8601 timestamp.") from None
        if moment.tzinfo is None:
            raise bad(path, "Expected a timestamp with its offset (e.g. Z).")
        return moment

    return check


def day(value, path) -> date:
    """A date, as the export writes one (YYYY-MM-DD)."""
    if not isinstance(value, str):
        raise bad(path, "Expected a date (YYYY-MM-DD).")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise bad(path, "Expected a date (YYYY-MM-DD).") from None


def json_value(kind: type | tuple[type, ...] = object, null: bool = False):
    """Any JSON of `kind` (a dict, a list…); numbers past what a float holds are refused (NaN, infinity)."""

    def check(value, path):
        if value is None and null:
            return None
        if not isinstance(value, kind):
            raise bad(path, f"Expected {'an object' if kind is dict else 'a list' if kind is list else 'JSON'}.")
        finite(value, path)
        return value

    return check


def finite(value, path):
    if isinstance(value, float) and not math.isfinite(value):
        raise bad(path, "Numbers must be finite.")
    if isinstance(value, dict):
        for key, item in value.items():
            finite(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            finite(item, f"{path}[{i}]")


def a_list(value, path) -> list:
    if not isinstance(value, list):
        raise bad(path, "Expected a list.")
    return value


def choices_of(choices) -> tuple[str, ...]:
    return tuple(key for key, _ in choices)


def colour(value, path):
    """A team colour (team identity): #rrggbb, kept in lower case."""
    if not isinstance(value, str) or not COLOUR.fullmatch(value):
        raise bad(path, "Expected a colour written #rrggbb.")
    return value.lower()
