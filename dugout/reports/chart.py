"""The weekly report's team-value chart, drawn with matplotlib (core.charts): SVG for the report's page, PNG
for its e-mail (mail clients drop inline SVG; the mail carries the PNG as an inline part, `cid:`).

One line per team over the season (x = the team's matches, y = its team value before each match, then now), a
legend, a <title>, a <desc> and an aria-label. Text from the data is escaped by the XML writer, so the caller may
place the SVG in a page unescaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.charts import line_chart
from core.charts.draw import nice_ticks

__all__ = [
    "nice_ticks",
    "season_series",
    "series_from_sides",
    "team_value_chart",
    "team_value_charts",
    "team_value_png",
]


def _number(value: int) -> str:
    return f"{value:,}"


def _args(series: Mapping[str, Sequence[tuple[str, int]]], title: str, unit: str) -> dict:
    desc = f"{title}: " + (
        "; ".join(
            f"{name} {_number(points[0][1])} to {_number(points[-1][1])} {unit}" if points else f"{name} no values"
            for name, points in series.items()
        )
        if series
        else "no team has a value yet"
    )
    return {
        "title": title,
        "y_label": f"Team value ({unit})",
        "x_label": "Matches played",
        "empty": "No team value recorded yet",
        "desc": desc,
        "legend": lambda name, last: f"{name} — {_number(int(last))} {unit}" if last is not None else name,
    }


def team_value_chart(series: Mapping[str, Sequence[tuple[str, int]]], *, title: str, unit: str) -> str:
    """The chart as SVG (`series`: team name → [(x label, value)], in order)."""
    return line_chart(series, **_args(series, title, unit))


def team_value_png(series: Mapping[str, Sequence[tuple[str, int]]], *, title: str, unit: str) -> bytes:
    """The same chart as PNG bytes, for the e-mail."""
    return line_chart(series, image="png", **_args(series, title, unit))


def team_value_charts(series: Mapping[str, Sequence[tuple[str, int]]], *, title: str, unit: str) -> tuple[str, bytes]:
    """The chart as SVG and as PNG from one drawing (the report's page and its e-mail)."""
    return line_chart(series, image="both", **_args(series, title, unit))


def series_from_sides(
    sides: Sequence[Mapping], *, names: Mapping[int, str], current: Mapping[int, int | None]
) -> dict[str, list[tuple[str, int]]]:
    """Each team's value before each of its final matches (`sides`: rows with team_id and team_value, in
    the order the matches became final), then its value now: {team name: [("1", v), ("2", v), …, ("now", v)]}.
    Teams without any value (a game with no team value) are left out."""
    by_team: dict[int, list[int]] = {team: [] for team in names}
    for side in sides:
        value = side.get("team_value")
        if side["team_id"] in by_team and isinstance(value, int) and not isinstance(value, bool):
            by_team[side["team_id"]].append(value)
    out: dict[str, list[tuple[str, int]]] = {}
    for team, values in by_team.items():
        points = [(str(k), v) for k, v in enumerate(values, start=1)]
        if current.get(team) is not None:
            points.append(("now", int(current[team])))
        if points:
            out[names[team]] = points
    return out


def season_series(league) -> dict[str, list[tuple[str, int]]]:
    """The league's team values over the season, from the teams' pre-match snapshots (team value before each
    final match) plus the value now: {team name: [(x label, value), …]}. Fixed queries whatever the league size
    (the teams with their players and treasuries, and one read of the match sides)."""
    from matches.models import Match, MatchTeam
    from teams.selectors import team_queryset, team_state

    rules, hr = league.rules, league.house_rules
    teams = list(team_queryset().filter(league=league).order_by("name", "pk"))
    names = {t.pk: t.name for t in teams}
    current = {t.pk: rules.team_value(team_state(team=t), hr) for t in teams}
    sides = (
        MatchTeam.objects.filter(match__league=league, match__status=Match.Status.FINAL)
        .order_by("match__confirmed_at", "match_id")
        .values("team_id", team_value=_snapshot_key("team_value"))
    )
    return series_from_sides(list(sides), names=names, current=current)


def _snapshot_key(key: str):
    """A key of a side's snapshot, read in the query (decoded: the number, not the whole snapshot)."""
    from django.db.models.fields.json import KeyTransform

    return KeyTransform(key, "snapshot")
