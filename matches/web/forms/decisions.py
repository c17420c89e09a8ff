"""The widgets that ask a post-match step's pending decision, keyed by KIND — never by ruleset. A ruleset names
the kind of each of its decisions (`Ruleset.decision_widgets`, campaigns/rulesets/<key>/pages.py); a decision it
does not name is asked by the shape of its options. Each widget adds its fields to the step's form."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from json import dumps as json_dumps
from typing import Any

from django import forms

from .common import words

YES_NO = [("yes", "Yes"), ("no", "No")]

#: Widgets asking with a field per player (or per Trainer): the pending message heads them.
GROUPED = frozenset({"improvements", "abilities", "lasting_injury", "heal", "promote"})


def kind_of(options: Any) -> str:
    """Ask a decision no ruleset names by the shape of its options."""
    if isinstance(options, list) and options and all(isinstance(o, bool) for o in options):
        return "yes_no"
    if isinstance(options, list) and options and all(isinstance(o, int) for o in options):
        return "ids"
    if isinstance(options, list) and options and all(isinstance(o, str) for o in options):
        return "one_of"
    return "json"


def _single(form, field: forms.Field) -> None:
    field.label_suffix = ""  # the message is a sentence of its own
    form.fields["decision"] = field
    form.decision_fields.append("decision")


def yes_no(form, decision: str, options: Any, message: str, names: Mapping) -> None:
    _single(form, forms.ChoiceField(label=message, choices=YES_NO, widget=forms.RadioSelect))


def ids(form, decision: str, options: Any, message: str, names: Mapping) -> None:
    labels = names.get(form.rules_id_labels.get(decision, "players"), {})
    field = forms.TypedMultipleChoiceField(
        label=message,
        coerce=int,
        required=False,
        choices=[(i, labels.get(i, f"#{i}")) for i in options],
        widget=forms.CheckboxSelectMultiple,
    )
    _single(form, field)


def gil(form, decision: str, options: Any, message: str, names: Mapping) -> None:
    per_point = options.get("per_point", 1)
    field = forms.IntegerField(
        label=message,
        initial=0,
        help_text=f"In steps of {per_point:,} gil, up to {options.get('max', 0):,} gil.",
        widget=forms.NumberInput(attrs={"min": 0, "max": options.get("max", 0), "step": per_point}),
    )
    _single(form, field)


def one_of(form, decision: str, options: Any, message: str, names: Mapping) -> None:
    labels = form.rules_option_labels
    field = forms.ChoiceField(
        label=message, choices=[(o, labels.get(o, words(str(o)))) for o in options], widget=forms.RadioSelect
    )
    _single(form, field)


def json(form, decision: str, options: Any, message: str, names: Mapping) -> None:
    _single(form, forms.JSONField(label=message, help_text=f"Options: {options}", widget=forms.Textarea({"rows": 3})))


def improvements(form, decision: str, options: Any, message: str, names: Mapping) -> None:
    """Per player and level rolled: an attribute the roll allows, a normal skill, or one from double access."""
    labels = form.rules_option_labels
    players = names.get("players", {})
    for player_id, levels in options.items():
        for index, level in enumerate(levels):
            normal = list(level.get("normal_skills", []))
            groups = [
                ("Attribute", [(a, labels.get(a, a)) for a in level.get("attributes", [])]),
                ("Normal skills", [(s, s) for s in normal]),
                ("Skills from double access", [(s, s) for s in level.get("skills", []) if s not in normal]),
            ]
            name = players.get(int(player_id), f"Player #{player_id}")
            field_name = f"improvement_{player_id}_{index}"
            form.fields[field_name] = forms.ChoiceField(
                label=f"{name}, level {index + 1}" if len(levels) > 1 else name,
                choices=[("", "— choose —")] + [(g, items) for g, items in groups if items],
                help_text=level.get("explanation", ""),
            )
            form.decision_fields.append(field_name)


def abilities(form, decision: str, options: Any, message: str, names: Mapping) -> None:
    """Per player entitled to new abilities, the abilities he may learn (none ticked: learn later)."""
    for player_id, offer in options.items():
        offer = offer if isinstance(offer, Mapping) else {"learnable": offer}
        name = offer.get("name") or names.get("players", {}).get(int(player_id), f"Player #{player_id}")
        field_name = f"ability_{player_id}"
        form.fields[field_name] = forms.MultipleChoiceField(
            label=f"{name} (may learn {offer.get('entitlements', 1)})",
            required=False,
            choices=[(a, words(a)) for a in offer.get("learnable", [])],
            widget=forms.CheckboxSelectMultiple,
            help_text="Tick none to keep the entitlement and learn later (from the team sheet).",
        )
        form.decision_fields.append(field_name)


def lasting_injury(form, decision: str, options: Any, message: str, names: Mapping) -> None:
    """Per player with a lasting injury, which of his tied highest attributes loses a point."""
    players = names.get("players", {})
    for player_id, attributes in options.items():
        field_name = f"lasting_{player_id}"
        form.fields[field_name] = forms.ChoiceField(
            label=players.get(int(player_id), f"Player #{player_id}"),
            choices=[(a, words(a)) for a in attributes],
            widget=forms.RadioSelect,
        )
        form.decision_fields.append(field_name)


def heal(form, decision: str, options: Any, message: str, names: Mapping) -> None:
    """One row per Trainer: the player he heals, and the wound boxes he heals or the condition he removes. The
    conditions are each player's own that the step says a Trainer may remove under the league's house rules
    (its `healable`, from the ruleset's wounds rules), grouped under the player; `clean` refuses a condition of
    another player than the chosen one."""
    players = options.get("players", {}) if isinstance(options, Mapping) else {}
    labels = names.get("players", {})
    condition = form.condition_words
    boxes = form.heal_boxes
    choices: list = [("", "— nobody —")]
    groups: list = []
    group_names: dict[str, str] = {}
    for player_id, about in players.items():
        about = about if isinstance(about, Mapping) else {}
        name = about.get("name") or labels.get(int(player_id), f"Player #{player_id}")
        conditions = [c for c in about.get("conditions", []) if isinstance(c, Mapping)]
        details = [f"{about.get('wounds', 0)} wound(s)"] + [condition(c) for c in conditions]
        choices.append((int(player_id), f"{name} ({'; '.join(details)})"))
        own = [(f"{c.get('key')}:{c.get('side') or ''}", condition(c)) for c in conditions if c.get("healable")]
        form.heal_conditions[int(player_id)] = ({value for value, _ in own}, name)
        if own:
            groups.append((name, own))
            group_names[str(int(player_id))] = name
    for index in range(int(options.get("trainers", 1) if isinstance(options, Mapping) else 1)):
        label = f"Trainer {index + 1}"
        form.fields[f"heal_{index}_player"] = forms.TypedChoiceField(
            label=f"{label}: player", coerce=int, required=False, empty_value=None, choices=choices
        )
        form.fields[f"heal_{index}_boxes"] = forms.IntegerField(
            label=f"{label}: wound boxes healed",
            required=False,
            min_value=0,
            max_value=boxes,
            initial=0,
            widget=forms.NumberInput(attrs={"min": 0, "max": boxes, "class": "count"}),
        )
        form.fields[f"heal_{index}_remove"] = forms.ChoiceField(
            label=f"{label}: or remove a condition of that player",
            required=False,
            choices=[("", "—"), *groups],
            # Progressive enhancement (static/js/heal-conditions.js): only the chosen player's group is offered.
            widget=forms.Select(
                attrs={"data-by-player": f"heal_{index}_player", "data-player-names": json_dumps(group_names)}
            ),
        )
        row = [f"heal_{index}_{part}" for part in ("player", "boxes", "remove")]
        for name in row:  # the table's cells carry no <label>
            form.fields[name].widget.attrs["aria-label"] = form.fields[name].label
        form.decision_fields += row
        form.heal_rows.append(tuple(row))


def promote(form, decision: str, options: Any, message: str, names: Mapping) -> None:
    """The veterans who may be promoted to Elite now (at most `slots`)."""
    eligible = options.get("eligible", []) if isinstance(options, Mapping) else []
    slots = options.get("slots", 0) if isinstance(options, Mapping) else 0
    field = forms.TypedMultipleChoiceField(
        label=f"Promote to Elite (up to {slots})",
        coerce=int,
        required=False,
        choices=[
            (e["player"], f"{e.get('name', '#' + str(e['player']))} — survived {e.get('matches_survived', '?')}")
            for e in eligible
        ],
        widget=forms.CheckboxSelectMultiple,
    )
    form.fields["decision"] = field
    form.decision_fields.append("decision")


#: Widget kind → the function adding its fields.
WIDGETS: Mapping[str, Callable[..., None]] = {
    "yes_no": yes_no,
    "ids": ids,
    "gil": gil,
    "one_of": one_of,
    "json": json,
    "improvements": improvements,
    "abilities": abilities,
    "lasting_injury": lasting_injury,
    "heal": heal,
    "promote": promote,
}
