"""What a ruleset declares for pages and reports to show, as plain data and pure functions.

`Ruleset` (base.py) inherits it; each ruleset overrides it from its own modules (`report.py`, `live.py`,
`sheet.py`, `pages.py`, `words.py`). Code outside campaigns/ asks these instead of naming a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from campaigns.errors import RuleViolation
from campaigns.rulesets import live as live_sheet
from campaigns.rulesets import sheet as shared_sheet
from campaigns.rulesets import stats
from campaigns.rulesets import words as shared_words


@dataclass(frozen=True)
class ResultField:
    """One field of a player's row on the result form: the key of the result body's player row it fills
    (api-v1 "Result body"), the column heading (with the player's name, the field's name for screen readers),
    and what it takes — a count, or one of the ruleset's `result_choices()[choices]`."""

    key: str
    label: str
    #: A short heading for the column (the label is its title), and words after the heading.
    abbr: str = ""
    hint: str = ""
    #: "count" (a number box) or "choice" (a select of `result_choices()[choices]`; `numbers`: their values are
    #: whole numbers, say a die's faces).
    kind: str = "count"
    choices: str = ""
    numbers: bool = False
    #: The support item a team must have in stock for its players' rows to have this field ("" = always).
    stock: str = ""


class Presentation:
    """The presentation half of a ruleset (the rule hooks are `Ruleset`'s)."""

    name: str  # the game's name (Ruleset.name)
    #: The sentences a page or a log prints for this game (`campaigns/rulesets/<key>/words.py`).
    words = shared_words

    # --- presentation: weekly report -----------------------------------------------------------------------
    # Plain data the weekly report (league/reporting) reads; each ruleset overrides it in its `report.py`. The
    # report's sentences that differ per game come from `words` (report_headline, serious_injury).
    #: The report's sections, in order: names from league/reporting's catalogue (a section that has nothing to
    #: say for the week may still leave itself out, e.g. a team-value chart with no team value).
    weekly_report_sections: tuple[str, ...] = (
        "results",
        "table",
        "top_scorers",
        "improvements",
        "in_memoriam",
        "serious_injuries",
        "tv_movers",
        "fixtures",
        "chart",
    )
    #: How the report names the game's score and its team value's unit ("" when the game counts no value).
    report_terms: Mapping[str, str] = MappingProxyType(
        {"score": "touchdowns", "score_short": "TD", "value_unit": "gil"}
    )
    #: The scorers' leaderboard: (by, field, unit): by "player" (a PlayerMatch field) or "team" (a side field).
    report_scorers: tuple[str, str, str] = ("player", "touchdowns", "touchdowns")
    #: The casualties' leaderboard, the same shape; None: the game has none.
    report_casualties: tuple[str, str, str] | None = None
    #: The players' stats (campaigns/rulesets/stats.py) in the order pages show them, and the records'
    #: headline stat and casualties' stat (keys of them; None: the game has none).
    player_stats: tuple[stats.StatSpec, ...] = (stats.MATCHES,)
    headline_stat: str | None = None
    casualty_stat: str | None = None
    #: The leaders page's team leaderboards, (key, label) in order: keys of "team_value", "treasury",
    #: "fan_factor", "win_rate" — only those the game has.
    team_leaderboards: tuple[tuple[str, str], ...] = (("win_rate", "Win rate (%)"),)

    # --- presentation: live sheet -------------------------------------------------------------------------
    #: The ruleset's live match sheet module (`campaigns/rulesets/<key>/live.py`): `live_events` and
    #: `result_body`. None: the game has no live sheet.
    live = None

    @property
    def has_live_sheet(self) -> bool:
        return self.live is not None

    def live_events(self, hr: Mapping, *, event: str = "", teams: int = 2) -> tuple:
        """The event kinds a coach taps on the live sheet (campaigns.rulesets.live.LiveEvent), in order."""
        if self.live is None:
            raise RuleViolation(f"{self.name} has no live match sheet.")
        return tuple(self.live.live_events(hr=hr, event=event, teams=teams))

    def live_check_event(self, raw: Any, *, teams: Mapping[int, Any], hr: Mapping, event: str = "") -> dict:
        """A tapped event refused (RuleViolation naming the field) unless the sheet offers it; normalised."""
        return live_sheet.check_event(raw, events=self.live_events(hr, event=event, teams=len(teams)), teams=teams)

    def live_score(self, events: Any, *, teams: Mapping[int, Any], hr: Mapping, event: str = "") -> dict[int, int]:
        """Each team's running score on the sheet."""
        declared = self.live_events(hr, event=event, teams=len(teams))
        return live_sheet.running_score(events, declared=declared, teams=teams)

    def live_result_body(self, events: Any, *, teams: Mapping[int, Any], hr: Mapping, event: str = "") -> dict:
        """The sheet's events folded into the result body `parse_result` takes (`teams`: {team id: the ids of
        its players able to play, in sheet order}, in the match's side order)."""
        self.live_events(hr, event=event, teams=len(teams))
        return self.live.result_body(list(events), teams=teams, hr=hr, event=event)

    # --- presentation: team sheet -------------------------------------------------------------------
    #: The team sheet's columns, hint and staff labels (`campaigns/rulesets/<key>/sheet.py`): pages loop over
    #: what the ruleset declares instead of asking which game they show.
    sheet = shared_sheet
    #: Whether the league page offers the Challenge roller (rules/elfball.md "Challenges").
    has_challenge_roller: bool = False

    def sheet_columns(self, hr: Mapping) -> tuple[shared_sheet.Column, ...]:
        """The roster table's columns under the league's house rules (e.g. Equipment only with Bloody Blades)."""
        return tuple(c for c in self.sheet.COLUMNS if c.shown(hr))

    def sheet_hint(self, hr: Mapping) -> str:
        """What the sheet's numbers mean, under the racial traits ("" = nothing to explain)."""
        return self.sheet.hint(hr)

    def sheet_values(self, player: Any, *, shown: Mapping, summary: Mapping, injuries: list, hr: Mapping) -> dict:
        """A player's cell values: the page's `shown` (his own fields in words) with the ruleset's own on top."""
        return {**shown, **self.sheet.values(player, shown=shown, summary=summary, injuries=injuries, hr=hr)}

    def staff_label(self, item: str) -> str:
        """How a support item reads beside its count on the sheet."""
        return self.sheet.STAFF.get(item) or self.words.humanise(item)

    # --- presentation: match pages ----------------------------------------------------------------
    # What the match pages show for this game, as plain data (`campaigns/rulesets/<key>/pages.py`): the web
    # layer keeps a catalogue of form and widget classes keyed by these kinds, never by the ruleset's name.
    #: The ruleset's pages module: the words of its tables the report prints (None: it has none).
    pages: Any = None
    #: The kind of result form ("player_counters", "goals_on_field", "wounds_by_area").
    result_form: str = "player_counters"
    #: The fields of a player's row on a result form that lays its rows out as a table, in column order: the
    #: form makes them and the page heads its columns from them (declared once, here).
    result_row_fields: tuple[ResultField, ...] = ()
    #: The match report's sections after the result, in order (each a partial `matches/report/_<name>.html`).
    match_report_sections: tuple[str, ...] = ()
    #: Post-match decision → the widget that asks it; a decision not listed is asked by its options' shape.
    decision_widgets: Mapping[str, str] = MappingProxyType({})
    #: Labels of the options a decision offers (`one_of`), and whose names label the ids a decision offers.
    option_labels: Mapping[str, str] = MappingProxyType({})
    id_labels: Mapping[str, str] = MappingProxyType({})
    #: A hint under a pre-match step's dice, by step key.
    prematch_hints: Mapping[str, str] = MappingProxyType({})

    #: The inducements a team may buy, in the order the shopping page lists them → their names.
    inducement_items: Mapping[str, str] = MappingProxyType({})

    def weather_words(self, weather: str) -> str:
        """A pre-match weather result as a coach reads it."""
        return shared_words.humanise(weather)

    def terrain_words(self, terrain: Mapping[str, int]) -> str:
        """A pre-match terrain result as a coach reads it ("" when the game has no terrain roll)."""
        return ""

    def result_choices(self, hr: Mapping) -> Mapping[str, list[tuple[Any, str]]]:
        """The choices the result form offers, by field kind (injuries, outcomes, potions …), from the rules'
        own data under the league's house rules."""
        return {}
