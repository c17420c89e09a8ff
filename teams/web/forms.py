"""The team pages' forms: founding a team, hiring a player, buying for the team."""

from __future__ import annotations

from django import forms

#: A price's unit by the ruleset's economy (a treasury in gil, a points budget, or none).
UNITS = {"gil": " gil", "points": " points"}


def price_unit(rules) -> str:
    return UNITS.get(rules.economy, "")


class TeamForm(forms.Form):
    name = forms.CharField(max_length=100)
    roster = forms.ChoiceField(choices=())

    def __init__(self, *args, rosters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["roster"].choices = [(r.key, r.name) for r in rosters]


class HireForm(forms.Form):
    position = forms.ChoiceField(choices=())
    name = forms.CharField(max_length=100)
    number = forms.IntegerField(required=False, min_value=0, max_value=99)
    role = forms.ChoiceField(choices=[("", "—"), ("captain", "Great Captain"), ("goalie", "Goalie")], required=False)

    def __init__(self, *args, positions=(), roles=(), unit="", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["position"].choices = [(p.key, f"{p.name} ({p.cost:,}{unit})") for p in positions]
        if not roles:
            del self.fields["role"]


ITEM_LABELS = {"reroll": "Team re-roll", "fan_factor": "Fan Factor point", "hired_gun_wizard": "Hired Gun Wizard"}


class PurchaseForm(forms.Form):
    item = forms.ChoiceField(choices=())
    quantity = forms.IntegerField(min_value=1, max_value=99, initial=1)

    def __init__(self, *args, items=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["item"].choices = [(i, ITEM_LABELS.get(i, i.replace("_", " ").capitalize())) for i in items]
