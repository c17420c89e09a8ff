"""A refusal of the rules in words a coach understands, beside the field it is about: never a JSON path or
`rolls.stadium_bonus: 4 is not a face of a d3`, but "Stadium bonus: 4 is not on a d3 — enter 1, 2 or 3".

The services speak the API's language (a `RuleViolation` naming its `field` as a path of the request body);
the pages map that path to their own field and phrase the message here, in one place."""

from __future__ import annotations

import re

from .common import words

_FACE = re.compile(r"^rolls\.(\w+): (\d+) is not a face of a d(\d+|N)\.?$")
_COUNT = re.compile(r"^rolls\.(\w+) needs (\d+) dice \(([^)]*)\)\.?$")
_LIST = re.compile(r"^rolls\.(\w+) must be a list of whole numbers\.?$")
_KEY = re.compile(r"^(\w+) is not a roll key of this ruleset\.?$")
#: A leading request path (`choices.heal[1].player: `, `rolls.weather: `) the page says by its field instead.
_PATH = re.compile(r"^(?:choices|rolls)(?:\.\w+|\[\d+\])*:\s*")


def faces(sides: int) -> str:
    """1, 2 or 3 — the faces of a small die, or "a number from 1 to 12"."""
    if sides <= 6:
        numbers = [str(n) for n in range(1, sides + 1)]
        return ", ".join(numbers[:-1]) + f" or {numbers[-1]}" if len(numbers) > 1 else numbers[0]
    return f"a number from 1 to {sides}"


def roll_refusal(message: str, label: str | None = None) -> str:
    """A refused roll in words: which dice, what was wrong, what to enter instead."""
    found = _FACE.match(message)
    if found:
        key, value, sides = found.groups()
        name = label or words(key)
        if sides == "N":
            return f"{name}: {value} is not on the die — enter the faces rolled"
        return f"{name}: {value} is not on a d{sides} — enter {faces(int(sides))}"
    found = _COUNT.match(message)
    if found:
        key, count, expression = found.groups()
        example = ", ".join(str(3 + i % 4) for i in range(int(count)))
        return (
            f"{label or words(key)}: this roll takes {count} dice ({expression}) — enter {count} dice, e.g. {example}"
        )
    found = _LIST.match(message)
    if found:
        return f"{label or words(found.group(1))}: enter the dice as whole numbers separated by commas, e.g. 3, 4"
    found = _KEY.match(message)
    if found:
        return f"This step does not use {words(found.group(1)).lower()} dice: leave that box empty"
    return plain(message)


def plain(message: str) -> str:
    """The service's sentence without the request path it starts with (the field beside it says what it is)."""
    rest = _PATH.sub("", message, count=1)
    if not rest or rest == message:
        return message
    return rest[:1].upper() + rest[1:]
