"""Forms of the match pages. They only shape what people type into the bodies the services take
(api-v1 "Matches", "Result body", "Post-match sequence"); the services and the rules decide, and their
refusals are shown back on the form next to the field they name."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms

from campaigns.errors import RuleViolation

from .models import Match

RESULT_STATS = (
    ("touchdowns", "Touchdowns", "TD"),
    ("casualties", "Casualties", "CAS"),
    ("completions", "Completions", "CP"),
    ("interceptions", "Interceptions", "INT"),
)

#: Choices a step reads when they are given but never asks for (api-v1: `hire_fire` choices), with the team
#: state that makes each one meaningful.
OPTIONAL_CHOICES = {
    "hire_fire": (
        ("sell_stadium", "flag", "Sell the stadium the team owns (it stays resident)", "owns_stadium"),
        ("buy_stadium", "flag", "Buy the home stadium (the Stadium Fund pays first)", "resident_tenant"),
        ("stadium_fund_payments", "count", "Payments into the Stadium Fund", "resident"),
    ),
}

#: How each Blitz Bowl decision is asked; a decision not listed is asked by the shape of its options.
DECISION_KINDS = {
    "improvements": "improvements",
    "reroll_winnings": "yes_no",
    "seek_sponsor": "yes_no",
    "residency": "one_of",
    "end_sponsorships": "ids",
    "hire_journeymen": "ids",
    "keep_residency_spend": "gil",
}

#: Whose names label the ids a decision offers (players unless listed).
ID_NAMES = {"end_sponsorships": "sponsorships", "hire_journeymen": "players"}

OPTION_LABELS = {
    "attempt": "Attempt a residency deal",
    "accept_cost": "Accept: pay all of this match's winnings",
    "reject": "Reject",
    "ma": "+1 MA",
    "av": "+1 AV",
    "ag": "+1 AG",
    "st": "+1 ST",
}

YES_NO = [("yes", "Yes"), ("no", "No")]


def words(key: str) -> str:
    """`one_time_amount` → "One time amount"."""
    return key.replace("_", " ").capitalize()


def _number(label: str, *, required: bool = True, initial: int | None = 0, maximum: int = 99, **attrs) -> forms.Field:
    return forms.IntegerField(
        label=label,
        required=required,
        initial=initial,
        widget=forms.NumberInput(attrs={"min": 0, "max": maximum, "class": "count", **attrs}),
    )


# --- scheduling ---------------------------------------------------------------------------------------------


class ScheduleForm(forms.Form):
    home = forms.TypedChoiceField(label="Home team", coerce=int)
    away = forms.TypedChoiceField(label="Away team", coerce=int)
    kind = forms.ChoiceField(label="Kind", choices=Match.Kind.choices, initial=Match.Kind.LEAGUE)
    stadium = forms.TypedChoiceField(label="Stadium", coerce=int, required=False, empty_value=None)

    def __init__(self, *args, teams: Iterable, stadiums: Iterable, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [(t.pk, f"{t.name} ({t.coach.username})") for t in teams]
        self.fields["home"].choices = [("", "— choose —"), *choices]
        self.fields["away"].choices = [("", "— choose —"), *choices]
        self.fields["stadium"].choices = [("", "— none —")] + [
            (s.pk, f"{s.name} — {s.special_attribute}" if s.special_attribute else s.name) for s in stadiums
        ]

    def add_service_error(self, exc: RuleViolation) -> None:
        field = {"teams": None, "stadium": "stadium", "event": None}.get(exc.field or "")
        self.add_error(field, exc.message)


# --- the result ----------------------------------------------------------------------------------------------

_RESULT_PATH = re.compile(r"^(teams|players)\[(\d+)\](?:\.(\w+))?")


class ResultForm(forms.Form):
    """A Blitz Bowl result: per team its line, per player of both teams his match. Fields are named
    `team_<id>_<key>` and `player_<id>_<key>`; `body()` builds the JSON body of api-v1 "Result body"."""

    def __init__(
        self,
        *args,
        teams: list,
        players: Mapping[int, list],
        injuries: Iterable[str],
        stat_names: Iterable[str],
        result: Mapping | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.teams = teams
        self.players = players
        self._sent_players: list = []
        lines = {line["team"]: line for line in (result or {}).get("teams", [])}
        rows = {row["player"]: row for row in (result or {}).get("players", [])}
        for team in teams:
            line = lines.get(team.pk, {})
            prefix = f"team_{team.pk}_"
            self.fields[prefix + "score"] = _number("Score (touchdowns)", initial=line.get("score", 0))
            self.fields[prefix + "casualties_inflicted"] = _number(
                "Casualties inflicted", initial=line.get("casualties_inflicted", 0)
            )
            self.fields[prefix + "mvp"] = forms.TypedChoiceField(
                label="MVP",
                coerce=int,
                required=False,
                empty_value=None,
                choices=[("", "— none —")] + [(p.pk, _player_label(p)) for p in players.get(team.pk, [])],
                initial=line.get("mvp"),
            )
            self.fields[prefix + "conceded"] = forms.BooleanField(
                label="Conceded", required=False, initial=line.get("conceded", False) and not line.get("conceded_early")
            )
            self.fields[prefix + "conceded_early"] = forms.BooleanField(
                label="Conceded with 2 or fewer players to set up (no penalty)",
                required=False,
                initial=line.get("conceded_early", False),
            )
            self.fields[prefix + "fame"] = _number("FAME (0–2)", initial=line.get("fame", 0), maximum=2)
            for player in players.get(team.pk, []):
                row = rows.get(player.pk, {})
                prefix = f"player_{player.pk}_"
                for key, label, _ in RESULT_STATS:
                    self.fields[prefix + key] = _number(
                        label, required=False, initial=row.get(key, 0), **{"aria-label": f"{label}: {player.name}"}
                    )
                self.fields[prefix + "injury"] = forms.ChoiceField(
                    label="Injury",
                    required=False,
                    choices=[("", "—")] + [(i, words(i)) for i in injuries],
                    initial=row.get("injury", ""),
                    widget=forms.Select(attrs={"aria-label": f"Injury: {player.name}"}),
                )
                self.fields[prefix + "stat"] = forms.ChoiceField(
                    label="Stat lost",
                    required=False,
                    choices=[("", "—")] + [(s, s.upper()) for s in stat_names],
                    initial=row.get("stat", ""),
                    widget=forms.Select(attrs={"aria-label": f"Stat lost (with stat loss): {player.name}"}),
                )

    # The template walks teams, then their players' rows of bound fields.
    def sections(self) -> list[dict]:
        out = []
        for team in self.teams:
            prefix = f"team_{team.pk}_"
            keys = ("score", "casualties_inflicted", "mvp", "fame", "conceded", "conceded_early")
            rows = []
            for player in self.players.get(team.pk, []):
                prefix_p = f"player_{player.pk}_"
                keys_p = [k for k, _, _ in RESULT_STATS] + ["injury", "stat"]
                rows.append(
                    {"player": player, "label": _player_label(player), "fields": [self[prefix_p + k] for k in keys_p]}
                )
            out.append({"team": team, "fields": [self[prefix + k] for k in keys], "rows": rows})
        return out

    def body(self) -> dict:
        """The result body the service validates: every team's line, and a row for each player who did
        something or was injured (the others played a quiet match)."""
        data = self.cleaned_data
        teams, players = [], []
        self._sent_players = []
        for team in self.teams:
            prefix = f"team_{team.pk}_"
            teams.append(
                {
                    "team": team.pk,
                    "score": data[prefix + "score"],
                    "casualties_inflicted": data[prefix + "casualties_inflicted"],
                    "mvp": data[prefix + "mvp"],
                    "conceded": data[prefix + "conceded"],
                    "conceded_early": data[prefix + "conceded_early"],
                    "fame": data[prefix + "fame"],
                }
            )
        for team in self.teams:
            for player in self.players.get(team.pk, []):
                prefix = f"player_{player.pk}_"
                stats = {key: data[prefix + key] or 0 for key, _, _ in RESULT_STATS}
                injury = data[prefix + "injury"]
                if not any(stats.values()) and not injury:
                    continue
                row = {"player": player.pk, **stats}
                if injury:
                    row["injury"] = injury
                    if data[prefix + "stat"]:
                        row["stat"] = data[prefix + "stat"]
                players.append(row)
                self._sent_players.append(player)
        return {"teams": teams, "players": players}

    def add_service_error(self, exc: RuleViolation) -> None:
        """Put the service's message next to the field it names (`teams[0].score` → that team's score),
        in words: the team's or the player's name instead of the JSON path."""
        field, message = None, exc.message
        found = _RESULT_PATH.match(exc.field or "")
        if found:
            kind, index, attribute = found.group(1), int(found.group(2)), found.group(3) or ""
            owners = self.teams if kind == "teams" else self._sent_players
            if index < len(owners):
                owner = owners[index]
                message = message.replace(f"{kind}[{index}].", f"{owner.name}: ", 1)
                candidate = f"{'team' if kind == 'teams' else 'player'}_{owner.pk}_{attribute}"
                field = candidate if candidate in self.fields else None
        self.add_error(field, message)


def _player_label(player) -> str:
    number = f"#{player.number} " if player.number is not None else ""
    return f"{number}{player.name} ({player.position.name})"


# --- a step of the post-match sequence ------------------------------------------------------------------------


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


class StepForm(forms.Form):
    """One POST of the current step: the answer to its pending decision (if any), the optional choices it
    reads, and the dice rolled at the table per roll key (empty: the server rolls)."""

    step = forms.CharField(widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        step: str,
        pending: Mapping | None,
        roll_keys: Iterable[tuple[str, str]],
        names: Mapping[str, Mapping[int, str]],
        optional: Iterable[tuple[str, str, str]] = (),
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["step"].initial = step
        self.decision = (pending or {}).get("decision")
        self.decision_kind = None
        self.decision_fields: list[str] = []
        self.optional_fields: list[str] = []
        self.roll_fields: list[str] = []
        if self.decision:
            self._add_decision(self.decision, pending.get("options"), pending.get("message", ""), names)
        for name, kind, label in optional:
            field_name = f"opt_{name}"
            if kind == "flag":
                self.fields[field_name] = forms.BooleanField(label=label, required=False)
            else:
                self.fields[field_name] = _number(label, required=False, initial=0, maximum=20)
            self.optional_fields.append(field_name)
        for key, dice in roll_keys:
            field_name = f"roll_{key}"
            self.fields[field_name] = DiceField(
                label=f"{words(key)} ({dice})",
                required=False,
                max_length=200,
                widget=forms.TextInput(attrs={"placeholder": "roll for me", "inputmode": "numeric", "class": "dice"}),
            )
            self.roll_fields.append(field_name)

    # The template renders the three groups apart.
    @property
    def decision_bound(self) -> list:
        return [self[name] for name in self.decision_fields]

    @property
    def optional_bound(self) -> list:
        return [self[name] for name in self.optional_fields]

    @property
    def roll_bound(self) -> list:
        return [self[name] for name in self.roll_fields]

    def _add_decision(self, decision: str, options: Any, message: str, names: Mapping[str, Mapping[int, str]]):
        kind = DECISION_KINDS.get(decision) or _kind_of(options)
        self.decision_kind = kind
        if kind == "improvements":
            players = names.get("players", {})
            for player_id, levels in options.items():
                for index, level in enumerate(levels):
                    choices = _improvement_choices(level)
                    name = players.get(int(player_id), f"Player #{player_id}")
                    label = f"{name}, level {index + 1}" if len(levels) > 1 else name
                    field_name = f"improvement_{player_id}_{index}"
                    self.fields[field_name] = forms.ChoiceField(
                        label=label, choices=choices, help_text=level.get("explanation", "")
                    )
                    self.decision_fields.append(field_name)
            return
        if kind == "yes_no":
            field = forms.ChoiceField(label=message, choices=YES_NO, widget=forms.RadioSelect)
        elif kind == "ids":
            labels = names.get(ID_NAMES.get(decision, "players"), {})
            field = forms.TypedMultipleChoiceField(
                label=message,
                coerce=int,
                required=False,
                choices=[(i, labels.get(i, f"#{i}")) for i in options],
                widget=forms.CheckboxSelectMultiple,
            )
        elif kind == "gil":
            per_point = options.get("per_point", 1)
            field = forms.IntegerField(
                label=message,
                initial=0,
                help_text=f"In steps of {per_point:,} gil, up to {options.get('max', 0):,} gil.",
                widget=forms.NumberInput(attrs={"min": 0, "max": options.get("max", 0), "step": per_point}),
            )
        elif kind == "one_of":
            field = forms.ChoiceField(
                label=message,
                choices=[(o, OPTION_LABELS.get(o, words(str(o)))) for o in options],
                widget=forms.RadioSelect,
            )
        else:
            field = forms.JSONField(label=message, help_text=f"Options: {options}", widget=forms.Textarea({"rows": 3}))
        field.label_suffix = ""  # the message is a sentence of its own
        self.fields["decision"] = field
        self.decision_fields.append("decision")

    def choices(self) -> dict:
        data = self.cleaned_data
        out: dict[str, Any] = {}
        if self.decision_kind == "improvements":
            picks: dict[str, list[str]] = {}
            for field_name in self.decision_fields:
                _, player_id, _ = field_name.split("_")
                picks.setdefault(player_id, []).append(data[field_name])
            out["improvements"] = picks
        elif self.decision:
            answer = data["decision"]
            out[self.decision] = answer == "yes" if self.decision_kind == "yes_no" else answer
        for field_name in self.optional_fields:
            value = data.get(field_name)
            if value:  # unticked or zero: the step's default, so leave it out
                out[field_name.removeprefix("opt_")] = value
        return out

    def rolls(self) -> dict[str, list[int]]:
        return {
            name.removeprefix("roll_"): self.cleaned_data[name] for name in self.roll_fields if self.cleaned_data[name]
        }

    def add_service_error(self, exc: RuleViolation) -> None:
        """`rolls.winnings` → the winnings dice; `choices.<decision>` → the decision; else the whole form."""
        path = exc.field or ""
        field = None
        if path.startswith("rolls."):
            field = f"roll_{path.split('.')[1]}"
        elif path.startswith("choices.improvements."):
            field = f"improvement_{path.split('.')[2]}_0"
        elif path.startswith("choices."):
            name = path.split(".")[1]
            if name == self.decision and "decision" in self.fields:
                field = "decision"
            elif f"opt_{name}" in self.fields:
                field = f"opt_{name}"
        self.add_error(field if field in self.fields else None, exc.message)


def _improvement_choices(level: Mapping) -> list:
    """One level's options as grouped choices: the attributes the roll allows, then normal skills, then
    skills from double access (offered on a double)."""
    normal = list(level.get("normal_skills", []))
    groups = [
        ("Attribute", [(a, OPTION_LABELS.get(a, a)) for a in level.get("attributes", [])]),
        ("Normal skills", [(s, s) for s in normal]),
        ("Skills from double access", [(s, s) for s in level.get("skills", []) if s not in normal]),
    ]
    return [("", "— choose —")] + [(group, items) for group, items in groups if items]


def _kind_of(options: Any) -> str:
    """Ask a decision the table above does not know by the shape of its options."""
    if isinstance(options, list) and options and all(isinstance(o, bool) for o in options):
        return "yes_no"
    if isinstance(options, list) and options and all(isinstance(o, int) for o in options):
        return "ids"
    if isinstance(options, list) and options and all(isinstance(o, str) for o in options):
        return "one_of"
    return "json"
