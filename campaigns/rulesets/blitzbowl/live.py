"""Blitz Bowl's live match sheet (rules/blitzbowl.md "Star Player Points", "Injuries recorded on a result"):
what a coach taps during the game and how the taps fold into the result body (api-v1 "Result body").

A touchdown, casualty, completion or interception is tapped on the player who earned it (a touchdown scores 1
for his team, a casualty counts towards his team's casualties inflicted); an injury on the player who suffered
it (the latest injury of a player is the one recorded); the MVP, one per team, at the end, and a team that
concedes (R "Conceding": the conceding rules apply to the result)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from campaigns.rulesets.live import LiveEvent, count, latest, running_score
from campaigns.rulesets.words import humanise

#: Event kind → the result row's counter it adds to.
COUNTERS = {
    "touchdown": "touchdowns",
    "casualty": "casualties",
    "completion": "completions",
    "interception": "interceptions",
}


def _injury_options(hr: Mapping) -> tuple[tuple[str, str], ...]:
    """H: the league's injuries; a stat loss names the stat ("stat_loss:ma")."""
    options = []
    for injury in hr["injuries"]:
        if injury == "stat_loss":
            options += [(f"stat_loss:{s}", f"Stat loss ({s.upper()})") for s in hr["stat_loss_attributes"]]
        else:
            options.append((injury, humanise(injury)))
    return tuple(options)


def live_events(*, hr: Mapping, event: str = "", teams: int = 2) -> tuple[LiveEvent, ...]:
    return (
        LiveEvent("touchdown", "Touchdown", score=1),
        LiveEvent("casualty", "Casualty"),
        LiveEvent("completion", "Completion"),
        LiveEvent("interception", "Interception"),
        LiveEvent("injury", "Injury", options=_injury_options(hr)),
        LiveEvent("mvp", "MVP", once=True, final=True),
        LiveEvent("concede", "Concedes", pick="team", once=True, final=True),
    )


def result_body(events: Iterable[Mapping], *, teams: Mapping[int, Sequence[int]], hr: Mapping, event: str = "") -> dict:
    """The events (in the order tapped) as the result body `parse_result` takes."""
    events = list(events)
    score = running_score(events, declared=live_events(hr=hr), teams=teams)
    mvps = latest(events, "mvp")
    conceded = latest(events, "concede")
    counts = {kind: count(events, kind) for kind in COUNTERS}
    injuries = {e["player"]: e["option"] for e in events if e["kind"] == "injury"}
    body_teams = []
    for team, players in teams.items():
        mvp = mvps.get(team)
        body_teams.append(
            {
                "team": team,
                "score": score[team],
                "casualties_inflicted": sum(counts["casualty"].get(p, 0) for p in players),
                "mvp": mvp["player"] if mvp else None,
                **({"conceded": True} if team in conceded else {}),
            }
        )
    rows = []
    for players in teams.values():
        for player in players:
            row: dict = {"player": player}
            for kind, stat in COUNTERS.items():
                if counts[kind].get(player):
                    row[stat] = counts[kind][player]
            injury = injuries.get(player)
            if injury:
                name, _, stat = injury.partition(":")
                row["injury"] = name
                if stat:
                    row["stat"] = stat
            if len(row) > 1:
                rows.append(row)
    return {"teams": body_teams, "players": rows}
