"""Bone Cruncher's live match sheet (rules/bonecruncher.md "Events", "Wounds"): what a coach taps during the
game and how the taps fold into the result body (api-v1 "Result body").

Scorchball (and an ordinary match): a point is tapped on the team (1 on its running score). Terminix: each
team's placing (its latest is the one recorded) and an elimination on the team that made it. Both: a wound on
the player who took it — per body area when the league plays advanced wounds — and a Critical Wound Chart roll;
a player of a team bigger than the event's squad is tapped "sits out" to leave him out of the squad."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from campaigns.rulesets.live import LiveEvent, latest, running_score
from campaigns.rulesets.words import humanise

from .wounds import AREAS, critical_entry


def _placings(teams: int) -> tuple[tuple[str, str], ...]:
    return tuple((str(n), f"#{n}") for n in range(1, teams + 1))


def event_key(event: str) -> str:
    """I (results.py): an ordinary match (event "") is played as Scorchball."""
    return "terminix" if event == "terminix" else "scorchball"


def live_events(*, hr: Mapping, event: str = "", teams: int = 2) -> tuple[LiveEvent, ...]:
    advanced = bool(hr.get("advanced_wounds", False))
    chart = tuple((str(roll), f"{roll}: {critical_entry(roll, hr)['name']}") for roll in range(1, 7))
    if event_key(event) == "terminix":
        scoring = (
            LiveEvent("placing", "Placing", pick="team", options=_placings(teams), once=True, final=True),
            LiveEvent("elimination", "Elimination", pick="team"),
        )
    else:
        scoring = (LiveEvent("point", "Point", pick="team", score=1),)
    return (
        *scoring,
        LiveEvent("wound", "Wound", options=tuple((a, humanise(a)) for a in AREAS) if advanced else ()),
        LiveEvent("critical", "Critical wound", options=chart),
        LiveEvent("sits_out", "Sits out"),
    )


def result_body(events: Iterable[Mapping], *, teams: Mapping[int, Sequence[int]], hr: Mapping, event: str = "") -> dict:
    """The events (in the order tapped) as the result body `parse_result` takes."""
    events = list(events)
    terminix = event_key(event) == "terminix"
    out = {e["player"] for e in events if e["kind"] == "sits_out"}
    placings = latest(events, "placing")
    lines = []
    for team, players in teams.items():
        line: dict = {"team": team}
        if terminix:
            line["placing"] = int(placings[team]["option"]) if team in placings else None
            line["eliminations"] = sum(1 for e in events if e["kind"] == "elimination" and e["team"] == team)
        if out & set(players) or len(players) > int(hr["events"][event_key(event)]["squad"]):
            line["squad"] = [p for p in players if p not in out]
        lines.append(line)
    if not terminix:
        score = running_score(events, declared=live_events(hr=hr, event=event), teams=teams)
        for line in lines:
            line["score"] = score[line["team"]]
    advanced = bool(hr.get("advanced_wounds", False))
    wounds: dict[int, dict] = {}
    for e in events:
        if e["kind"] not in ("wound", "critical"):
            continue
        row = wounds.setdefault(e["player"], {"player": e["player"], "wounds": 0, "critical": []})
        if e["kind"] == "critical":
            row["critical"].append(int(e["option"]))
        elif advanced:
            row.setdefault("areas", {})
            row["areas"][e["option"]] = row["areas"].get(e["option"], 0) + 1
            row["wounds"] += 1
        else:
            row["wounds"] += 1
    order = [p for players in teams.values() for p in players]
    return {"teams": lines, "wounds": [wounds[p] for p in order if p in wounds]}
