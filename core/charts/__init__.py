"""Server-drawn charts with matplotlib (Agg): SVG for pages, PNG for e-mail (`line_chart`).

matplotlib takes about two seconds to import, so nothing here imports it until a chart is drawn: web start-up and
every page without a chart pay nothing (core/charts/draw.py imports it inside its functions). The SVG is made
deterministic (a fixed `svg.hashsalt`, no date or creator metadata) and CSP-safe for inline use: matplotlib's
`style=` attributes become presentation attributes and its `<style>` element is dropped (core/charts/svg.py),
and the chart carries a <title>, a <desc> and an aria-label, and one `<g aria-label=…>` with a <title> per series.
"""

from __future__ import annotations

from core.charts.draw import line_chart

__all__ = ["line_chart"]
