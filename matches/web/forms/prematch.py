"""The pre-match pages' forms (api-v1 "Pre-match sequence", "Inducements"): one step's dice or "Done shopping",
and one purchase of the inducement page."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import forms

from campaigns.errors import RuleViolation
from matches.models import Inducement

from .common import dice_field, dice_fit, words
from .refusals import roll_refusal


class PrematchStepForm(forms.Form):
    """One POST of the current pre-match step (api-v1 "Pre-match sequence"): the dice rolled at the table —
    the match's own (weather) or each team's (fans, the Aggressor, terrain), empty: the server rolls — or,
    in a shopping turn, the team's "Done shopping"."""

    step = forms.CharField(widget=forms.HiddenInput)
    done = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        step: str,
        roll_keys: Iterable[tuple[str, str]] = (),
        teams: Iterable[tuple[int, str]] = (),
        per_team: bool = False,
        shopping: bool = False,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["step"].initial = step
        self.shopping = shopping
        if shopping:
            self.fields["done"].initial = True
        #: (field name, roll key, team id or None) of each dice input.
        self.roll_fields: list[tuple[str, str, int | None]] = []
        teams = list(teams)
        for key, dice in roll_keys:
            for team_id, name in teams if per_team else [(None, "")]:
                field_name = f"roll_{key}" if team_id is None else f"roll_{key}_{team_id}"
                label = f"{words(key)} ({dice})" if team_id is None else f"{name}: {words(key)} ({dice})"
                self.fields[field_name] = dice_field(label)
                self.roll_fields.append((field_name, key, team_id))

    @property
    def roll_bound(self) -> list:
        return [self[name] for name, _, _ in self.roll_fields]

    def rolls(self) -> dict | None:
        """`{key: [dice]}` for the match's own roll, `{key: {team id: [dice]}}` for the teams' (only the dice
        entered: a team left empty is rolled for by the server)."""
        out: dict[str, Any] = {}
        for name, key, team_id in self.roll_fields:
            values = self.cleaned_data.get(name)
            if not values:
                continue
            if team_id is None:
                out[key] = values
            else:
                out.setdefault(key, {})[str(team_id)] = values
        return out or None

    def choices(self) -> dict | None:
        return {"done": True} if self.shopping else None

    def add_service_error(self, exc: RuleViolation, catalogue: Mapping[str, str] | None = None) -> None:
        """`rolls.<key>` → that roll's input (of the team whose dice are at fault, when it can be told);
        anything else → the whole form."""
        path = exc.field or ""
        field = None
        if path.startswith("rolls."):
            key = path.split(".")[1]
            entered = [(name, team_id) for name, k, team_id in self.roll_fields if k == key]
            filled = [name for name, _ in entered if self.cleaned_data.get(name)]
            field = next((n for n in filled if not dice_fit(self.cleaned_data[n], key, catalogue)), None)
            field = field or (filled[0] if filled else None)
        label = self.fields[field].label.rsplit(" (", 1)[0] if field else None
        self.add_error(field, roll_refusal(exc.message, label) if path.startswith("rolls.") else exc.message)


class InducementForm(forms.Form):
    """One purchase of the inducement page (api-v1 "Inducements"): an item of the list, a Star Player or a
    Mercenary (a position of the team's roster, an optional extra skill). The rules decide the rest."""

    item = forms.ChoiceField(choices=Inducement.Item.choices, widget=forms.HiddenInput)
    position = forms.ChoiceField(label="Position", required=False)
    #: Offered per position; any value goes to the service, which decides (and says why not).
    skill = forms.CharField(label="Extra skill (optional)", required=False, max_length=40, widget=forms.Select)
    quantity = forms.IntegerField(
        label="How many",
        min_value=1,
        max_value=99,
        initial=1,
        widget=forms.NumberInput(attrs={"min": 1, "class": "count"}),
    )
    star = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        positions: Iterable[tuple[str, str]] = (),
        skill_groups: Iterable[tuple[str, Iterable[str]]] = (),
        extra_skill_price: str = "",
        **kwargs,
    ) -> None:
        """`skill_groups`: per position, its label and the extra skills it may take (grouped in the select)."""
        super().__init__(*args, **kwargs)
        self.fields["item"].initial = Inducement.Item.MERCENARY
        self.fields["position"].choices = [("", "— choose —"), *positions]
        groups = [(label, [(s, s) for s in names]) for label, names in skill_groups if names]
        self.fields["skill"].widget.choices = [("", "— none —"), *groups]
        if extra_skill_price:
            self.fields["skill"].label = f"Extra skill (optional, + {extra_skill_price})"

    def purchase(self) -> dict:
        data = self.cleaned_data
        item = data["item"]
        return {
            "item": item,
            "quantity": data["quantity"],
            "position": data.get("position", "") if item == Inducement.Item.MERCENARY else "",
            "skill": data.get("skill", "") if item == Inducement.Item.MERCENARY else "",
            "star": data.get("star", "") if item == Inducement.Item.STAR_PLAYER else "",
        }

    def add_service_error(self, exc: RuleViolation) -> None:
        field = exc.field if exc.field in ("quantity", "position", "skill", "star", "item") else None
        self.add_error(field, exc.message)
