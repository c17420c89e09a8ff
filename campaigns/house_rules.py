"""House rules: a ruleset's defaults (data) merged with a commissioner's overrides, validated.

"The Commissioner's word is LAW": every number and table of ../shared/rules/<ruleset>.md is a key of the
ruleset's default house rules. An override may change any of them, but only with a value of the same
shape: an unknown key or a value of the wrong type is refused, naming the key (dotted path).
Objects merge key by key; lists and scalars replace the default whole.

A few keys have a shape their default cannot show (a default of null that may become a number, a string that
is one of a few words): those are declared in `SHAPES` and checked by it instead of by the default's type.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from .errors import RuleViolation

#: No number in any rulebook comes near this; it keeps every gil amount inside the database's integers.
MAX_NUMBER = 1_000_000_000

_TYPE_NAMES = {bool: "a boolean", int: "an integer", str: "a string", list: "a list", dict: "an object"}


def _kind(value: Any) -> type | None:
    # bool is a subclass of int in Python; a house rule of one must not accept the other.
    for kind in (bool, int, str, list, dict):
        if type(value) is kind:
            return kind
    return None


def _check(default: Any, override: Any, path: str) -> None:
    kind = _kind(default)
    if _kind(override) is not kind:
        raise RuleViolation(f"{path} must be {_TYPE_NAMES.get(kind, 'a value')}.", field=path)
    if kind is dict:
        for key, value in override.items():
            if key not in default:
                raise RuleViolation(f"{path}.{key} is not a house rule of this ruleset.", field=f"{path}.{key}")
            _check(default[key], value, f"{path}.{key}")
    elif kind is list and default:
        sample = default[0]
        check_item = _check_row if _kind(sample) is dict else _check
        for index, item in enumerate(override):
            check_item(sample, item, f"{path}[{index}]")
    elif kind is int and abs(override) > MAX_NUMBER:
        raise RuleViolation(f"{path} must be at most {MAX_NUMBER:,}.", field=path)
    elif kind is int and override < 0 <= default:
        # Prices, limits and counts are never negative; modifiers (whose defaults are) may be.
        raise RuleViolation(f"{path} cannot be negative.", field=path)


@dataclass(frozen=True)
class Hours:
    """A whole number of hours from `minimum` to a year, or null where `nullable` (null: never)."""

    minimum: int = 0
    nullable: bool = False
    maximum: int = 24 * 365

    def check(self, value: Any, path: str) -> None:
        if value is None and self.nullable:
            return
        if _kind(value) is not int:
            words = "a whole number of hours or null" if self.nullable else "a whole number of hours"
            raise RuleViolation(f"{path} must be {words}.", field=path)
        if not self.minimum <= value <= self.maximum:
            raise RuleViolation(f"{path} must be from {self.minimum} to {self.maximum} hours (a year).", field=path)


@dataclass(frozen=True)
class OneOf:
    """One of a few words."""

    choices: tuple[str, ...]

    def check(self, value: Any, path: str) -> None:
        if value not in self.choices or _kind(value) is not str:
            raise RuleViolation(f"{path} must be one of {', '.join(self.choices)}.", field=path)


#: Top-level keys whose values are checked by a declared shape rather than by their default's type (the league
#: clock's rules, campaigns/deadlines.py, shared by every ruleset).
SHAPES: dict[str, Hours | OneOf] = {
    "auto_confirm_hours": Hours(minimum=1, nullable=True),
    "on_deadline": OneOf(("queue", "double_forfeit")),
    "deadline_grace_hours": Hours(minimum=0),
}


def _check_row(sample: dict, item: Any, path: str) -> None:
    """A row of a table (a list of objects) must have the same keys and types as the default rows."""
    if _kind(item) is not dict:
        raise RuleViolation(f"{path} must be an object.", field=path)
    for key, value in item.items():
        if key not in sample:
            raise RuleViolation(f"{path}.{key} is not a column of this table.", field=f"{path}.{key}")
        _check(sample[key], value, f"{path}.{key}")
    missing = sorted(set(sample) - set(item))
    if missing:
        raise RuleViolation(f"{path} is missing {', '.join(missing)}.", field=path)


def validate_overrides(defaults: dict, overrides: Any) -> dict:
    """Return the overrides if every key exists in the defaults with a value of the same type."""
    if _kind(overrides) is not dict:
        raise RuleViolation("house_rules must be an object.", field="house_rules")
    for key, value in overrides.items():
        if key not in defaults:
            raise RuleViolation(f"{key} is not a house rule of this ruleset.", field=key)
        if key in SHAPES:
            SHAPES[key].check(value, key)
        else:
            _check(defaults[key], value, key)
    return overrides


def merge(defaults: dict, overrides: dict) -> dict:
    """The effective house rules: defaults with overrides laid over them (objects merge, the rest replaces)."""
    result = copy.deepcopy(defaults)
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = merge(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


def changes(before: dict, after: dict) -> tuple[dict, dict]:
    """What differs between two effective sets of house rules, as (the values before, the values after), shaped as
    the rules are: objects compared key by key (only what differs), lists and scalars whole — so an audit shows
    the values in force, `{"starting_treasury": 100000}` → `{"starting_treasury": 120000}`, not the overrides."""
    old: dict = {}
    new: dict = {}
    for key in [*before, *(k for k in after if k not in before)]:
        was, now = before.get(key, _ABSENT), after.get(key, _ABSENT)
        if isinstance(was, dict) and isinstance(now, dict):
            was, now = changes(was, now)
            if was or now:
                old[key], new[key] = was, now
        elif was != now:
            if was is not _ABSENT:
                old[key] = copy.deepcopy(was)
            if now is not _ABSENT:
                new[key] = copy.deepcopy(now)
    return old, new


#: A key one side of `changes` does not have.
_ABSENT = object()
