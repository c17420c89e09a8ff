"""The ElfBall Challenge roller's form (rules/elfball.md "The Challenge roller"), used by the league pages."""

from __future__ import annotations

from collections.abc import Iterable

from django import forms

from campaigns.errors import RuleViolation

from .common import DiceField


class ChallengeForm(forms.Form):
    """rules/elfball.md "The Challenge roller": as many d6 as the attribute against a threshold, rolled by the
    server or entered from the table, optionally logged against a match of the league."""

    dice = forms.IntegerField(
        label="Dice (the attribute)",
        min_value=1,
        max_value=20,
        initial=3,
        widget=forms.NumberInput(attrs={"min": 1, "max": 20, "class": "count"}),
    )
    threshold = forms.IntegerField(
        label="Threshold",
        min_value=1,
        max_value=12,
        initial=4,
        widget=forms.NumberInput(attrs={"min": 1, "max": 12, "class": "count"}),
        help_text="Each die at or above it is a success; 7 or more: successes are the 6s less the flops.",
    )
    values = DiceField(
        label="Dice rolled at the table (optional)",
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": "roll for me", "inputmode": "numeric", "class": "dice"}),
        help_text="e.g. 6, 3, 1 — every 6 is rolled again and the new die added. Leave empty: the server rolls.",
    )
    match = forms.TypedChoiceField(label="Match (optional)", coerce=int, required=False, empty_value=None)

    def __init__(self, *args, matches: Iterable = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["match"].choices = [("", "— none —")] + [
            (m.pk, f"Match #{m.pk}: {' v '.join(s.team.name for s in m.sides.all())}") for m in matches
        ]

    def add_service_error(self, exc: RuleViolation) -> None:
        field = {"dice_count": "dice", "threshold": "threshold", "rolls": "values", "values": "values"}.get(
            exc.field or "", exc.field
        )
        self.add_error(field if field in self.fields else None, exc.message)
