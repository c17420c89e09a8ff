"""The weekly report's team-value chart: a self-contained SVG drawn on the server.

E-mail clients run no scripts and fetch no fonts or style sheets, so the chart is plain SVG with inline
presentation attributes only: one polyline per team over the season (x = the team's matches, y = its team
value before each match, then now), a few axis ticks, a legend, a <title> and an aria-label. Every piece of
text that comes from the data (team names, labels, the title) is XML-escaped here, so the caller may place
the string in a page unescaped.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

#: Line colours (distinguishable, colour-blind friendly first); after ten, dash patterns tell teams apart.
PALETTE = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
    "#bcbd22",
)
DASHES = ("", "6 3", "2 3", "8 3 2 3")
FONT = 'font-family="Helvetica, Arial, sans-serif"'

WIDTH = 640
PLOT_HEIGHT = 240
MARGIN_LEFT = 78
MARGIN_RIGHT = 20
MARGIN_TOP = 36
AXIS_SPACE = 44
LEGEND_ROW = 18
LEGEND_COLUMNS = 2


def _text(value: object) -> str:
    return escape(str(value))


def _attr(value: object) -> str:
    return escape(str(value), {'"': "&quot;", "'": "&apos;"})


def _fmt(value: float) -> str:
    """Coordinates with at most one decimal (a compact, stable document)."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _number(value: int) -> str:
    return f"{value:,}"


def nice_ticks(low: int, high: int, count: int = 5) -> list[int]:
    """Round tick values (1, 2 or 5 × 10ⁿ apart) covering [low, high]."""
    if high < low:
        low, high = high, low
    if high == low:
        pad = max(1, abs(high) // 10)
        low, high = low - pad, high + pad
    raw = (high - low) / max(1, count - 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next((m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw), 10 * magnitude)
    step = max(1, int(step))
    start = math.floor(low / step) * step
    stop = math.ceil(high / step) * step
    return list(range(int(start), int(stop) + 1, step))


def team_value_chart(series: Mapping[str, Sequence[tuple[str, int]]], *, title: str, unit: str) -> str:
    """An SVG line chart: one polyline per team (`series`: team name → [(x label, value)], in order)."""
    names = list(series)
    # The x axis: the longest series' labels, then any other label in the order met; each point sits at its
    # label (a team with fewer matches still ends on "now").
    axis: list[str] = []
    for points in sorted(series.values(), key=len, reverse=True):
        axis += [str(label) for label, _ in points if str(label) not in axis]
    column = {label: index for index, label in enumerate(axis)}
    longest = len(axis)
    values = [int(v) for points in series.values() for _, v in points]
    legend_rows = math.ceil(len(names) / LEGEND_COLUMNS) if names else 0
    height = MARGIN_TOP + PLOT_HEIGHT + AXIS_SPACE + legend_rows * LEGEND_ROW + 10
    plot_width = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    x0, y0 = MARGIN_LEFT, MARGIN_TOP
    x1, y1 = x0 + plot_width, y0 + PLOT_HEIGHT

    label = f"{title}: " + (
        "; ".join(
            f"{name} {_number(points[0][1])} to {_number(points[-1][1])} {unit}" if points else f"{name} no values"
            for name, points in series.items()
        )
        if names
        else "no team has a value yet"
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{_attr(label)}" {FONT} font-size="12">',
        f"<title>{_text(title)}</title>",
        f"<desc>{_text(label)}</desc>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="{x0}" y="20" font-size="14" font-weight="bold" fill="#222222">{_text(title)}</text>',
    ]

    ticks = nice_ticks(min(values), max(values)) if values else [0, 1]
    low, high = ticks[0], ticks[-1]

    def y_of(value: float) -> float:
        return y1 - (value - low) / (high - low) * PLOT_HEIGHT

    def x_of(index: int) -> float:
        return x0 + (index / (longest - 1) * plot_width if longest > 1 else plot_width / 2)

    # Axes, grid and y ticks.
    out.append('<g stroke="#999999" stroke-width="1" fill="none">')
    out.append(f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}"/>')
    out.append(f'<line x1="{x0}" y1="{y1}" x2="{x1}" y2="{y1}"/>')
    out.append("</g>")
    for tick in ticks:
        y = _fmt(y_of(tick))
        out.append(f'<line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" stroke="#e5e5e5" stroke-width="1"/>')
        out.append(f'<line x1="{x0 - 4}" y1="{y}" x2="{x0}" y2="{y}" stroke="#999999" stroke-width="1"/>')
        out.append(f'<text x="{x0 - 8}" y="{y}" text-anchor="end" dy="4" fill="#444444">{_number(tick)}</text>')
    out.append(
        f'<text x="14" y="{_fmt((y0 + y1) / 2)}" transform="rotate(-90 14 {_fmt((y0 + y1) / 2)})" '
        f'text-anchor="middle" fill="#444444">{_text(f"Team value ({unit})")}</text>'
    )

    # X ticks: the longest series' labels, thinned to at most twelve.
    every = max(1, math.ceil(longest / 12))
    for index, x_label in enumerate(axis):
        if index % every and index != longest - 1:
            continue
        x = _fmt(x_of(index))
        out.append(f'<line x1="{x}" y1="{y1}" x2="{x}" y2="{y1 + 4}" stroke="#999999" stroke-width="1"/>')
        out.append(f'<text x="{x}" y="{y1 + 17}" text-anchor="middle" fill="#444444">{_text(x_label)}</text>')
    out.append(
        f'<text x="{_fmt((x0 + x1) / 2)}" y="{y1 + 34}" text-anchor="middle" fill="#444444">Matches played</text>'
    )
    if not values:
        out.append(
            f'<text x="{_fmt((x0 + x1) / 2)}" y="{_fmt((y0 + y1) / 2)}" text-anchor="middle" '
            f'fill="#666666">No team value recorded yet</text>'
        )

    # One polyline per team (and its points, so a single value still shows).
    for n, (name, points) in enumerate(series.items()):
        colour = PALETTE[n % len(PALETTE)]
        dash = DASHES[(n // len(PALETTE)) % len(DASHES)]
        coords = " ".join(f"{_fmt(x_of(column[str(x)]))},{_fmt(y_of(v))}" for x, v in points)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g aria-label="{_attr(name)}">')
        out.append(f"<title>{_text(name)}</title>")
        out.append(
            f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"{dash_attr} '
            f'stroke-linejoin="round" stroke-linecap="round"/>'
        )
        for x, v in points:
            out.append(f'<circle cx="{_fmt(x_of(column[str(x)]))}" cy="{_fmt(y_of(v))}" r="2.5" fill="{colour}"/>')
        out.append("</g>")

    # The legend, in columns under the axis.
    column_width = (WIDTH - MARGIN_LEFT) / LEGEND_COLUMNS
    for n, name in enumerate(names):
        colour = PALETTE[n % len(PALETTE)]
        dash = DASHES[(n // len(PALETTE)) % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        lx = MARGIN_LEFT + (n % LEGEND_COLUMNS) * column_width
        ly = y1 + AXIS_SPACE + (n // LEGEND_COLUMNS) * LEGEND_ROW + 6
        last = series[name][-1][1] if series[name] else None
        suffix = f" — {_number(last)} {unit}" if last is not None else ""
        out.append(
            f'<line x1="{_fmt(lx)}" y1="{ly}" x2="{_fmt(lx + 22)}" y2="{ly}" stroke="{colour}" '
            f'stroke-width="3"{dash_attr}/>'
        )
        out.append(f'<text x="{_fmt(lx + 28)}" y="{ly + 4}" fill="#222222">{_text(name + suffix)}</text>')
    out.append("</svg>")
    return "\n".join(out)


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
