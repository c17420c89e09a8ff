"""The catalogue of the weekly report's sections, keyed by section name (the report's JSON key).

A ruleset lists the sections its report has, in order (`Ruleset.weekly_report_sections`); `build_report` calls each
listed builder with the week's `Parts`. A builder returns the section's content, or `OMIT` when the section has
nothing to say for this league (a team-value chart when the game keeps no team value). The catalogue knows
sections, never games: a section only one game has is simply one only that game lists.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from dugout.reports import games, gil, injuries, players, results
from dugout.reports.chart import series_from_sides, team_value_charts
from dugout.reports.week import Week

#: What a builder returns to leave its section out of the report.
OMIT = object()

#: How many teams the team-value chart draws: one line each in the chart's ten distinct colours. A 400-team
#: league's chart of every team was 1.5 MB of SVG nobody could read; it now draws the ten highest
#: values and says so in its title.
CHART_TEAMS = 10


class Parts:
    """The week, and the parts several sections share (each computed once)."""

    def __init__(self, week: Week):
        self.week = week
        #: The team-value chart as PNG once drawn (with its SVG, from the one figure), for the e-mail.
        self.png: bytes | None = None

    def chart_png(self) -> bytes | None:
        """The report's chart as PNG (the e-mail's inline image), or None when the report has no chart."""
        return self.png

    @cached_property
    def results(self) -> list[dict]:
        return results.results(self.week)

    @cached_property
    def in_memoriam(self) -> list[dict]:
        return injuries.in_memoriam(self.week)

    @cached_property
    def improvements(self) -> list[dict]:
        return players.improvements(self.week)


def _top_casualties(p: Parts) -> Any:
    spec = p.week.rules.report_casualties
    return players.board(p.week, spec) if spec else OMIT


def _tv_movers(p: Parts) -> Any:
    return gil.tv_movers(p.week) if p.week.has_value else OMIT


def _chart(p: Parts) -> Any:
    w = p.week
    if not w.has_value:
        return OMIT
    teams = w.teams
    if len(teams) > CHART_TEAMS:  # the highest values now (ties by the teams' order: name, then pk)
        ranked = sorted(teams, key=lambda t: -(w.value_now[t.pk] or 0))
        kept = {t.pk for t in ranked[:CHART_TEAMS]}
        teams = [t for t in teams if t.pk in kept]
    series = series_from_sides(
        w.value_sides({t.pk for t in teams}),
        names={t.pk: t.name for t in teams},
        current={t.pk: w.value_now[t.pk] for t in teams},
    )
    top = f" (the {len(teams)} highest of {len(w.teams)})" if len(teams) < len(w.teams) else ""
    svg, p.png = team_value_charts(
        series,
        title=f"{w.league.name}: team value over the season{top}",
        unit=w.rules.report_terms["value_unit"] or "value",
    )
    return svg


SECTIONS: dict[str, Callable[[Parts], Any]] = {
    "results": lambda p: p.results,
    "table": lambda p: results.table(p.week),
    "top_scorers": lambda p: players.board(p.week, p.week.rules.report_scorers),
    "top_casualties": _top_casualties,
    "mvps": lambda p: players.mvps(p.week),
    "improvements": lambda p: p.improvements,
    "in_memoriam": lambda p: p.in_memoriam,
    "serious_injuries": lambda p: injuries.serious_injuries(p.week, {m["player"] for m in p.in_memoriam}),
    "treasury_movers": lambda p: gil.treasury_movers(p.week),
    "tv_movers": _tv_movers,
    "fan_factor_changes": lambda p: gil.fan_factor_changes(p.week),
    "sponsorships": lambda p: gil.sponsorships(p.week),
    "stadium_deals": lambda p: gil.stadium_deals(p.week),
    "expensive_mistakes": lambda p: gil.expensive_mistakes(p.week),
    "elfball": lambda p: games.elfball(p.week, p.improvements),
    "bonecruncher": lambda p: games.bonecruncher(p.week, p.improvements, p.in_memoriam),
    "fixtures": lambda p: results.fixtures(p.week),
    "chart": _chart,
}
