"""The "wounds_by_area" result form (Bone Cruncher, api-v1 "Result body"): per team its points or placing and its
squad; per player the wounds taken — a count, or per body area — and critical wounds from the league's chart.
Body areas and chart come from the ruleset (`result_choices`), never a copy."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms

from campaigns.errors import RuleViolation

from .common import named_message, number, path_tokens, player_label, player_select, short_label, words

#: Critical wounds one player's row of the result form offers.
CRITICAL_SLOTS = 3


class BoneCruncherResultForm(forms.Form):
    """A Bone Cruncher result: per team its points (Scorchball) or placing and eliminations (Terminix) and
    its squad; per player the wounds taken — a count, or per body area on a body diagram when the league plays
    advanced wounds — and up to three critical wounds from the chart (with the side for an arm or a leg)."""

    #: What the form takes from the match beyond its teams, players, choices and result (the result page hands
    #: each form only these).
    needs: tuple[str, ...] = ("hr", "event", "templates")

    template = "matches/result_bonecruncher.html"

    def __init__(
        self,
        *args,
        teams: list,
        players: Mapping[int, list],
        hr: Mapping,
        event: str,
        choices: Mapping[str, list],
        templates: Mapping[int, Mapping] | None = None,
        result: Mapping | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.teams = teams
        self.players = players
        self.event = event or "scorchball"
        self.terminix = self.event == "terminix"
        self.advanced = bool(hr.get("advanced_wounds"))
        self.templates = templates or {}
        self.squad_size = hr.get("events", {}).get(self.event, {}).get("squad")
        #: The league's Critical Wound Chart as the form offers it: roll → the chart's area ("arm", "leg", …).
        self.chart = dict(choices.get("chart", {}))
        self.areas = [area for area, _ in choices.get("area", [])]
        self._sent: dict[str, list] = {"teams": [], "wounds": []}
        self._slots: dict[int, list[int]] = {}
        result = result or {}
        lines = {line.get("team"): line for line in result.get("teams", [])}
        # A stored (normalised) result keeps the wounds on its per-player rows.
        wounds = {row.get("player"): row for row in result.get("wounds") or result.get("players", [])}
        critical, sides = choices.get("critical", []), choices.get("side", [])
        for team in teams:
            line, prefix = lines.get(team.pk, {}), f"team_{team.pk}_"
            roster = players.get(team.pk, [])
            if self.terminix:
                self.fields[prefix + "placing"] = forms.IntegerField(
                    label="Placing",
                    min_value=1,
                    max_value=len(teams),
                    initial=line.get("placing"),
                    widget=forms.NumberInput(attrs={"min": 1, "max": len(teams), "class": "count"}),
                )
                self.fields[prefix + "eliminations"] = number("Eliminations", initial=line.get("eliminations", 0))
            else:
                self.fields[prefix + "score"] = number("Points", initial=line.get("score", 0))
            self.fields[prefix + "squad"] = forms.TypedMultipleChoiceField(
                label=f"Squad (up to {self.squad_size})" if self.squad_size else "Squad",
                coerce=int,
                required=False,
                choices=[(p.pk, short_label(p)) for p in roster],
                # A Scorchball team with no more players than a squad fields them all.
                initial=line.get("squad")
                or ([p.pk for p in roster] if not self.terminix and len(roster) <= (self.squad_size or 0) else []),
                widget=forms.CheckboxSelectMultiple(attrs={"class": "toggle"}),
            )
            for player in roster:
                row, p = wounds.get(player.pk, {}), f"player_{player.pk}_"
                if self.advanced:
                    template = self.templates.get(player.pk, {})
                    areas = row.get("areas") or {}
                    for area in self.areas:
                        self.fields[p + area] = number(
                            words(area),
                            required=False,
                            initial=areas.get(area, 0),
                            maximum=template.get(area, 99),
                            **{"aria-label": f"{words(area)}: {player.name}"},
                        )
                else:
                    self.fields[p + "wounds"] = number(
                        "Wounds",
                        required=False,
                        initial=row.get("wounds") or 0,
                        **{"aria-label": f"Wounds: {player.name}"},
                    )
                given = list(row.get("critical") or [])
                for k in range(1, CRITICAL_SLOTS + 1):
                    item = given[k - 1] if k <= len(given) else None
                    roll = item.get("roll") if isinstance(item, Mapping) else item
                    side = item.get("side", "") if isinstance(item, Mapping) else ""
                    self.fields[f"{p}critical_{k}"] = player_select(
                        f"Critical wound {k}", player, critical, roll, numbers=True
                    )
                    self.fields[f"{p}critical_{k}_side"] = player_select(
                        f"Side of critical wound {k}", player, sides, side or ""
                    )

    def sections(self) -> list[dict]:
        out = []
        for team in self.teams:
            prefix = f"team_{team.pk}_"
            keys = ("placing", "eliminations") if self.terminix else ("score",)
            rows = []
            for player in self.players.get(team.pk, []):
                p = f"player_{player.pk}_"
                template = self.templates.get(player.pk, {})
                rows.append(
                    {
                        "player": player,
                        "label": player_label(player),
                        "count": None if self.advanced else self[p + "wounds"],
                        "areas": [(area, self[p + area], template.get(area)) for area in self.areas]
                        if self.advanced
                        else [],
                        "criticals": [
                            (self[f"{p}critical_{k}"], self[f"{p}critical_{k}_side"])
                            for k in range(1, CRITICAL_SLOTS + 1)
                        ],
                    }
                )
            out.append(
                {
                    "team": team,
                    "fields": [self[prefix + k] for k in keys],
                    "squad": self[prefix + "squad"],
                    "rows": rows,
                }
            )
        return out

    def clean(self):
        data = super().clean()
        for team in self.teams:
            for player in self.players.get(team.pk, []):
                for k in range(1, CRITICAL_SLOTS + 1):
                    name = f"player_{player.pk}_critical_{k}"
                    roll, side = data.get(name), data.get(name + "_side")
                    if roll is None and side:
                        self.add_error(name, "Choose the critical wound this side belongs to.")
                    elif side and self.chart.get(roll, "") not in ("arm", "leg"):
                        self.add_error(name + "_side", "Only a critical wound to an arm or a leg has a side.")
        return data

    def body(self) -> dict:
        data = self.cleaned_data
        sent: dict[str, list] = {"teams": [], "wounds": []}
        self._slots = {}
        teams, wounds = [], []
        for team in self.teams:
            prefix = f"team_{team.pk}_"
            squad = list(data[prefix + "squad"])
            if self.terminix:
                line = {
                    "team": team.pk,
                    "placing": data[prefix + "placing"],
                    "eliminations": data[prefix + "eliminations"],
                }
                if squad:
                    line["squad"] = squad
            else:
                line = {"team": team.pk, "score": data[prefix + "score"], "squad": squad}
            teams.append(line)
            sent["teams"].append(team)
        for team in self.teams:
            for player in self.players.get(team.pk, []):
                p = f"player_{player.pk}_"
                critical, slots = [], []
                for k in range(1, CRITICAL_SLOTS + 1):
                    roll = data.get(f"{p}critical_{k}")
                    if roll is None:
                        continue
                    side = data.get(f"{p}critical_{k}_side")
                    critical.append({"roll": roll, "side": side} if side else roll)
                    slots.append(k)
                if self.advanced:
                    areas = {area: data.get(p + area) or 0 for area in self.areas}
                    if not any(areas.values()) and not critical:
                        continue
                    row = {"player": player.pk, "areas": areas, "critical": critical}
                else:
                    count = data.get(p + "wounds") or 0
                    if not count and not critical:
                        continue
                    row = {"player": player.pk, "wounds": count, "critical": critical}
                wounds.append(row)
                sent["wounds"].append(player)
                self._slots[player.pk] = slots
        self._sent = sent
        return {"teams": teams, "wounds": wounds}

    def add_service_error(self, exc: RuleViolation) -> None:
        """`teams[1].squad` → that team's squad; `wounds[0].areas.head` → that player's head; `wounds[0].critical[1]`
        → his second critical wound entered; the JSON path replaced by the team's or the player's name."""
        tokens, field, message = path_tokens(exc.field or ""), None, exc.message
        if len(tokens) >= 2 and isinstance(tokens[1], int) and tokens[0] in self._sent:
            kind, index, rest = tokens[0], tokens[1], tokens[2:]
            owners = self._sent[kind]
            if index < len(owners):
                owner = owners[index]
                if kind == "teams":
                    key = rest[0] if rest and isinstance(rest[0], str) else ""
                    default = "placing" if self.terminix else "score"
                    field = f"team_{owner.pk}_{key if f'team_{owner.pk}_{key}' in self.fields else default}"
                else:
                    p = f"player_{owner.pk}_"
                    field = p + ("head" if self.advanced else "wounds")
                    if rest[:1] == ["areas"] and len(rest) > 1 and rest[1] in self.areas:
                        field = p + rest[1]
                    elif rest[:1] == ["critical"]:
                        slots = self._slots.get(owner.pk, [])
                        j = rest[1] if len(rest) > 1 and isinstance(rest[1], int) else 0
                        if j < len(slots):
                            field = f"{p}critical_{slots[j]}" + ("_side" if rest[2:3] == ["side"] else "")
                message = named_message(message, exc.field or "", f"{kind}[{index}]", owner.name)
        self.add_error(field if field in self.fields else None, message)
