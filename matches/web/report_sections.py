"""The match report's sections after the result, keyed by the section name a ruleset declares
(`Ruleset.match_report_sections`, campaigns/rulesets/<key>/pages.py) — never by ruleset. Each builder reads the match
as the report loaded it and returns the plain data its partial `matches/report/_<name>.html` prints; the words
of a game's tables (Grit outcomes, potions, the Critical Wound Chart) come from the ruleset's pages module."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from matches import lifecycle
from matches.models import Match

from .common import named, number_key, player_name
from .forms.common import words


@dataclass(frozen=True)
class Report:
    """What every section reads: the match, its sides, their teams and order, the players the result names."""

    match: Match
    sides: list
    teams: Mapping[int, Any]
    order: Mapping[int, int]
    names: Mapping[int, Any]
    hr: Mapping
    pages: Any  # the ruleset's pages module (its wording of its tables)

    @property
    def final(self) -> bool:
        return self.match.status == Match.Status.FINAL

    @property
    def submitted(self) -> bool:
        return self.match.status in lifecycle.WAITING  # entered, not final yet (submitted or disputed)


def _injury(injury: str, detail: str) -> str:
    if not injury:
        return ""
    return f"{words(injury)} (−{detail.upper()})" if detail else words(injury)


def lines_only(report: Report) -> dict:
    """The result table alone (its partial reads the report's `lines`)."""
    return {}


def lines_event(report: Report) -> dict:
    """The event played (Scorchball, or Terminix with placings and eliminations) above the result table."""
    return {"event": words(report.match.event or "scorchball"), "terminix": report.match.event == "terminix"}


def performances(report: Report) -> dict:
    """Each player's touchdowns, casualties, completions, interceptions, MVP, SPP and injury."""
    match, teams, order, names = report.match, report.teams, report.order, report.names
    rows = []
    if report.final:
        for r in match.player_rows.all():
            if not (r.touchdowns or r.casualties or r.completions or r.interceptions or r.mvp or r.spp or r.injury):
                continue  # he played and did nothing to report (every player who played has his row)
            rows.append(
                {
                    "team": teams[r.team_id],
                    "player": player_name(r.player),
                    "player_id": r.player_id,
                    "touchdowns": r.touchdowns,
                    "casualties": r.casualties,
                    "completions": r.completions,
                    "interceptions": r.interceptions,
                    "mvp": r.mvp,
                    "spp": r.spp,
                    "injury": _injury(r.injury, r.injury_detail),
                    "sort": (order[r.team_id], number_key(r.player), r.player_id),
                }
            )
    elif report.submitted:
        mvps = {line.get("mvp") for line in match.result.get("teams", [])}
        listed = {row["player"] for row in match.result.get("players", [])}
        result_rows = list(match.result.get("players", [])) + [
            {"player": m, "team": names[m].team_id} for m in mvps if m and m not in listed and m in names
        ]
        for r in result_rows:
            player = names.get(r["player"])
            team_id = r.get("team") or (player.team_id if player else None)
            rows.append(
                {
                    "team": teams.get(team_id),
                    "player": player_name(player) or f"#{r['player']}",
                    "player_id": player.pk if player else None,
                    "touchdowns": r.get("touchdowns", 0),
                    "casualties": r.get("casualties", 0),
                    "completions": r.get("completions", 0),
                    "interceptions": r.get("interceptions", 0),
                    "mvp": r["player"] in mvps,
                    "spp": None,
                    "injury": _injury(r.get("injury", ""), r.get("stat", "")),
                    "sort": (order.get(team_id, 0), number_key(player), r["player"]),
                }
            )
    return {"rows": sorted(rows, key=lambda row: row["sort"])}


def goals(report: Report) -> dict:
    """Each goal with the players on the field (1 Goal Point each)."""
    numbers: dict = {}
    out = []
    for goal in report.match.result.get("goals", []):
        team_id = goal.get("team")
        numbers[team_id] = numbers.get(team_id, 0) + 1
        out.append(
            {
                "team": report.teams.get(team_id),
                "number": numbers[team_id],
                "on_field": [named(report.names, i) for i in goal.get("on_field", [])],
                "sort": (report.order.get(team_id, 0), numbers[team_id]),
            }
        )
    return {"goals": sorted(out, key=lambda g: g["sort"])}


def final_player_rows(report: Report, fields: Callable[[Any, dict], dict]) -> list[dict]:
    """A final match's player rows for a section: each player's team, name and sort key around the section's
    `fields(row, detail)`, kept only when one of those fields says something."""
    rows = []
    for r in report.match.player_rows.all():
        said = fields(r, r.detail or {})
        if any(said.values()):
            sort = (report.order.get(r.team_id, 0), number_key(r.player), r.player_id)
            rows.append(
                {
                    "team": report.teams.get(r.team_id),
                    "player": player_name(r.player),
                    "player_id": r.player_id,
                    **said,
                    "sort": sort,
                }
            )
    return rows


def grit(report: Report) -> dict:
    """Each player's Goal Points, Grit Challenge outcome, Magic Potion and (when final) a stay in the infirmary."""
    match, teams, order, names = report.match, report.teams, report.order, report.names
    hr, pages = report.hr, report.pages
    rows = []
    if report.final:
        rows = final_player_rows(
            report,
            lambda r, detail: {
                "goal_points": r.goal_points,
                "injury": pages.grit_words(r.injury, r.injury_detail),
                "potion": pages.potion_words(
                    detail.get("potion"), detail.get("potion_ability", ""), detail.get("potion_attribute", ""), hr
                ),
                "infirmary": bool(detail.get("infirmary")),
            },
        )
    elif report.submitted:
        # The stored result's rows: every player with a Goal Point, a Grit outcome or a potion.
        potions = {r.get("player"): r for r in match.result.get("potions", [])}
        for r in match.result.get("players", []):
            player_id = r.get("player")
            player = names.get(player_id)
            potion = potions.get(player_id, {})
            rows.append(
                {
                    "team": teams.get(r.get("team") or (player.team_id if player else None)),
                    "player": named(names, player_id),
                    "goal_points": r.get("goal_points", 0),
                    "injury": pages.grit_words(r.get("injury") or "", r.get("attribute") or ""),
                    "potion": pages.potion_words(
                        r.get("potion", potion.get("roll")),
                        r.get("potion_ability") or potion.get("ability") or "",
                        r.get("potion_attribute") or potion.get("attribute") or "",
                        hr,
                    ),
                    "infirmary": bool(r.get("infirmary")),
                    "sort": (order.get(r.get("team"), 0), number_key(player), player_id),
                }
            )
    return {"players": sorted(rows, key=lambda row: row["sort"]), "final": report.final}


def squads(report: Report) -> dict:
    """Each team's squad: (player id, name) each, the names linked to the players' pages."""
    lines = {line.get("team"): line for line in report.match.result.get("teams", [])}
    out = [
        {
            "team": s.team,
            "players": [(i, named(report.names, i)) for i in lines.get(s.team_id, {}).get("squad") or []],
        }
        for s in report.sides
    ]
    return {"squads": [s for s in out if s["players"]]}


def wounds(report: Report) -> dict:
    """The wounds (per body area, when the league plays advanced wounds) and critical wounds each player took."""
    match, teams, order, names = report.match, report.teams, report.order, report.names
    hr, pages = report.hr, report.pages
    rows = []
    if report.final:
        rows = final_player_rows(
            report,
            lambda r, detail: {
                "wounds": r.wounds,
                "areas": pages.areas_words(detail.get("areas") or {}),
                "critical": pages.critical_words(detail.get("critical"), hr),
            },
        )
    elif report.submitted:
        # The stored result keeps each squad player's wounds on his row.
        for w in match.result.get("wounds") or match.result.get("players", []):
            player = names.get(w.get("player"))
            areas = w.get("areas") or {}
            if not (w.get("wounds") or any(areas.values()) or w.get("critical")):
                continue
            rows.append(
                {
                    "team": teams.get(player.team_id) if player else None,
                    "player": named(names, w.get("player")),
                    "wounds": w.get("wounds", sum(areas.values()) if areas else 0),
                    "areas": pages.areas_words(areas),
                    "critical": pages.critical_words(w.get("critical"), hr),
                    "sort": (order.get(player.team_id, 0) if player else 0, number_key(player), w.get("player")),
                }
            )
    return {"wounds": sorted(rows, key=lambda row: row["sort"]), "advanced": bool(hr.get("advanced_wounds"))}


#: Section name → its builder.
SECTIONS: Mapping[str, Callable[[Report], dict]] = {
    "lines_counters": lines_only,
    "lines_tests": lines_only,
    "lines_event": lines_event,
    "performances": performances,
    "goals": goals,
    "grit": grit,
    "squads": squads,
    "wounds": wounds,
}


def report_sections(report: Report, names_: tuple[str, ...]) -> list[dict]:
    """The sections a ruleset declares, each with its partial and its data."""
    return [{"name": n, "template": f"matches/report/_{n}.html", **SECTIONS[n](report)} for n in names_]
