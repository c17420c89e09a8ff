"""Forms of the match pages. They only shape what people type into the bodies the services take
(api-v1 "Matches", "Result body", "Post-match sequence"); the services and the rules decide, and their
refusals are shown back on the form next to the field they name."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms

from campaigns.errors import RuleViolation
from campaigns.rulesets.elfball.rules import MAX_TESTS_TO_WIN

from .models import Inducement, Match

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
    # ElfBall
    "abilities": "abilities",
    "lasting_injury": "lasting_injury",
    # Bone Cruncher
    "heal": "heal",
    "promote": "promote",
}

#: Decisions asked with a field per player (or per Trainer): the pending message heads them.
GROUPED_KINDS = frozenset({"improvements", "abilities", "lasting_injury", "heal", "promote"})

#: Lasting conditions a Trainer may remove (rules/bonecruncher.md "Wounds": never a severed arm).
HEALABLE = ("incapacitated_leg", "incapacitated_arm")

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


def _player_select(label: str, player, choices, initial, *, numbers: bool = False) -> forms.Field:
    """An optional select of one player's row, named for screen readers by the label and the player."""
    widget = forms.Select(attrs={"aria-label": f"{label}: {player.name}"})
    if numbers:
        return forms.TypedChoiceField(
            label=label, coerce=int, required=False, empty_value=None, choices=choices, initial=initial, widget=widget
        )
    return forms.ChoiceField(label=label, required=False, choices=choices, initial=initial, widget=widget)


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
        choices = [(t.pk, f"{t.name} ({t.coach.username})") for t in teams]
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
                self.fields[prefix + "injury"] = _player_select(
                    "Injury", player, [("", "—")] + [(i, words(i)) for i in injuries], row.get("injury", "")
                )
                self.fields[prefix + "stat"] = _player_select(
                    "Stat lost", player, [("", "—")] + [(s, s.upper()) for s in stat_names], row.get("stat", "")
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


# --- ElfBall and Bone Cruncher results ----------------------------------------------------------------------------

_PATH_TOKEN = re.compile(r"\[(\d+)\]|\.?([A-Za-z_]\w*|\d+)")


def _path(path: str) -> list:
    """`wounds[0].critical[1].side` → ["wounds", 0, "critical", 1, "side"] (digits after a dot become ints)."""
    out: list = []
    for index, name in _PATH_TOKEN.findall(path or ""):
        value = index or name
        out.append(int(value) if value.isdigit() else value)
    return out


def _short_label(player) -> str:
    return f"#{player.number} {player.name}" if player.number is not None else player.name


#: The Grit Challenge outcome in words (rules/elfball.md "Injuries").
GRIT_WORDS = {
    "career_ending": "Career-ending",
    "lasting_injury": "Lasting injury (−1 to the highest attribute)",
    "out_for_game": "Out for the game",
    "unconscious": "Knocked unconscious",
    "none": "No effect",
}
_SUCCESSES = {"flop": "flop", "0": "0 successes", "1": "1 success"}

#: The Magic Potion table in words (rules/elfball.md, D12); 8–12 are not in the rulebook.
POTION_WORDS = {
    "dies": "the player dies",
    "seizure": "seizure: misses the game, lasting injury",
    "light_coma": "light coma: misses the game",
    "woozy": "woozy",
    "cured_misses_game": "cured, misses the rest of the game",
    "cured_misses_test": "cured, misses this Test",
    "basic_ability_this_game": "cured, a Basic ability for this game",
    "no_effect": "no effect (not in the rulebook: house rule)",
}


def _named_message(message: str, path: str, prefix: str, name: str) -> str:
    """A service message in words: `players[0].attribute: …` → `Ada: …`; `goals[1].on_field must …` →
    `Bob's team, goal 2 — on_field must …`."""
    if path and message.startswith(path + ":"):
        return name + message[len(path) :]
    if message.startswith(prefix + ":"):
        return name + message[len(prefix) :]
    if message.startswith(prefix):
        return f"{name} — {message[len(prefix) :].lstrip('.')}"
    return message.replace(prefix, name, 1)


def grit_choices(hr: Mapping) -> list[tuple[str, str]]:
    """The outcomes a result may record, each with the successes that give it."""
    table = hr.get("basic_injury_outcomes") if hr.get("basic_mode") else hr.get("injury_outcomes")
    by_outcome: dict[str, list[str]] = {}
    for successes, outcome in (table or {}).items():
        by_outcome.setdefault(outcome, []).append(_SUCCESSES.get(successes, f"{successes} successes"))
    return [("", "—")] + [
        (outcome, f"{GRIT_WORDS.get(outcome, words(outcome))} ({', '.join(given)})")
        for outcome, given in by_outcome.items()
    ]


def potion_choices(hr: Mapping) -> list[tuple[Any, str]]:
    faces = int(str(hr.get("magic_potion_die", "d12")).lstrip("dD") or 12)
    table = hr.get("magic_potion_table", {})
    out: list[tuple[Any, str]] = [("", "— no potion —")]
    for roll in range(1, faces + 1):
        result = table.get(str(roll), {}).get("result", "no_effect")
        out.append((roll, f"{roll}: {POTION_WORDS.get(result, words(result))}"))
    return out


def injury_attribute_choices(hr: Mapping) -> list[tuple[str, str]]:
    excluded = set(hr.get("injury_attribute_excludes", ("base",)))
    return [("", "—")] + [(a, words(a)) for a in hr.get("attributes", ()) if a not in excluded]


class ElfBallResultForm(forms.Form):
    """An ElfBall result: per team its goals — one group of player toggles per goal, ticking who was on the
    field when it was scored (a goal with nobody ticked was not scored; each goal won a Test) — whether it
    conceded or could not set up a face-off player; per player his Grit Challenge outcome and Magic Potion.
    `body()` builds api-v1's ElfBall result body."""

    template = "matches/result_elfball.html"

    def __init__(
        self,
        *args,
        teams: list,
        players: Mapping[int, list],
        hr: Mapping,
        tests_to_win: int | None,
        stock: Mapping[int, int],
        result: Mapping | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.teams = teams
        self.players = players
        self.stock = stock
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
        outcomes = grit_choices(hr)
        attributes = injury_attribute_choices(hr)
        basics = [("", "—")] + [
            (pair["basic"], words(pair["basic"])) for pair in hr.get("abilities", {}).values() if "basic" in pair
        ]
        rolls = potion_choices(hr)
        for team in teams:
            line, prefix = lines.get(team.pk, {}), f"team_{team.pk}_"
            roster = players.get(team.pk, [])
            scored = goals.get(team.pk, [])
            for n in range(1, self.tests_to_win + 1):
                self.fields[f"{prefix}goal_{n}"] = forms.TypedMultipleChoiceField(
                    label=f"Goal {n}",
                    coerce=int,
                    required=False,
                    choices=[(p.pk, _short_label(p)) for p in roster],
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
                self.fields[p + "injury"] = _player_select("Grit outcome", player, outcomes, row.get("injury") or "")
                self.fields[p + "attribute"] = _player_select(
                    "Attribute lowered", player, attributes, row.get("attribute") or ""
                )
                if not stock.get(team.pk):
                    continue
                self.fields[p + "potion"] = _player_select(
                    "Magic Potion (D12)", player, rolls, potion.get("roll"), numbers=True
                )
                self.fields[p + "potion_ability"] = _player_select(
                    "Potion ability (on a 7)", player, basics, potion.get("ability") or ""
                )
                self.fields[p + "potion_attribute"] = _player_select(
                    "Potion attribute (on a 2)", player, attributes, potion.get("attribute") or ""
                )

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
            for player in self.players.get(team.pk, []):
                p = f"player_{player.pk}_"
                keys = ["injury", "attribute", "potion", "potion_ability", "potion_attribute"]
                rows.append(
                    {
                        "player": player,
                        "label": _player_label(player),
                        "fields": [self[p + k] for k in keys if p + k in self.fields],
                    }
                )
            out.append(
                {
                    "team": team,
                    "goals": goals,
                    "tests_won": sum(1 for g in goals if self._value(g.name)),
                    "flags": [self[prefix + "conceded"], self[prefix + "no_face_off"]],
                    "potions": self.stock.get(team.pk, 0),
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
        tokens, field, message = _path(exc.field or ""), None, exc.message
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
                message = _named_message(message, exc.field or "", f"{kind}[{index}]", name)
        self.add_error(field if field in self.fields else None, message)


#: The six body areas of an advanced health template (rules/bonecruncher.md), as the body diagram lays them out.
BODY_AREAS = ("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg")
#: The Critical Wound Chart (rules/bonecruncher.md), should the league's house rules not spell it out.
CRITICAL_CHART = {
    1: ("Stunned arm", "arm"),
    2: ("Incapacitated leg", "leg"),
    3: ("Incapacitated arm", "arm"),
    4: ("Torso wound", "torso"),
    5: ("Head wound", "head"),
    6: ("Severed arm", "arm"),
}
#: Critical wounds one player's row of the result form offers.
CRITICAL_SLOTS = 3
SIDE_CHOICES = [("", "— side —"), ("left", "Left"), ("right", "Right")]


def critical_chart(hr: Mapping) -> dict[int, tuple[str, str]]:
    results = hr.get("critical_wound_chart", {}).get("results", {})
    chart = {int(roll): (entry.get("name", ""), entry.get("area", "")) for roll, entry in results.items()}
    return chart or dict(CRITICAL_CHART)


class BoneCruncherResultForm(forms.Form):
    """A Bone Cruncher result: per team its points (Scorchball) or placing and eliminations (Terminix) and
    its squad; per player the wounds taken — a count, or per body area on a body diagram when the league plays
    advanced wounds — and up to three critical wounds from the chart (with the side for an arm or a leg)."""

    template = "matches/result_bonecruncher.html"

    def __init__(
        self,
        *args,
        teams: list,
        players: Mapping[int, list],
        hr: Mapping,
        event: str,
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
        self.chart = critical_chart(hr)
        self._sent: dict[str, list] = {"teams": [], "wounds": []}
        self._slots: dict[int, list[int]] = {}
        result = result or {}
        lines = {line.get("team"): line for line in result.get("teams", [])}
        # A stored (normalised) result keeps the wounds on its per-player rows.
        wounds = {row.get("player"): row for row in result.get("wounds") or result.get("players", [])}
        critical = [("", "—")] + [(roll, f"{roll}: {name}") for roll, (name, _) in sorted(self.chart.items())]
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
                self.fields[prefix + "eliminations"] = _number("Eliminations", initial=line.get("eliminations", 0))
            else:
                self.fields[prefix + "score"] = _number("Points", initial=line.get("score", 0))
            self.fields[prefix + "squad"] = forms.TypedMultipleChoiceField(
                label=f"Squad (up to {self.squad_size})" if self.squad_size else "Squad",
                coerce=int,
                required=False,
                choices=[(p.pk, _short_label(p)) for p in roster],
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
                    for area in BODY_AREAS:
                        self.fields[p + area] = _number(
                            words(area),
                            required=False,
                            initial=areas.get(area, 0),
                            maximum=template.get(area, 99),
                            **{"aria-label": f"{words(area)}: {player.name}"},
                        )
                else:
                    self.fields[p + "wounds"] = _number(
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
                    self.fields[f"{p}critical_{k}"] = _player_select(
                        f"Critical wound {k}", player, critical, roll, numbers=True
                    )
                    self.fields[f"{p}critical_{k}_side"] = _player_select(
                        f"Side of critical wound {k}", player, SIDE_CHOICES, side or ""
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
                        "label": _player_label(player),
                        "count": None if self.advanced else self[p + "wounds"],
                        "areas": [(area, self[p + area], template.get(area)) for area in BODY_AREAS]
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
                    elif side and self.chart.get(roll, ("", ""))[1] not in ("arm", "leg"):
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
                    areas = {area: data.get(p + area) or 0 for area in BODY_AREAS}
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
        tokens, field, message = _path(exc.field or ""), None, exc.message
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
                    if rest[:1] == ["areas"] and len(rest) > 1 and rest[1] in BODY_AREAS:
                        field = p + rest[1]
                    elif rest[:1] == ["critical"]:
                        slots = self._slots.get(owner.pk, [])
                        j = rest[1] if len(rest) > 1 and isinstance(rest[1], int) else 0
                        if j < len(slots):
                            field = f"{p}critical_{slots[j]}" + ("_side" if rest[2:3] == ["side"] else "")
                message = _named_message(message, exc.field or "", f"{kind}[{index}]", owner.name)
        self.add_error(field if field in self.fields else None, message)


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
        self.heal_rows: list[tuple[str, str, str]] = []
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
    def shows_message(self) -> bool:
        """The decision's fields are labelled per player: the pending message says what is asked."""
        return self.decision_kind in GROUPED_KINDS

    @property
    def heal_bound(self) -> list:
        """Bone Cruncher `heal`: per Trainer (player, boxes, condition) bound fields."""
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
        if kind in ("abilities", "lasting_injury", "heal", "promote") and isinstance(options, Mapping | list):
            getattr(self, f"_add_{kind}")(options, message, names)
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

    def _add_abilities(self, options: Mapping, message: str, names: Mapping) -> None:
        """ElfBall: per player entitled to new abilities, the abilities he may learn (none ticked: learn later)."""
        for player_id, offer in options.items():
            offer = offer if isinstance(offer, Mapping) else {"learnable": offer}
            name = offer.get("name") or names.get("players", {}).get(int(player_id), f"Player #{player_id}")
            count = offer.get("entitlements", 1)
            field_name = f"ability_{player_id}"
            self.fields[field_name] = forms.MultipleChoiceField(
                label=f"{name} (may learn {count})",
                required=False,
                choices=[(a, words(a)) for a in offer.get("learnable", [])],
                widget=forms.CheckboxSelectMultiple,
                help_text="Tick none to keep the entitlement and learn later (from the team sheet).",
            )
            self.decision_fields.append(field_name)

    def _add_lasting_injury(self, options: Mapping, message: str, names: Mapping) -> None:
        """ElfBall: per player with a lasting injury, which of his tied highest attributes loses a point."""
        players = names.get("players", {})
        for player_id, attributes in options.items():
            field_name = f"lasting_{player_id}"
            self.fields[field_name] = forms.ChoiceField(
                label=players.get(int(player_id), f"Player #{player_id}"),
                choices=[(a, words(a)) for a in attributes],
                widget=forms.RadioSelect,
            )
            self.decision_fields.append(field_name)

    def _add_heal(self, options: Mapping, message: str, names: Mapping) -> None:
        """Bone Cruncher: one row per Trainer — the player he heals, and the wound boxes he heals or the
        incapacitation he removes."""
        players = options.get("players", {}) if isinstance(options, Mapping) else {}
        labels = names.get("players", {})
        choices = [("", "— nobody —")]
        found: list[tuple[str, str]] = []
        for player_id, about in players.items():
            about = about if isinstance(about, Mapping) else {}
            name = about.get("name") or labels.get(int(player_id), f"Player #{player_id}")
            conditions = list(about.get("conditions", []))
            details = [f"{about.get('wounds', 0)} wound(s)"] + [_condition_words(c) for c in conditions]
            choices.append((int(player_id), f"{name} ({'; '.join(details)})"))
            found += [
                (c.get("key"), c.get("side") or "")
                for c in conditions
                if isinstance(c, Mapping) and c.get("key") in HEALABLE and c.get("healable", True)
            ]
        removable = list(dict.fromkeys(found)) or [(k, side) for k in HEALABLE for side in ("left", "right")]
        for index in range(int(options.get("trainers", 1) if isinstance(options, Mapping) else 1)):
            label = f"Trainer {index + 1}"
            self.fields[f"heal_{index}_player"] = forms.TypedChoiceField(
                label=f"{label}: player", coerce=int, required=False, empty_value=None, choices=choices
            )
            self.fields[f"heal_{index}_boxes"] = forms.IntegerField(
                label=f"{label}: wound boxes healed",
                required=False,
                min_value=0,
                max_value=3,
                initial=0,
                widget=forms.NumberInput(attrs={"min": 0, "max": 3, "class": "count"}),
            )
            self.fields[f"heal_{index}_remove"] = forms.ChoiceField(
                label=f"{label}: or remove a condition",
                required=False,
                choices=[("", "—")]
                + [(f"{k}:{side}", _condition_words({"key": k, "side": side})) for k, side in removable],
            )
            names_ = [f"heal_{index}_{part}" for part in ("player", "boxes", "remove")]
            for name in names_:  # the table's cells carry no <label>
                self.fields[name].widget.attrs["aria-label"] = self.fields[name].label
            self.decision_fields += names_
            self.heal_rows.append(tuple(names_))

    def _add_promote(self, options: Mapping, message: str, names: Mapping) -> None:
        """Bone Cruncher: the veterans who may be promoted to Elite now (at most `slots`)."""
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
        self.fields["decision"] = field
        self.decision_fields.append("decision")

    def clean(self):
        data = super().clean()
        for player_field, boxes_field, remove_field in self.heal_rows:
            player, boxes, remove = data.get(player_field), data.get(boxes_field), data.get(remove_field)
            if (boxes or remove) and player is None:
                self.add_error(player_field, "Choose the player this Trainer heals.")
            elif boxes and remove:
                self.add_error(remove_field, "A Trainer heals wound boxes or removes a condition, not both.")
        return data

    def choices(self) -> dict:
        data = self.cleaned_data
        out: dict[str, Any] = {}
        if self.decision_kind == "abilities":
            out["abilities"] = {name.removeprefix("ability_"): list(data[name]) for name in self.decision_fields}
        elif self.decision_kind == "lasting_injury":
            out["lasting_injury"] = {name.removeprefix("lasting_"): data[name] for name in self.decision_fields}
        elif self.decision_kind == "heal":
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
        elif self.decision_kind == "promote":
            out["promote"] = list(data["decision"])
        elif self.decision_kind == "improvements":
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
        elif self.decision_kind in ("abilities", "lasting_injury", "heal") and path.startswith(
            f"choices.{self.decision}"
        ):
            tokens = _path(path)[2:]
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
            name = str(_path(path)[1]) if len(_path(path)) > 1 else ""
            if name == self.decision and "decision" in self.fields:
                field = "decision"
            elif f"opt_{name}" in self.fields:
                field = f"opt_{name}"
        self.add_error(field if field in self.fields else None, exc.message)


def _condition_words(condition: Any) -> str:
    """{"key": "incapacitated_leg", "side": "left"} → "Incapacitated leg (left)"; words as they come."""
    if isinstance(condition, Mapping):
        side = condition.get("side")
        return f"{words(str(condition.get('key', '')))}{f' ({side})' if side else ''}"
    return words(str(condition))


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


# --- the Challenge roller -------------------------------------------------------------------------------------


class ChallengeForm(forms.Form):
    """rules/elfball.md "The Challenge roller": as many d6 as the attribute against a threshold, rolled by the
    server or entered from the table, optionally logged against a match of the league."""

    dice = forms.IntegerField(
        label="Dice (the attribute)",
        min_value=1,
        max_value=20,
        initial=3,
        widget=forms.NumberInput(attrs={"min": 1, "max": 20, "class": "count"}),
    )
    threshold = forms.IntegerField(
        label="Threshold",
        min_value=1,
        max_value=12,
        initial=4,
        widget=forms.NumberInput(attrs={"min": 1, "max": 12, "class": "count"}),
        help_text="Each die at or above it is a success; 7 or more: successes are the 6s less the flops.",
    )
    values = DiceField(
        label="Dice rolled at the table (optional)",
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": "roll for me", "inputmode": "numeric", "class": "dice"}),
        help_text="e.g. 6, 3, 1 — every 6 is rolled again and the new die added. Leave empty: the server rolls.",
    )
    match = forms.TypedChoiceField(label="Match (optional)", coerce=int, required=False, empty_value=None)

    def __init__(self, *args, matches: Iterable = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["match"].choices = [("", "— none —")] + [
            (m.pk, f"Match #{m.pk}: {' v '.join(s.team.name for s in m.sides.all())}") for m in matches
        ]

    def add_service_error(self, exc: RuleViolation) -> None:
        field = {"dice_count": "dice", "threshold": "threshold", "rolls": "values", "values": "values"}.get(
            exc.field or "", exc.field
        )
        self.add_error(field if field in self.fields else None, exc.message)


# --- the pre-match sequence -------------------------------------------------------------------------------------


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
                self.fields[field_name] = DiceField(
                    label=label,
                    required=False,
                    max_length=200,
                    widget=forms.TextInput(
                        attrs={"placeholder": "roll for me", "inputmode": "numeric", "class": "dice"}
                    ),
                )
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
            field = next((n for n in filled if not _dice_fit(self.cleaned_data[n], key, catalogue)), None)
            field = field or (filled[0] if filled else None)
        self.add_error(field, exc.message)


def _dice_fit(values: list[int], key: str, catalogue: Mapping[str, str] | None) -> bool:
    """Whether one team's entered dice could make the roll (whole faces, at least the dice of one roll)."""
    expression = (catalogue or {}).get(key, "")
    found = re.fullmatch(r"(\d*)d(\d+)", expression)
    if not found:
        return True
    count, sides = int(found.group(1) or 1), int(found.group(2))
    return len(values) >= count and all(1 <= v <= sides for v in values)


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
