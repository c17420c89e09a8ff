"""Scheduling a match (api-v1 "Matches"): the teams, the kind, the stadium, and what the ruleset adds —
an event (Bone Cruncher), more teams (Terminix), the Tests to win (ElfBall)."""

from __future__ import annotations

from collections.abc import Iterable

from django import forms

from campaigns.errors import RuleViolation
from campaigns.rulesets.elfball.rules import MAX_TESTS_TO_WIN
from matches.models import Match

from .common import words


class ScheduleForm(forms.Form):
    home = forms.TypedChoiceField(label="Home team", coerce=int)
    away = forms.TypedChoiceField(label="Away team", coerce=int)
    kind = forms.ChoiceField(label="Kind", choices=Match.Kind.choices, initial=Match.Kind.LEAGUE)
    stadium = forms.TypedChoiceField(label="Stadium", coerce=int, required=False, empty_value=None)

    def __init__(
        self,
        *args,
        teams: Iterable,
        stadiums: Iterable,
        events: Iterable[str] = (),
        more_teams: bool = False,
        tests_to_win: int | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        choices = [(t.pk, f"{t.name} ({t.coach.username if t.coach else 'no coach'})") for t in teams]
        self.fields["home"].choices = [("", "— choose —"), *choices]
        self.fields["away"].choices = [("", "— choose —"), *choices]
        self.fields["stadium"].choices = [("", "— none —")] + [
            (s.pk, f"{s.name} — {s.special_attribute}" if s.special_attribute else s.name) for s in stadiums
        ]
        events = list(events)
        if events:  # Bone Cruncher: Scorchball or Terminix
            self.fields["event"] = forms.ChoiceField(
                label="Event", choices=[(e, words(e)) for e in events], initial=events[0]
            )
        if more_teams:  # Terminix takes more than two teams
            self.fields["more"] = forms.TypedMultipleChoiceField(
                label="More teams (Terminix only)",
                coerce=int,
                required=False,
                choices=choices,
                widget=forms.CheckboxSelectMultiple,
            )
        if tests_to_win is not None:  # ElfBall: the first team to win N Tests wins
            self.fields["tests_to_win"] = forms.IntegerField(
                label="Tests to win", min_value=1, max_value=MAX_TESTS_TO_WIN, initial=tests_to_win
            )

    def team_ids(self) -> list[int]:
        data = self.cleaned_data
        return [data["home"], data["away"], *data.get("more", [])]

    def add_service_error(self, exc: RuleViolation) -> None:
        field = {"teams": None, "stadium": "stadium", "event": "event", "tests_to_win": "tests_to_win"}.get(
            exc.field or ""
        )
        self.add_error(field if field in self.fields else None, exc.message)
