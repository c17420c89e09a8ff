"""The commissioner's schedule form: a format, its teams and dates, then a preview. In a
league with divisions ("Divisions") it also offers a round robin per division (or of one) and a knockout drawn
from several divisions' tables."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms

from campaigns.errors import RuleViolation
from matches.models import Schedule
from matches.schedules import MAX_DAYS_PER_ROUND

#: The round robin's choice of teams in a league with divisions: all of them, or by division.
WHOLE_LEAGUE, PER_DIVISION = "league", "each"


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

    def __init__(self, *args, divisions: Sequence[tuple[int, str]] = (), **kwargs):
        """`divisions`: the league's (id, name) in their order; none, and the form has no division fields."""
        super().__init__(*args, **kwargs)
        if not divisions:
            return
        by_division = [(f"d{pk}", f"Only {name}") for pk, name in divisions]
        self.fields["round_robin_teams"] = forms.ChoiceField(
            label="Round robin: teams",
            choices=[(WHOLE_LEAGUE, "The whole league"), (PER_DIVISION, "Each division its own"), *by_division],
            initial=WHOLE_LEAGUE,
            required=False,
        )
        self.fields["knockout_divisions"] = forms.TypedMultipleChoiceField(
            label="Knockout: from the tables of",
            choices=list(divisions),
            coerce=int,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            help_text="Division winners are seeded first, in this order. None ticked: the league's table.",
        )
        self.fields["knockout_top"] = forms.IntegerField(
            label="Knockout: top N of each division", min_value=1, max_value=1000, required=False
        )

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        kwargs = {
            "format": data["format"],
            "legs": data["legs"],
            "start": data["start"],
            "days_per_round": data["days_per_round"],
            "reason": data["reason"],
        }
        if data["format"] == Schedule.Format.ROUND_ROBIN:
            teams = data.get("round_robin_teams") or WHOLE_LEAGUE
            if teams == PER_DIVISION:
                kwargs["per_division"] = True
            elif teams != WHOLE_LEAGUE:
                kwargs["division"] = int(teams[1:])
        if data["format"] == Schedule.Format.KNOCKOUT:
            if data.get("knockout_divisions"):
                kwargs["divisions"], kwargs["top"] = data["knockout_divisions"], data.get("knockout_top")
            else:
                kwargs["from_standings"] = data["from_standings"]
                if data["from_standings"] is None:
                    kwargs["teams"] = None  # the service refuses in words: seed it from somewhere
        return kwargs

    def add_service_error(self, exc: RuleViolation) -> None:
        fields = {"top": "knockout_top", "divisions": "knockout_divisions", "division": "round_robin_teams"}
        field = fields.get(exc.field, exc.field)
        self.add_error(field if field in self.fields else None, exc.message)
