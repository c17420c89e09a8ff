"""One POST of a post-match step (api-v1 "Post-match sequence"): the answer to its pending decision — asked by
the widget its ruleset names for it (`decisions.WIDGETS`) — the optional choices the step offers this team, and
the dice rolled at the table for the rolls the step can use (empty: the server rolls)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django import forms

from campaigns.errors import RuleViolation

from . import decisions
from .common import dice_field, number, path_tokens, words
from .refusals import plain, roll_refusal


def _condition_wording(rules: Any, hr: Mapping | None) -> Callable[[Mapping], str]:
    """The ruleset's own wording of a lasting condition (Bone Cruncher's `words.condition`), capitalised."""
    condition = getattr(getattr(rules, "words", None), "condition", None)

    def say(c: Mapping) -> str:
        if condition is None:
            side = c.get("side")
            return words(str(c.get("key", ""))) + (f" ({side})" if side else "")
        text = condition(c, hr=hr)
        return text[:1].upper() + text[1:]

    return say


class StepForm(forms.Form):
    step = forms.CharField(widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        step: str,
        pending: Mapping | None,
        roll_keys: Iterable[tuple[str, str]],
        names: Mapping[str, Mapping[int, str]],
        optional: Iterable[tuple[str, str, str]] = (),
        rules: Any = None,
        hr: Mapping | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["step"].initial = step
        self.rules_id_labels = getattr(rules, "id_labels", {})
        self.rules_option_labels = getattr(rules, "option_labels", {})
        self.condition_words = _condition_wording(rules, hr)
        # A Trainer's healing (Bone Cruncher's `heal` widget): boxes per Trainer and the hint, from the house rules.
        self.heal_boxes = int((hr or {}).get("trainer_healing", {}).get("boxes_per_trainer", 3))
        hint = getattr(getattr(rules, "words", None), "trainer_hint", None)
        self.heal_hint = hint(hr) if hint else ""
        self.decision = (pending or {}).get("decision")
        self.decision_kind = None
        self.decision_fields: list[str] = []
        self.optional_fields: list[str] = []
        self.roll_fields: list[str] = []
        self.heal_rows: list[tuple[str, str, str]] = []
        #: Bone Cruncher healing: per player, the conditions a Trainer may remove and his name.
        self.heal_conditions: dict[int, tuple[set[str], str]] = {}
        if self.decision:
            options = pending.get("options")
            kind = getattr(rules, "decision_widgets", {}).get(self.decision) or decisions.kind_of(options)
            if kind in decisions.GROUPED and kind != "improvements" and not isinstance(options, Mapping | list):
                kind = "json"
            self.decision_kind = kind
            decisions.WIDGETS[kind](self, self.decision, options, pending.get("message", ""), names)
        for name, kind, label in optional:
            field_name = f"opt_{name}"
            if kind == "flag":
                self.fields[field_name] = forms.BooleanField(label=label, required=False)
            else:
                self.fields[field_name] = number(label, required=False, initial=0, maximum=20)
            self.optional_fields.append(field_name)
        for key, dice in roll_keys:
            self.fields[f"roll_{key}"] = dice_field(f"{words(key)} ({dice})")
            self.roll_fields.append(f"roll_{key}")

    # The template renders the groups apart.
    @property
    def shows_message(self) -> bool:
        """The decision's fields are labelled per player: the pending message says what is asked."""
        return self.decision_kind in decisions.GROUPED

    @property
    def heal_bound(self) -> list:
        """Per Trainer (player, boxes, condition) bound fields."""
        return [tuple(self[name] for name in row) for row in self.heal_rows]

    @property
    def decision_bound(self) -> list:
        return [self[name] for name in self.decision_fields]

    @property
    def optional_bound(self) -> list:
        return [self[name] for name in self.optional_fields]

    @property
    def roll_bound(self) -> list:
        return [self[name] for name in self.roll_fields]

    def clean(self):
        data = super().clean()
        for player_field, boxes_field, remove_field in self.heal_rows:
            player, boxes, remove = data.get(player_field), data.get(boxes_field), data.get(remove_field)
            if (boxes or remove) and player is None:
                self.add_error(player_field, "Choose the player this Trainer heals.")
            elif boxes and remove:
                self.add_error(remove_field, "A Trainer heals wound boxes or removes a condition, not both.")
            elif remove and player is not None:
                own, name = self.heal_conditions.get(player, (set(), f"Player #{player}"))
                if remove not in own:
                    message = f"{name} has no such condition to remove: choose one listed under his name."
                    self.add_error(remove_field, message)
        return data

    def choices(self) -> dict:
        data = self.cleaned_data
        out: dict[str, Any] = {}
        kind = self.decision_kind
        if kind == "abilities":
            out["abilities"] = {name.removeprefix("ability_"): list(data[name]) for name in self.decision_fields}
        elif kind == "lasting_injury":
            out["lasting_injury"] = {name.removeprefix("lasting_"): data[name] for name in self.decision_fields}
        elif kind == "heal":
            rows = []
            for player_field, boxes_field, remove_field in self.heal_rows:
                player = data.get(player_field)
                if player is None:
                    continue
                if data.get(remove_field):
                    key, _, side = data[remove_field].partition(":")
                    rows.append({"player": player, "remove": key, **({"side": side} if side else {})})
                elif data.get(boxes_field):
                    rows.append({"player": player, "boxes": data[boxes_field]})
            out["heal"] = rows
        elif kind == "promote":
            out["promote"] = list(data["decision"])
        elif kind == "improvements":
            picks: dict[str, list[str]] = {}
            for field_name in self.decision_fields:
                _, player_id, _ = field_name.split("_")
                picks.setdefault(player_id, []).append(data[field_name])
            out["improvements"] = picks
        elif self.decision:
            answer = data["decision"]
            out[self.decision] = answer == "yes" if kind == "yes_no" else answer
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
        """`rolls.winnings` → the winnings dice; `choices.<decision>` → the decision; else the whole form — the
        message said in words, without the request's path."""
        path = exc.field or ""
        field = None
        message = plain(exc.message)
        if path.startswith("rolls."):
            field = f"roll_{path.split('.')[1]}"
            label = self.fields[field].label.rsplit(" (", 1)[0] if field in self.fields else None
            message = roll_refusal(exc.message, label)
        elif path.startswith("choices.improvements."):
            field = f"improvement_{path.split('.')[2]}_0"
        elif self.decision_kind in ("abilities", "lasting_injury", "heal") and path.startswith(
            f"choices.{self.decision}"
        ):
            tokens = path_tokens(path)[2:]
            key = tokens[0] if tokens else None
            if self.decision_kind == "heal":
                rows = self.heal_rows
                row = rows[key] if isinstance(key, int) and key < len(rows) else (rows[0] if rows else ())
                part = tokens[1] if len(tokens) > 1 else "player"
                field = next((f for f in row if f.endswith(f"_{part}")), row[0] if row else None)
            else:
                prefix = "ability_" if self.decision_kind == "abilities" else "lasting_"
                field = f"{prefix}{key}" if key is not None else None
                if field not in self.fields and self.decision_fields:
                    field = self.decision_fields[0]
        elif path.startswith("choices."):
            tokens = path_tokens(path)
            name = str(tokens[1]) if len(tokens) > 1 else ""
            if name == self.decision and "decision" in self.fields:
                field = "decision"
            elif f"opt_{name}" in self.fields:
                field = f"opt_{name}"
        self.add_error(field if field in self.fields else None, message)
