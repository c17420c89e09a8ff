"""The "goals_on_field" result form (ElfBall, api-v1 "Result body"): per team its goals, each with the players on
the field; per player his Grit Challenge outcome and Magic Potion. The choices are the ruleset's own
(`result_choices` under the league's house rules)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from campaigns.errors import RuleViolation
from matches.web.forms.common import named_message, path_tokens, player_label, row_field, short_label


class ElfBallResultForm(forms.Form):
    """An ElfBall result: per team its goals — one group of player toggles per goal, ticking who was on the
    field when it was scored (a goal with nobody ticked was not scored; each goal won a Test) — whether it
    conceded or could not set up a face-off player; per player his Grit Challenge outcome and Magic Potion.
    `body()` builds api-v1's ElfBall result body."""

    #: What the form takes from the match beyond its teams, players, choices and result (the result page hands
    #: each form only these).
    needs: tuple[str, ...] = ("hr", "tests_to_win", "row_fields")

    template = "matches/result_elfball.html"

    def __init__(
        self,
        *args,
        teams: list,
        players: Mapping[int, list],
        hr: Mapping,
        tests_to_win: int | None,
        row_fields: Sequence,
        stock: Mapping[int, int] | None = None,
        choices: Mapping[str, list] | None = None,
        result: Mapping | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.teams = teams
        self.players = players
        #: A player's row, as the ruleset declares it (campaigns/rulesets/presentation.py `ResultField`).
        self.row_fields = tuple(row_fields)
        #: Magic Potions each team has in stock (rules/elfball.md "Magic Potion"): its players' potion fields.
        self.stock = stock if stock is not None else {t.pk: t.staff.get("magic_potion", 0) for t in teams}
        self.tests_to_win = max(1, int(tests_to_win or hr.get("tests_to_win", 2)))
        self._sent: dict[str, list] = {"teams": [], "goals": [], "players": [], "potions": []}
        result = result or {}
        lines = {line.get("team"): line for line in result.get("teams", [])}
        goals: dict[int, list] = {}
        for goal in result.get("goals", []):
            goals.setdefault(goal.get("team"), []).append(list(goal.get("on_field", [])))
        rows = {row.get("player"): row for row in result.get("players", [])}
        # A stored (normalised) result keeps each player's first potion on his row.
        potions = {
            player: {
                "roll": row["potion"],
                "ability": row.get("potion_ability"),
                "attribute": row.get("potion_attribute"),
            }
            for player, row in rows.items()
            if row.get("potion") is not None
        }
        potions.update({row.get("player"): row for row in result.get("potions", [])})
        choices = choices or {}
        for team in teams:
            line, prefix = lines.get(team.pk, {}), f"team_{team.pk}_"
            roster = players.get(team.pk, [])
            scored = goals.get(team.pk, [])
            for n in range(1, self.tests_to_win + 1):
                self.fields[f"{prefix}goal_{n}"] = forms.TypedMultipleChoiceField(
                    label=f"Goal {n}",
                    coerce=int,
                    required=False,
                    choices=[(p.pk, short_label(p)) for p in roster],
                    initial=scored[n - 1] if n <= len(scored) else [],
                    widget=forms.CheckboxSelectMultiple(attrs={"class": "toggle"}),
                )
            self.fields[prefix + "conceded"] = forms.BooleanField(
                label="Conceded", required=False, initial=line.get("conceded", False)
            )
            self.fields[prefix + "no_face_off"] = forms.BooleanField(
                label="Could not set up a face-off player", required=False, initial=line.get("no_face_off", False)
            )
            for player in roster:
                row, potion, p = rows.get(player.pk, {}), potions.get(player.pk, {}), f"player_{player.pk}_"
                # The stored result's values by the row's keys (a potion's are on its own entry).
                values = {
                    "injury": row.get("injury") or "",
                    "attribute": row.get("attribute") or "",
                    "potion": potion.get("roll"),
                    "potion_ability": potion.get("ability") or "",
                    "potion_attribute": potion.get("attribute") or "",
                }
                for spec in self._columns(team):
                    self.fields[p + spec.key] = row_field(spec, player, choices, values.get(spec.key))

    def _columns(self, team) -> tuple:
        """The row's fields a team's players have: those needing a support item only when the team has it in
        stock (Magic Potions)."""
        return tuple(spec for spec in self.row_fields if not spec.stock or self.stock.get(team.pk))

    def _value(self, name: str):
        """The field's value as the page shows it: cleaned, posted, or initial."""
        if hasattr(self, "cleaned_data") and name in self.cleaned_data:
            return self.cleaned_data[name]
        return self[name].value()

    def sections(self) -> list[dict]:
        out = []
        for team in self.teams:
            prefix = f"team_{team.pk}_"
            goals = [self[f"{prefix}goal_{n}"] for n in range(1, self.tests_to_win + 1)]
            rows = []
            columns = self._columns(team)
            for player in self.players.get(team.pk, []):
                p = f"player_{player.pk}_"
                fields = [self[p + spec.key] for spec in columns]
                rows.append({"player": player, "label": player_label(player), "fields": fields})
            out.append(
                {
                    "team": team,
                    "goals": goals,
                    "tests_won": sum(1 for g in goals if self._value(g.name)),
                    "flags": [self[prefix + "conceded"], self[prefix + "no_face_off"]],
                    "potions": self.stock.get(team.pk, 0),
                    "columns": columns,
                    "rows": rows,
                }
            )
        return out

    def body(self) -> dict:
        data = self.cleaned_data
        sent: dict[str, list] = {"teams": [], "goals": [], "players": [], "potions": []}
        teams, goals, players, potions = [], [], [], []
        for team in self.teams:
            prefix = f"team_{team.pk}_"
            scored = [(n, data[f"{prefix}goal_{n}"]) for n in range(1, self.tests_to_win + 1)]
            scored = [(n, ids) for n, ids in scored if ids]
            teams.append(
                {
                    "team": team.pk,
                    "score": len(scored),
                    "conceded": data[prefix + "conceded"],
                    "no_face_off": data[prefix + "no_face_off"],
                }
            )
            sent["teams"].append(team)
        for team in self.teams:
            for n in range(1, self.tests_to_win + 1):
                on_field = data[f"team_{team.pk}_goal_{n}"]
                if on_field:
                    goals.append({"team": team.pk, "on_field": list(on_field)})
                    sent["goals"].append((team, n))
        for team in self.teams:
            for player in self.players.get(team.pk, []):
                p = f"player_{player.pk}_"
                if data[p + "injury"]:
                    row = {"player": player.pk, "injury": data[p + "injury"]}
                    if data[p + "attribute"]:
                        row["attribute"] = data[p + "attribute"]
                    players.append(row)
                    sent["players"].append(player)
                if data.get(p + "potion") is not None:
                    potion = {"player": player.pk, "roll": data[p + "potion"]}
                    if data[p + "potion_ability"]:
                        potion["ability"] = data[p + "potion_ability"]
                    if data[p + "potion_attribute"]:
                        potion["attribute"] = data[p + "potion_attribute"]
                    potions.append(potion)
                    sent["potions"].append(player)
        self._sent = sent
        body: dict[str, Any] = {"teams": teams, "goals": goals, "players": players}
        if potions:
            body["potions"] = potions
        return body

    def add_service_error(self, exc: RuleViolation) -> None:
        """`goals[1].on_field` → that team's goal; `players[0].attribute` → that player's attribute; and so on,
        with the JSON path replaced by the team's or the player's name."""
        tokens, field, message = path_tokens(exc.field or ""), None, exc.message
        if len(tokens) >= 2 and isinstance(tokens[1], int) and tokens[0] in self._sent:
            kind, index = tokens[0], tokens[1]
            attribute = tokens[2] if len(tokens) > 2 and isinstance(tokens[2], str) else ""
            owners = self._sent[kind]
            if index < len(owners):
                owner = owners[index]
                if kind == "teams":
                    name = owner.name
                    field = {"conceded": "conceded", "no_face_off": "no_face_off"}.get(attribute, "goal_1")
                    field = f"team_{owner.pk}_{field}"
                elif kind == "goals":
                    team, n = owner
                    name, field = f"{team.name}, goal {n}", f"team_{team.pk}_goal_{n}"
                elif kind == "players":
                    name = owner.name
                    field = f"player_{owner.pk}_{'attribute' if attribute == 'attribute' else 'injury'}"
                else:
                    name = f"{owner.name}'s potion"
                    suffix = {"ability": "_ability", "attribute": "_attribute"}.get(attribute, "")
                    field = f"player_{owner.pk}_potion{suffix}"
                message = named_message(message, exc.field or "", f"{kind}[{index}]", name)
        self.add_error(field if field in self.fields else None, message)
