"""The commissioner's schedule form (issue 13, "Schedules"): a format, its teams and dates, then a preview."""

from __future__ import annotations

from django import forms

from campaigns.errors import RuleViolation
from matches.models import Schedule
from matches.schedules import MAX_DAYS_PER_ROUND


class GenerateForm(forms.Form):
    format = forms.ChoiceField(label="Format", choices=Schedule.Format.choices, initial=Schedule.Format.ROUND_ROBIN)
    legs = forms.TypedChoiceField(
        label="Legs (round robin)", choices=[(1, "One"), (2, "Two (home and away)")], coerce=int, initial=1
    )
    start = forms.DateField(label="First round starts", widget=forms.DateInput(attrs={"type": "date"}))
    days_per_round = forms.IntegerField(label="Days per round", min_value=1, max_value=MAX_DAYS_PER_ROUND, initial=7)
    from_standings = forms.IntegerField(
        label="Knockout: top N of the table", min_value=2, required=False, help_text="Empty: every ready team."
    )
    reason = forms.CharField(label="Reason (optional, kept in the audit)", max_length=500, required=False)

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        kwargs = {
            "format": data["format"],
            "legs": data["legs"],
            "start": data["start"],
            "days_per_round": data["days_per_round"],
            "reason": data["reason"],
        }
        if data["format"] == Schedule.Format.KNOCKOUT:
            kwargs["from_standings"] = data["from_standings"]
            if data["from_standings"] is None:
                kwargs["teams"] = None  # the service refuses in words: seed it from somewhere
        return kwargs

    def add_service_error(self, exc: RuleViolation) -> None:
        self.add_error(exc.field if exc.field in self.fields else None, exc.message)
