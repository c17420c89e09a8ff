"""ElfBall's live match sheet (rules/elfball.md "Matches", "Goal Points and abilities", "Injuries"): what a
coach taps during the game and how the taps fold into the result body (api-v1 "Result body").

A goal is tapped with the scoring team's players who were on the field (each gets its Goal Point; the goal
wins the team a Test, 1 on the running score); a Grit Challenge outcome on the player who took it (his latest is
the one recorded); a team that concedes (R "Conceding"). ElfBall has no MVP."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from campaigns.rulesets.live import LiveEvent, latest, running_score
from campaigns.rulesets.words import humanise

from . import postmatch


def live_events(*, hr: Mapping, event: str = "", teams: int = 2) -> tuple[LiveEvent, ...]:
    outcomes = tuple((o, humanise(o)) for o in postmatch.injury_outcomes(hr) if o != "none")
    return (
        LiveEvent("goal", "Goal", pick="players", score=1),
        LiveEvent("injury", "Grit outcome", options=outcomes),
        LiveEvent("concede", "Concedes", pick="team", once=True, final=True),
    )


def result_body(events: Iterable[Mapping], *, teams: Mapping[int, Sequence[int]], hr: Mapping, event: str = "") -> dict:
    """The events (in the order tapped) as the result body `parse_result` takes: a team's score is its goals."""
    events = list(events)
    score = running_score(events, declared=live_events(hr=hr), teams=teams)
    goals = [{"team": e["team"], "on_field": list(e["players"])} for e in events if e["kind"] == "goal"]
    injuries = {e["player"]: e["option"] for e in events if e["kind"] == "injury"}
    conceded = latest(events, "concede")
    order = [p for players in teams.values() for p in players]
    return {
        "teams": [
            {"team": team, "score": score[team], **({"conceded": True} if team in conceded else {})} for team in teams
        ],
        "goals": goals,
        "players": [{"player": p, "injury": injuries[p]} for p in order if p in injuries],
    }
