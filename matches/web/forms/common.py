"""What every form of the match pages shares: number boxes, a player's select and labels, the dice a coach
types, and service paths (`wounds[0].critical[1]`) read back onto the form."""

from __future__ import annotations

import re
from collections.abc import Mapping

from django import forms

from campaigns.rulesets.words import humanise as words

__all__ = [
    "DiceField",
    "dice_field",
    "dice_fit",
    "named_message",
    "number",
    "parse_dice",
    "path_tokens",
    "player_label",
    "player_select",
    "row_field",
    "short_label",
    "words",
]


def number(label: str, *, required: bool = True, initial: int | None = 0, maximum: int = 99, **attrs) -> forms.Field:
    return forms.IntegerField(
        label=label,
        required=required,
        initial=initial,
        widget=forms.NumberInput(attrs={"min": 0, "max": maximum, "class": "count", **attrs}),
    )


def player_select(label: str, player, choices, initial, *, numbers: bool = False) -> forms.Field:
    """An optional select of one player's row, named for screen readers by the label and the player."""
    widget = forms.Select(attrs={"aria-label": f"{label}: {player.name}"})
    if numbers:
        return forms.TypedChoiceField(
            label=label, coerce=int, required=False, empty_value=None, choices=choices, initial=initial, widget=widget
        )
    return forms.ChoiceField(label=label, required=False, choices=choices, initial=initial, widget=widget)


def row_field(spec, player, choices: Mapping[str, list], initial) -> forms.Field:
    """A field of a player's row on a result form as its ruleset declares it (`ResultField`): a number box, or
    a select of the ruleset's choices — named for screen readers by the field's label and the player."""
    if spec.kind == "count":
        return number(
            spec.label, required=False, initial=initial or 0, **{"aria-label": f"{spec.label}: {player.name}"}
        )
    return player_select(spec.label, player, choices.get(spec.choices, []), initial, numbers=spec.numbers)


def player_label(player) -> str:
    number = f"#{player.number} " if player.number is not None else ""
    return f"{number}{player.name} ({player.position.name})"


def short_label(player) -> str:
    return f"#{player.number} {player.name}" if player.number is not None else player.name


_PATH_TOKEN = re.compile(r"\[(\d+)\]|\.?([A-Za-z_]\w*|\d+)")


def path_tokens(path: str) -> list:
    """`wounds[0].critical[1].side` → ["wounds", 0, "critical", 1, "side"] (digits after a dot become ints)."""
    out: list = []
    for index, name in _PATH_TOKEN.findall(path or ""):
        value = index or name
        out.append(int(value) if value.isdigit() else value)
    return out


def named_message(message: str, path: str, prefix: str, name: str) -> str:
    """A service message in words: `players[0].attribute: …` → `Ada: …`; `goals[1].on_field must …` →
    `Bob's team, goal 2 — on_field must …`."""
    if path and message.startswith(path + ":"):
        return name + message[len(path) :]
    if message.startswith(prefix + ":"):
        return name + message[len(prefix) :]
    if message.startswith(prefix):
        return f"{name} — {message[len(prefix) :].lstrip('.')}"
    return message.replace(prefix, name, 1)


def parse_dice(text: str) -> list[int]:
    """ "3, 4" or "3 4" → [3, 4]; anything but whole numbers is refused."""
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if not all(p.isdigit() for p in parts):
        raise forms.ValidationError("Enter the dice as whole numbers separated by commas, e.g. 3, 4.")
    return [int(p) for p in parts]


class DiceField(forms.CharField):
    def clean(self, value):
        value = super().clean(value)
        return parse_dice(value) if value else []


def dice_field(label: str) -> DiceField:
    """The dice rolled at the table for one roll (empty: the server rolls)."""
    return DiceField(
        label=label,
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": "roll for me", "inputmode": "numeric", "class": "dice"}),
    )


def dice_fit(values: list[int], key: str, catalogue: Mapping[str, str] | None) -> bool:
    """Whether one team's entered dice could make the roll (whole faces, at least the dice of one roll)."""
    expression = (catalogue or {}).get(key, "")
    found = re.fullmatch(r"(\d*)d(\d+)", expression)
    if not found:
        return True
    count, sides = int(found.group(1) or 1), int(found.group(2))
    return len(values) >= count and all(1 <= v <= sides for v in values)
