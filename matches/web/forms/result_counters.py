"""The "player_counters" result form (Blitz Bowl, api-v1 "Result body"): per team its line, per player of both
teams the row its ruleset declares (`result_row_fields`: counters, an injury and the stat it lowered)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from django import forms

from campaigns.errors import RuleViolation
from matches.web.forms.common import number, player_label, row_field

_RESULT_PATH = re.compile(r"^(teams|players)\[(\d+)\](?:\.(\w+))?")


class ResultForm(forms.Form):
    """A Blitz Bowl result: per team its line, per player of both teams his match. Fields are named
    `team_<id>_<key>` and `player_<id>_<key>`; `body()` builds the JSON body of api-v1 "Result body"."""

    #: What the form takes from the match beyond its teams, players, choices and result (the result page hands
    #: each form only these).
    needs: tuple[str, ...] = ("row_fields",)

    def __init__(
        self,
        *args,
        teams: list,
        players: Mapping[int, list],
        choices: Mapping[str, list],
        row_fields: Sequence,
        result: Mapping | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.teams = teams
        self.players = players
        #: A player's row, as the ruleset declares it (campaigns/rulesets/presentation.py `ResultField`).
        self.row_fields = tuple(row_fields)
        self._sent_players: list = []
        lines = {line["team"]: line for line in (result or {}).get("teams", [])}
        rows = {row["player"]: row for row in (result or {}).get("players", [])}
        for team in teams:
            line = lines.get(team.pk, {})
            prefix = f"team_{team.pk}_"
            self.fields[prefix + "score"] = number("Score (touchdowns)", initial=line.get("score", 0))
            self.fields[prefix + "casualties_inflicted"] = number(
                "Casualties inflicted", initial=line.get("casualties_inflicted", 0)
            )
            self.fields[prefix + "mvp"] = forms.TypedChoiceField(
                label="MVP",
                coerce=int,
                required=False,
                empty_value=None,
                choices=[("", "— none —")] + [(p.pk, player_label(p)) for p in players.get(team.pk, [])],
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
            self.fields[prefix + "fame"] = number("FAME (0–2)", initial=line.get("fame", 0), maximum=2)
            for player in players.get(team.pk, []):
                row = rows.get(player.pk, {})
                prefix = f"player_{player.pk}_"
                for spec in self.row_fields:
                    self.fields[prefix + spec.key] = row_field(spec, player, choices, row.get(spec.key, ""))

    # The template walks teams, then their players' rows of bound fields.
    def sections(self) -> list[dict]:
        out = []
        for team in self.teams:
            prefix = f"team_{team.pk}_"
            keys = ("score", "casualties_inflicted", "mvp", "fame", "conceded", "conceded_early")
            rows = []
            for player in self.players.get(team.pk, []):
                prefix_p = f"player_{player.pk}_"
                fields = [self[prefix_p + spec.key] for spec in self.row_fields]
                rows.append({"player": player, "label": player_label(player), "fields": fields})
            out.append(
                {"team": team, "fields": [self[prefix + k] for k in keys], "columns": self.row_fields, "rows": rows}
            )
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
                stats = {spec.key: data[prefix + spec.key] or 0 for spec in self.row_fields if spec.kind == "count"}
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
