"""What every ruleset shares: the plain-value view of a team that rules read, and the Ruleset base.

Nothing here touches the ORM or rolls dice. Django code builds a `TeamState` from the database, asks the
league's ruleset what an action costs or whether it is allowed, and applies the answer itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from campaigns import house_rules
from campaigns.errors import RuleViolation
from campaigns.rulesets import season
from campaigns.rulesets.presentation import Presentation

# Statuses of a player still on the roster (counted against roster limits).
ON_ROSTER = frozenset({"active", "miss_next_match", "journeyman"})
# Statuses of a player who can play the next match (counted in Team Value and fielding counts).
CAN_PLAY = frozenset({"active", "journeyman"})


@dataclass(frozen=True)
class PositionSpec:
    key: str
    name: str
    min: int
    max: int
    cost: int
    attributes: Mapping[str, int] = field(default_factory=dict)
    skills: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RosterSpec:
    key: str
    name: str
    positions: Mapping[str, PositionSpec]
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayerState:
    id: int
    position: str
    status: str = "active"
    value: int = 0
    role: str = ""
    abilities: int = 0

    @property
    def on_roster(self) -> bool:
        return self.status in ON_ROSTER

    @property
    def can_play(self) -> bool:
        return self.status in CAN_PLAY


@dataclass(frozen=True)
class TeamState:
    roster: RosterSpec
    players: tuple[PlayerState, ...] = ()
    staff: Mapping[str, int] = field(default_factory=dict)
    rerolls: int = 0
    fan_factor: int = 0
    treasury: int = 0
    in_creation: bool = True

    @property
    def on_roster(self) -> list[PlayerState]:
        return [p for p in self.players if p.on_roster]

    def count_position(self, position: str) -> int:
        return sum(1 for p in self.on_roster if p.position == position)


@dataclass(frozen=True)
class Purchase:
    """What buying `quantity` of an item does: gil it costs and the counts it changes."""

    item: str
    quantity: int
    cost: int = 0
    rerolls: int = 0
    fan_factor: int = 0
    staff: Mapping[str, int] = field(default_factory=dict)
    description: str = ""


def check_position_limit(team: TeamState, position: PositionSpec) -> None:
    """A position's 0–N limit, and a limit shared by several positions (data key `shared_limit`)."""
    if team.count_position(position.key) >= position.max:
        raise RuleViolation(
            f"The roster allows at most {position.max} {position.name} player(s); the team already has them.",
            field="position",
        )
    shared = position.extra.get("shared_limit")
    if shared:
        sharing = [p for p in team.roster.positions.values() if p.extra.get("shared_limit") == shared]
        limit = min(p.max for p in sharing)
        taken = sum(team.count_position(p.key) for p in sharing)
        if taken >= limit:
            names = " or ".join(p.name for p in sharing)
            raise RuleViolation(f"A team may have only {limit} {names} in all.", field="position")


def fmt_gil(amount: int) -> str:
    return f"{amount:,} gil"


class Ruleset(Presentation):
    """A game's rules as the registry knows them. Subclasses implement the rule hooks."""

    key: str = ""
    name: str = ""
    #: "gil" (a treasury ledger), "points" (a points budget) or "none".
    economy: str = "none"
    #: What a team keeps from one season to the next (the season page lists it): the teams, players,
    #: ledger and memorial always carry, and nothing is reset at a season's turn unless a ruleset says so.
    season_carries: tuple[str, ...] = ("rosters",)
    purchase_items: tuple[str, ...] = ()
    #: The team series the team sheet charts over the season: (key of a match side's pre-match
    #: snapshot, the chart's title). A game keeping no such number declares none.
    team_series: tuple[tuple[str, str], ...] = ()
    roles: tuple[str, ...] = ()
    #: Player fields this ruleset tracks (api-v1: a player's fields "by ruleset").
    player_fields: tuple[str, ...] = ()
    #: The rulebook's order of a player's attributes (JSON storage may not keep it).
    attribute_order: tuple[str, ...] = ()

    def ordered_attributes(self, attributes: Mapping[str, int]) -> list[tuple[str, int]]:
        """Attributes in the rulebook's order; any the ruleset does not name follow, alphabetically."""
        known = [(key, attributes[key]) for key in self.attribute_order if key in attributes]
        return known + sorted((k, v) for k, v in attributes.items() if k not in self.attribute_order)

    @property
    def data_dir(self) -> Path:
        return Path(__file__).resolve().parent / self.key / "data"

    @cached_property
    def _default_house_rules(self) -> Mapping[str, Any]:
        with open(self.data_dir / "house_rules.json", encoding="utf-8") as fh:
            return MappingProxyType(json.load(fh))

    def default_house_rules(self) -> dict:
        """A fresh deep copy of the ruleset's defaults (callers may not mutate the shared one)."""
        return json.loads(json.dumps(dict(self._default_house_rules)))

    def validate_house_rules(self, overrides: Any) -> dict:
        """A commissioner's overrides, refused (naming the key) unless each has the default's shape; a ruleset
        adds the bounds its rules set on particular keys."""
        overrides = house_rules.validate_overrides(self.default_house_rules(), overrides)
        if "season_rollover" in overrides:
            season.check_rollover(overrides["season_rollover"])
        return overrides

    def roster_data(self) -> list[dict]:
        """The rosters shipped with the ruleset, as loaded by the data migration."""
        with open(self.data_dir / "rosters.json", encoding="utf-8") as fh:
            return json.load(fh)["rosters"]

    # --- rule hooks ----------------------------------------------------------------------------
    def starting_treasury(self, hr: Mapping) -> int:
        return 0

    def initial_player_value(self, position: PositionSpec, hr: Mapping) -> int:
        return position.cost

    def check_join(self, team: TeamState, position: PositionSpec, hr: Mapping, *, value: int) -> None:
        """Refuse a player of `position` worth `value` joining the team (a hire or a transfer): limits."""
        check_position_limit(team, position)

    def check_hire(self, team: TeamState, position: PositionSpec, hr: Mapping, *, role: str = "") -> int:
        """Refuse a hire the rules forbid (RuleViolation); return the gil it costs."""
        self.check_role(team, None, role, hr)
        self.check_join(team, position, hr, value=self.initial_player_value(position, hr))
        return 0

    def check_fire(self, team: TeamState, player: PlayerState, hr: Mapping) -> None:
        """Refuse firing a player when the rules forbid it."""

    def check_role(self, team: TeamState, player: PlayerState | None, role: str, hr: Mapping) -> None:
        if role:
            raise RuleViolation(f"{self.name} players have no role '{role}'.", field="role")

    def purchase(self, team: TeamState, item: str, quantity: int, hr: Mapping) -> Purchase:
        raise RuleViolation(f"{item} is not something a {self.name} team can buy.", field="item")

    def team_value(self, team: TeamState, hr: Mapping) -> int | None:
        return None

    def points_budget(self, hr: Mapping) -> int | None:
        return None

    def may_run_several_teams(self, hr: Mapping) -> bool:
        return bool(hr.get("coach_may_run_several_teams", False))

    def check_ready(self, team: TeamState, hr: Mapping) -> None:
        """Refuse closing team creation while the team cannot take the field."""

    # --- matches ---------------------------------------------------------------------------------------
    #: The post-match sequence, in order (campaigns.engine.Step).
    postmatch_steps: tuple = ()
    #: The pre-match sequence, in order (campaigns.prematch.PrematchStep); empty: the game has none.
    prematch_steps: tuple = ()
    #: Whether a completed pre-match sequence settles the FAME the post-match winnings read.
    fame_from_prematch: bool = False

    def check_inducement(
        self,
        item: str,
        quantity: int,
        *,
        team: Mapping,
        bought: list[Mapping],
        position: str,
        skill: str,
        star: str,
        hr: Mapping,
    ) -> int:
        """Refuse an inducement the rules forbid; return its total price. `team` and `bought` are plain values."""
        raise RuleViolation(f"{self.name} has no inducements.", field="item")

    def check_inducement_affordable(self, *, induced: int, spent_before: int, price: int, treasury: int) -> None:
        raise RuleViolation(f"{self.name} has no inducements.", field="item")

    def inducement_budget(self, *, induced: int, spent: int) -> dict:
        """{induced, treasury_spent, remaining}: inducement gil is spent first, the treasury pays the rest."""
        return {"induced": induced, "treasury_spent": max(0, spent - induced), "remaining": max(0, induced - spent)}

    #: How many teams a match takes, by event ("" = the ruleset's ordinary match).
    teams_per_match: Mapping[str, tuple[int, int]] = MappingProxyType({"": (2, 2)})

    def roll_catalogue(self, hr: Mapping) -> dict[str, str]:
        """Roll key → dice expression, the keys of rules/<ruleset>.md (entered rolls are checked against it)."""
        return dict(hr.get("roll_keys", {}))

    #: Injuries recorded on a result take effect when it becomes final (Blitz Bowl), not in a step.
    injuries_at_confirm: bool = False
    #: Player totals kept as the sum of his match rows, added when a result becomes final.
    counters: tuple[str, ...] = ()

    def parse_result(
        self,
        body: Any,
        *,
        rosters: Mapping[int, Mapping[int, str]],
        event: str,
        hr: Mapping,
        context: Mapping[str, Any] | None = None,
    ) -> dict:
        """Validate a submitted result (RuleViolation naming the field) and return it normalised:
        `{"teams": [...], "players": [...], "rolls"?: {key: [values]}}`.

        `rosters` is {team id: {player id: status}}; `context` carries what else a format needs:
        `tests_to_win`, `stock` ({team id: {support item: count}}) and `players` ({player id: {attributes,
        role, elite}}).
        """
        raise RuleViolation(f"{self.name} results cannot be entered yet.")

    def check_equipment(self, *, weapon: str, shield: bool, hr: Mapping) -> None:
        """Refuse equipment the league's rules do not allow (Bone Cruncher's Bloody Blades)."""
        raise RuleViolation(f"{self.name} players carry no equipment.", field="equipment")

    def player_summary(self, player: Any, hr: Mapping) -> dict:
        """What the team sheet shows of a player beyond his fields (engine.PlayerView in, plain values out)."""
        return {}

    def challenge(
        self, *, dice_count: int, threshold: int, values: Any, roller: Any, hr: Mapping
    ) -> tuple[tuple[int, ...], Any]:
        """Roll (or score entered `values` of) a Challenge: (the dice, the scored result)."""
        raise RuleViolation(f"{self.name} has no Challenge roller.")

    def learn_ability(
        self, team: TeamState, *, abilities: tuple[str, ...], goal_points: int, ability: str, hr: Mapping
    ) -> int:
        """Refuse learning `ability` for a player holding `abilities` with `goal_points`; return the value added."""
        raise RuleViolation(f"{self.name} players do not learn abilities this way.", field="ability")

    def player_match_row(self, row: Mapping, *, mvp: bool, hr: Mapping) -> dict:
        """A player's per-match row (the source of truth) from a normalised result row."""
        return {}

    def match_players(self, players: tuple[PlayerState, ...], *, line: Mapping, hr: Mapping) -> frozenset[int]:
        """Who of a team played a match, each getting his per-match row whether or not he has a stat line (his
        career counts the match): `players` the team's players as the result found them (before a served
        miss-next-match is cleared), `line` the team's normalised result line. I: every player able to play
        (on the roster and not missing this match); a game that names the squad who played says so instead."""
        return frozenset(p.id for p in players if p.can_play)

    def league_points(
        self, *, outcome: str, kind: str, hr: Mapping, event: str = "", placing: int | None = None
    ) -> int:
        points = hr.get("league_points", {})
        if kind == "friendly" and not hr.get("friendlies_give_points", False):
            return 0
        return int(points.get(outcome, points.get("tie", 0) if outcome == "draw" else 0))

    # --- stadium residencies ----------------------------------------------------------------------
    #: Whether a team can hold a residency at one of the league's stadiums (its home stadium). Code outside
    #: campaigns/ asks this instead of naming a ruleset.
    has_residencies: bool = False

    def residency_cancel_cost(self, hr: Mapping) -> int | None:
        """What cancelling a residency costs; None when the ruleset has no residencies."""
        return None

    def check_residency_cancel(self, *, resident: bool, owns_stadium: bool, treasury: int, hr: Mapping) -> int:
        """Refuse cancelling the team's residency, or return its cost in gil."""
        raise RuleViolation(f"{self.name} teams have no home stadium.")

    # --- the season turn (campaigns/rulesets/season.py) --------------------------------------
    def season_turn(self, teams: tuple[season.SeasonTeam, ...], hr: Mapping) -> tuple[season.TeamTurn, ...]:
        """What the turn to the next season changes on each team (teams it leaves alone are not named).

        `carry`: I: nothing — every rulebook keeps between seasons what a team keeps between matches.
        `redraft`: every team rebuilt (`season.redraft`) with the ruleset's `redraft_treasury`."""
        if season.rollover(hr) != "redraft":
            return ()
        treasury = self.redraft_treasury(hr)
        return tuple(season.redraft(team, treasury=treasury) for team in teams)

    def redraft_treasury(self, hr: Mapping) -> int | None:
        """A redrafted team's treasury (None: the ruleset keeps none, its budget is not money)."""
        return None

    def max_consecutive_meetings(self, hr: Mapping) -> int | None:
        """R (Blitz Bowl): a team may not meet the same opponent more than twice in a row."""
        return None
