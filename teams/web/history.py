"""The team sheet's history section: the paginated match history, W-D-L and streak, and the charts of
the series the ruleset declares (`Ruleset.team_series`), drawn on the server (core.charts) with a table
fallback. The charts are cached per the league's table version (every confirm and correction renews it)."""

from __future__ import annotations

from django.core.cache import cache
from django.utils.safestring import mark_safe

from teams.history import history_rows, page_of, record, series

CHART_FORMAT = 1
TIMEOUT = 24 * 60 * 60


def _charts(team, rows, declared) -> list[dict]:
    from core.charts import line_chart

    drawn = series(rows, [key for key, _ in declared])
    out = []
    for key, title in declared:
        points = drawn.get(key)
        if not points:
            continue
        desc = f"{team.name}: {title.lower()} before each match, from {points[0][1]:,} to {points[-1][1]:,}"
        svg = line_chart(
            {team.name: points},
            title=f"{title} before each match",
            y_label=title,
            x_label="Match",
            empty="No match yet",
            desc=desc,
        )
        out.append({"key": key, "title": title, "points": points, "svg": svg})
    return out


def history_context(team, *, page: object = 1) -> dict:
    rows = history_rows(team)
    declared = team.league.rules.team_series
    key = f"team-charts:{CHART_FORMAT}:{team.pk}:{team.league.table_version}"
    charts = cache.get(key)
    if charts is None:
        charts = _charts(team, rows, declared)
        cache.set(key, charts, TIMEOUT)
    for chart in charts:
        chart["svg"] = mark_safe(chart["svg"])  # noqa: S308 — drawn by core.charts, every text escaped
    return {"history": page_of(rows, page), "record": record(rows), "charts": charts}
