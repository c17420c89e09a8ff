"""Dice from one place: entered values when the coach gave them, else server rolls — recorded either way.

Rules never roll. A step asks `dice.roll("winnings")` and gets values; the `Dice` decides where they come
from: first the rolls already made in an earlier, paused run of the same step (so a coach who saw his
winnings roll and now decides whether to re-roll gets the same die), then the values the coach entered at
the table, then the server's generator (`secrets`). Every roll ends up in `records`, which the engine
stores in the roll log.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .errors import RuleViolation

_EXPRESSION = re.compile(r"^(\d*|N)d(\d+|N)$")
_system_random = secrets.SystemRandom()


def server_roll(sides: int) -> int:
    """A die rolled by the server, from the operating system's cryptographic generator."""
    return _system_random.randint(1, sides)


def parse_expression(expression: str) -> tuple[int | None, int | None]:
    """ "2d6" → (2, 6); "1dN" → (1, None): the sides are given when rolling; "Nd6" → (None, 6): so is the
    number of dice (an ElfBall Challenge rolls as many as the attribute, and more for each 6)."""
    match = _EXPRESSION.match(expression)
    if not match:
        raise ValueError(f"not a dice expression: {expression!r}")
    count, sides = match.groups()
    return (None if count == "N" else int(count or 1)), None if sides == "N" else int(sides)


@dataclass(frozen=True)
class RollRecord:
    key: str
    expression: str
    values: tuple[int, ...]
    entered: bool

    def as_dict(self) -> dict:
        return {"key": self.key, "expression": self.expression, "values": list(self.values), "entered": self.entered}

    @classmethod
    def from_dict(cls, data: Mapping) -> RollRecord:
        return cls(data["key"], data["expression"], tuple(data["values"]), bool(data["entered"]))


def check_entered(rolls: object, catalogue: Mapping[str, str]) -> dict[str, list[int]]:
    """Refuse entered rolls with an unknown key or values that are not whole numbers (400 naming the key)."""
    if rolls is None:
        return {}
    if not isinstance(rolls, Mapping):
        raise RuleViolation("rolls must be an object of roll keys to lists of dice values.", field="rolls")
    checked: dict[str, list[int]] = {}
    for key, values in rolls.items():
        if key not in catalogue:
            raise RuleViolation(f"{key} is not a roll key of this ruleset.", field=f"rolls.{key}")
        if isinstance(values, int) and not isinstance(values, bool):
            values = [values]
        if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise RuleViolation(f"rolls.{key} must be a list of whole numbers.", field=f"rolls.{key}")
        _, sides = parse_expression(catalogue[key])
        for value in values:
            if value < 1 or (sides is not None and value > sides):
                raise RuleViolation(f"rolls.{key}: {value} is not a face of a d{sides or 'N'}.", field=f"rolls.{key}")
        checked[key] = list(values)
    return checked


class Dice:
    """Hands out dice for named rolls and records them."""

    def __init__(
        self,
        *,
        catalogue: Mapping[str, str],
        entered: Mapping[str, list[int]] | None = None,
        prior: list[RollRecord] | None = None,
        roller: Callable[[int], int] = server_roll,
    ) -> None:
        self.catalogue = catalogue
        self._entered = {key: list(values) for key, values in check_entered(entered, catalogue).items()}
        self._prior = list(prior or [])
        self._roller = roller
        self.records: list[RollRecord] = []

    def roll(self, key: str, *, count: int | None = None, sides: int | None = None) -> tuple[int, ...]:
        """`count` dice of `sides` faces for roll `key` (defaults from the catalogue's expression)."""
        if key not in self.catalogue:
            raise KeyError(f"{key} is not in the roll catalogue")
        default_count, default_sides = parse_expression(self.catalogue[key])
        count = default_count if count is None else count
        sides = default_sides if sides is None else sides
        if sides is None or sides < 1:
            raise ValueError(f"roll {key} needs its number of sides")
        if count is None or count < 1:
            raise ValueError(f"roll {key} needs its number of dice")
        expression = f"{count}d{sides}"
        record = self._replay(key, expression) or self._take_entered(key, count, sides, expression)
        if record is None:
            record = RollRecord(key, expression, tuple(self._roller(sides) for _ in range(count)), entered=False)
        self.records.append(record)
        return record.values

    def unused_entered(self) -> dict[str, list[int]]:
        """Entered values no roll has taken yet (kept when a step pauses, for its resumption)."""
        return {key: list(values) for key, values in self._entered.items() if values}

    def has_prior(self, key: str) -> bool:
        """Whether a paused earlier run of this step already rolled `key` (so the roll was seen)."""
        return any(record.key == key for record in self._prior)

    def one(self, key: str, *, sides: int | None = None) -> int:
        return self.roll(key, count=1, sides=sides)[0]

    def _replay(self, key: str, expression: str) -> RollRecord | None:
        for index, record in enumerate(self._prior):
            if record.key == key and record.expression == expression:
                return self._prior.pop(index)
        return None

    def _take_entered(self, key: str, count: int, sides: int, expression: str) -> RollRecord | None:
        queue = self._entered.get(key)
        if not queue:
            return None
        if len(queue) < count:
            raise RuleViolation(f"rolls.{key} needs {count} dice ({expression}).", field=f"rolls.{key}")
        values = tuple(queue[:count])
        del queue[:count]
        if any(v > sides for v in values):
            raise RuleViolation(f"rolls.{key}: {max(values)} is not a face of a d{sides}.", field=f"rolls.{key}")
        return RollRecord(key, expression, values, entered=True)
