"""`build_report`: the weekly report as plain data — a JSON-serialisable dict (ints, strs, bools, lists, dicts;
datetimes as ISO strings) for the week [week_start, week_end). Nothing here renders anything but the chart.

The frame (league, week, headline, the game's terms) is the same for every game; the sections after it are the
ones the league's ruleset lists, in its order (sections.py).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dugout.reports.common import iso
from dugout.reports.results import headline
from dugout.reports.sections import OMIT, SECTIONS, Parts
from dugout.reports.week import Week


def build_report(
    *, league, week_start: datetime, week_end: datetime, season: int | None = None, images: dict | None = None
) -> dict:
    """The week's report of `season` (default: the open one) as plain data: its sections count that season's
    matches only. Fixed queries whatever the league size. Given `images` (a dict), it also receives
    the e-mail's pictures: `images["chart"]`, the chart as PNG bytes, when the report has a chart."""
    w = Week(league, week_start, week_end, season)
    parts = Parts(w)
    terms, casualties = w.rules.report_terms, w.rules.report_casualties
    report: dict[str, Any] = {
        "league": {"id": league.pk, "name": league.name, "ruleset": league.ruleset, "ruleset_name": w.rules.name},
        "week_start": iso(week_start),
        "week_end": iso(week_end),
        "headline": headline(w, parts.results, parts.in_memoriam),
        "no_matches": not parts.results,
        "terms": {
            "score": terms["score"],
            "score_short": terms["score_short"],
            "casualties": casualties[2] if casualties else "",
            "value_unit": terms["value_unit"],
        },
    }
    for name in w.rules.weekly_report_sections:
        content = SECTIONS[name](parts)
        if content is not OMIT:
            report[name] = content
    if images is not None and (png := parts.chart_png()) is not None:
        images["chart"] = png
    return report
