"""The live match sheet's shared shapes: what an event kind is, and the checks every ruleset's sheet shares.

Each ruleset declares its own sheet in `campaigns/rulesets/<key>/live.py`: the event kinds a coach taps during
the game (`live_events`), and how the events fold into the result body its `parse_result` takes
(`result_body`). Pure: plain values in, plain values out; the match services keep the events.

An event, as tapped and as kept: `{"kind", "team", "player", "players", "option"}` — `player` for an event of one
player, `players` for one of several players of a team (an ElfBall goal: those on the field), neither for an
event of the team; `option` is the coach's choice among the kind's options ("" when it has none).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.errors import RuleViolation

#: Who an event kind is about: one player, several players of one team, or the team.
PICKS = ("player", "players", "team")


@dataclass(frozen=True)
class LiveEvent:
    kind: str
    label: str
    #: One of PICKS.
    pick: str = "player"
    #: What one such event adds to its team's running score.
    score: int = 0
    #: (value, label) pairs the coach chooses from; empty: the kind has no choice.
    options: tuple[tuple[str, str], ...] = ()
    #: Only the latest of the kind counts per team (the MVP).
    once: bool = False
    #: Offered at the end of the sheet rather than during play (the MVP).
    final: bool = False

    def as_data(self) -> dict:
        """The declaration as the page's script reads it."""
        return {
            "kind": self.kind,
            "label": self.label,
            "pick": self.pick,
            "score": self.score,
            "options": [{"value": v, "label": label} for v, label in self.options],
            "once": self.once,
            "final": self.final,
        }


def _id(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation(f"{field} must be an id (a whole number).", field=field)
    return value


def check_event(raw: Any, *, events: Sequence[LiveEvent], teams: Mapping[int, Sequence[int]]) -> dict:
    """An event as tapped, refused (naming the field) unless its kind is declared, its team plays this match,
    its player(s) can play for that team and its option is one the kind offers; returned normalised."""
    if not isinstance(raw, Mapping):
        raise RuleViolation("An event is an object: {kind, team, player?, players?, option?}.")
    declared = {e.kind: e for e in events}
    kind = raw.get("kind")
    if kind not in declared:
        raise RuleViolation(f"kind must be one of {', '.join(declared)}.", field="kind")
    spec = declared[kind]
    team_of = {player: team for team, players in teams.items() for player in players}
    team = raw.get("team")
    players: list[int] = []
    player = None
    if spec.pick == "player":
        player = _id(raw.get("player"), "player")
        if player not in team_of:
            raise RuleViolation(f"player {player} is not a player of this match able to play.", field="player")
        team = team_of[player] if team is None else team
        if team != team_of[player]:
            raise RuleViolation(f"player {player} does not play for team {team}.", field="team")
    elif spec.pick == "players":
        raw_players = raw.get("players")
        if not isinstance(raw_players, list) or not raw_players:
            raise RuleViolation(f"A {spec.label} lists the players it concerns.", field="players")
        players = [_id(p, "players") for p in raw_players]
        if len(set(players)) != len(players):
            raise RuleViolation("players lists a player twice.", field="players")
        sides = {team_of.get(p) for p in players}
        if None in sides or len(sides) != 1:
            raise RuleViolation("players must all play for one team of this match.", field="players")
        team = sides.pop() if team is None else team
        if team_of[players[0]] != team:
            raise RuleViolation(f"players do not play for team {team}.", field="team")
    team = _id(team, "team")
    if team not in teams:
        raise RuleViolation(f"team {team} does not play in this match.", field="team")
    option = raw.get("option") or ""
    values = [v for v, _ in spec.options]
    if values and option not in values:
        raise RuleViolation(f"option must be one of {', '.join(values)}.", field="option")
    if not values and option:
        raise RuleViolation(f"A {spec.label} has no option.", field="option")
    return {"kind": kind, "team": team, "player": player, "players": players, "option": option}


def running_score(
    events: Iterable[Mapping], *, declared: Sequence[LiveEvent], teams: Mapping[int, Sequence[int]]
) -> dict[int, int]:
    """Each team's score so far: the sum of what its events add (LiveEvent.score)."""
    adds = {e.kind: e.score for e in declared}
    score = dict.fromkeys(teams, 0)
    for event in events:
        if event["team"] in score:
            score[event["team"]] += adds.get(event["kind"], 0)
    return score


def latest(events: Iterable[Mapping], kind: str) -> dict[int, Mapping]:
    """The latest event of `kind` per team (a `once` kind: the MVP)."""
    return {e["team"]: e for e in events if e["kind"] == kind}


def count(events: Iterable[Mapping], kind: str) -> dict[int, int]:
    """Per player, how many events of `kind` name him."""
    counts: dict[int, int] = {}
    for e in events:
        if e["kind"] == kind and e.get("player") is not None:
            counts[e["player"]] = counts.get(e["player"], 0) + 1
    return counts
