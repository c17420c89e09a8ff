"""The post-match workflow's pure half: steps, the decisions they ask for, and the effects they return.

A step reads a plain-value `StepContext` (the team, the match as this team saw it, the house rules, the
dice, the coach's choices) and returns a `StepOutcome`: effects for the Django engine to apply in one
transaction, log lines in words, and data to carry to the team's later steps. A step that needs a decision
the request did not give calls `ctx.decide(...)`, which raises `NeedsDecision`; the engine stores the rolls
made so far and answers `pending` with the options, and the next POST of the same step runs it again with
the same dice and the new choice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .dice import Dice
from .errors import RuleViolation

# --- effects ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Gil:
    amount: int
    reason: str
    kind: str
    account: str = "treasury"


@dataclass(frozen=True)
class FanFactor:
    delta: int
    reason: str


#: Player fields a step may set outright through `PlayerUpdate.fields`.
PLAYER_FIELDS = frozenset({"wounds", "armour_used", "wound_areas", "conditions", "elite", "matches_survived", "role"})


@dataclass(frozen=True)
class PlayerUpdate:
    player_id: int
    reason: str
    status: str | None = None
    skills_add: tuple[str, ...] = ()
    skills_remove: tuple[str, ...] = ()
    attribute_deltas: Mapping[str, int] = field(default_factory=dict)
    value_delta: int = 0
    leaves: bool = False
    #: ElfBall abilities learned (kept once each).
    abilities_add: tuple[str, ...] = ()
    #: New absolute values of tracked fields (PLAYER_FIELDS): the journal keeps the old ones.
    fields: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = set(self.fields) - PLAYER_FIELDS
        if unknown:
            raise ValueError(f"PlayerUpdate cannot set {sorted(unknown)}")


@dataclass(frozen=True)
class NewPlayer:
    position: str
    name: str
    status: str
    skills_add: tuple[str, ...] = ()


@dataclass(frozen=True)
class SponsorshipGained:
    name: str


@dataclass(frozen=True)
class SponsorshipEnded:
    sponsorship_id: int


@dataclass(frozen=True)
class Residency:
    """The team's home stadium becomes `stadium_id` (None: the residency ends)."""

    stadium_id: int | None
    owned: bool = False


@dataclass(frozen=True)
class Staff:
    """A change to the count of a team support item (e.g. an ElfBall Magic Potion drunk: delta −1)."""

    item: str
    delta: int
    reason: str


@dataclass(frozen=True)
class MatchRowNote:
    """Facts a step settles about a player's row of this match, merged into its detail (e.g. which attribute
    a lasting injury lowered, when the coach chose it in the step)."""

    player_id: int
    detail: Mapping[str, Any]


Effect = (
    MatchRowNote | Staff | Gil | FanFactor | PlayerUpdate | NewPlayer | SponsorshipGained | SponsorshipEnded | Residency
)

# --- the view of the world a step reads ------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerView:
    id: int
    name: str
    number: int | None
    position: str
    status: str
    spp: int
    skills: tuple[str, ...]
    attributes: Mapping[str, int]
    value: int
    skill_access: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    role: str = ""
    abilities: tuple[str, ...] = ()
    goal_points: int = 0
    #: Bone Cruncher: wound boxes marked (armour excluded), per area when advanced, armour boxes used,
    #: lasting conditions ({"key": "incapacitated_leg", "side": "left"}), Elite status, matches survived.
    wounds: int = 0
    armour_used: int = 0
    wound_areas: Mapping[str, int] = field(default_factory=dict)
    conditions: tuple[Mapping[str, str], ...] = ()
    elite: bool = False
    matches_survived: int = 0
    #: Bone Cruncher: the player's race (a Halfling team's Elite Elf is an Elf) and its health template.
    race: str = ""
    health_template: Mapping[str, int] = field(default_factory=dict)
    #: Bone Cruncher Bloody Blades: {"weapon": "none"|"blade"|"polearm", "shield": bool}.
    equipment: Mapping[str, Any] = field(default_factory=dict)

    @property
    def can_play(self) -> bool:
        return self.status in ("active", "journeyman")

    @property
    def on_roster(self) -> bool:
        return self.status in ("active", "miss_next_match", "journeyman", "dead")


@dataclass(frozen=True)
class StadiumView:
    id: int
    name: str
    special_attribute: str
    home_of_this_team: bool
    home_of_other_team: bool
    owned_by_this_team: bool
    owned_by_other_team: bool = False


@dataclass(frozen=True)
class SideView:
    """One team's line of the final result."""

    team_id: int
    score: int
    casualties_inflicted: int
    conceded: bool = False
    conceded_early: bool = False
    fame: int = 0
    mvp: int | None = None
    placing: int | None = None
    eliminations: int = 0


@dataclass(frozen=True)
class MatchView:
    id: int
    kind: str
    outcome: str  # "win" | "draw" | "loss", for this team
    us: SideView
    them: tuple[SideView, ...]
    stadium: StadiumView | None
    #: Per player of this team: the match row (touchdowns, casualties, completions, interceptions, mvp, spp,
    #: goal_points, wounds, injury, injury_detail, and the ruleset's own `detail` mapping).
    player_rows: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    #: The opponent's winnings when it conceded, handed to this team (filled by the engine).
    extra: Mapping[str, Any] = field(default_factory=dict)
    event: str = ""
    tests_to_win: int | None = None
    #: The whole normalised result, as the ruleset's parse_result returned it.
    result: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TeamView:
    id: int
    name: str
    roster_key: str
    fan_factor: int
    treasury: int
    stadium_fund: int
    rerolls: int
    staff: Mapping[str, int]
    players: tuple[PlayerView, ...]
    ongoing_sponsorships: tuple[tuple[int, str], ...]
    home_stadium: StadiumView | None
    journeyman_position: str | None
    journeyman_cost: int
    positions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


#: The parts of the views a step may declare it reads (`Step.reads`); the engine loads only those.
VIEW_PARTS = frozenset({"players", "positions", "sponsorships", "player_rows"})


class UnreadPart(RuntimeError):
    """A step touched a part of its view it did not declare in `Step.reads`: a bug in the declaration."""


class Unread:
    """Stands in the view for a part the step did not declare it reads (`Step.reads`): any use of it fails
    loudly, so a wrong declaration is caught by the step's tests instead of answering from nothing."""

    __slots__ = ("part",)

    def __init__(self, part: str) -> None:
        self.part = part

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise UnreadPart(f"The step read {self.part!r}, which its Step.reads does not declare.")

    __iter__ = __len__ = __getitem__ = __contains__ = __bool__ = __getattr__ = _fail

    def __repr__(self) -> str:
        return f"Unread({self.part!r})"


def team_situation(team: TeamView) -> dict[str, bool]:
    """The flags a step's optional choices are offered under (`Step.options`)."""
    stadium = team.home_stadium
    owns = bool(stadium and stadium.owned_by_this_team)
    return {"owns_stadium": owns, "resident_tenant": bool(stadium) and not owns, "resident": bool(stadium)}


class NeedsDecision(Exception):
    """A control-flow signal: the step stops, pending the coach's decision."""

    def __init__(self, decision: str, options: Any, message: str) -> None:
        super().__init__(message)
        self.decision = decision
        self.options = options
        self.message = message


@dataclass
class StepContext:
    team: TeamView
    match: MatchView
    hr: Mapping[str, Any]
    dice: Dice
    choices: Mapping[str, Any]
    carry: dict[str, Any]
    log: list[str] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)

    def decide(self, decision: str, options: Any, message: str, *, check: Callable[[Any], Any] | None = None) -> Any:
        """The coach's answer to `decision`, from this request's choices; ask for it when missing.

        `check` validates the answer (raising RuleViolation) and may normalise it.
        """
        if decision not in self.choices:
            raise NeedsDecision(decision, options, message)
        answer = self.choices[decision]
        return check(answer) if check else answer

    def ask(self, decision: str, options: Any, message: str) -> None:
        """Ask again for a decision already answered once (e.g. "attempt" a deal, then "accept its cost?")."""
        raise NeedsDecision(decision, options, message)

    def say(self, line: str) -> None:
        self.log.append(line)

    def apply(self, effect: Effect, line: str | None = None) -> None:
        self.effects.append(effect)
        if line:
            self.log.append(line)

    @property
    def treasury(self) -> int:
        """The treasury as this step's effects so far leave it."""
        return self.team.treasury + sum(
            e.amount for e in self.effects if isinstance(e, Gil) and e.account == "treasury"
        )


StepFunction = Callable[[StepContext], None]


@dataclass(frozen=True)
class Step:
    key: str
    title: str
    run: StepFunction
    #: The roll keys the step may use, in the order it asks for them (pages offer one input each).
    rolls: tuple[str, ...] = ()
    #: Which of `rolls` the step can use for this team after this match: (team, match, hr) -> roll keys.
    #: None: all of them. Pages ask only for these (no stadium dice without a stadium).
    usable: Callable[[TeamView, MatchView, Mapping[str, Any]], tuple[str, ...]] | None = None
    #: Choices a coach may add when running the step: (name, "flag" | "count", label, when), where `when`
    #: names a flag of `team_situation(team)` that must be true for the choice to be offered.
    options: tuple[tuple[str, str, str, str], ...] = ()
    #: The parts of the views (VIEW_PARTS) the step reads; the others are `Unread`. None: all of them.
    reads: frozenset[str] | None = None

    def __post_init__(self) -> None:
        if self.reads is not None and not self.reads <= VIEW_PARTS:
            raise ValueError(f"Step {self.key!r} reads unknown parts {sorted(self.reads - VIEW_PARTS)}")

    def view_parts(self) -> frozenset[str]:
        """The parts of the views the engine loads for this step."""
        return VIEW_PARTS if self.reads is None else self.reads

    def usable_rolls(self, team: TeamView, match: MatchView, hr: Mapping[str, Any]) -> tuple[str, ...]:
        """The roll keys worth asking the coach for before the step runs, in `rolls` order."""
        if self.usable is None:
            return self.rolls
        usable = set(self.usable(team, match, hr))
        return tuple(k for k in self.rolls if k in usable)


def bool_choice(name: str) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        if not isinstance(value, bool):
            raise RuleViolation(f"choices.{name} must be true or false.", field=f"choices.{name}")
        return value

    return check


def one_of(name: str, allowed: Any) -> Callable[[Any], Any]:
    allowed = list(allowed)

    def check(value: Any) -> Any:
        if value not in allowed:
            raise RuleViolation(f"choices.{name} must be one of {allowed}.", field=f"choices.{name}")
        return value

    return check
