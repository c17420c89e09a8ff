"""One line chart, drawn by matplotlib's Agg backend: as inline-safe SVG text or as PNG bytes.

`series` maps a name to its points `[(x label, value), …]` in order; the x axis is the longest series' labels then
any other label in the order met, and each point sits at its label's column (so a short series still ends on the
others' last column, e.g. "now"). matplotlib is imported on the first chart only (see core/charts/__init__.py).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Mapping, Sequence

from core.charts.svg import clean

#: Line colours (colour-blind friendly first); after ten, dash patterns tell series apart.
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
DASHES = ("-", "--", ":", "-.")
WIDTH_INCHES = 6.4
DPI = 100
SALT = "dugout"


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def nice_ticks(low: float, high: float, count: int = 5) -> list[int]:
    """Round tick values (1, 2 or 5 × 10ⁿ apart) covering [low, high]."""
    low, high = math.floor(min(low, high)), math.ceil(max(low, high))
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


#: The fixed margins, in inches: above the axes (the title), right of them, and below them to the legend (the
#: x tick labels and the x label); the legend's rows below that, and the y axis's margin, are worked out per chart.
TOP_IN, RIGHT_IN, X_AXIS_IN = 0.42, 0.2, 0.5
LEGEND_ROW_IN, LEGEND_PAD_IN = 0.22, 0.1
#: Left of the y tick labels: the y label, its pad and the ticks (inches).
Y_LABEL_IN = 0.42
TITLE_FONT = {"fontsize": 12, "fontweight": "bold"}
#: Each line a long title wraps onto (inches).
TITLE_LINE_IN = 0.22


def _pyplot_free_figure(height: float):
    """A Figure not registered with pyplot (no global state, no GUI), with the Agg canvas; imported here."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    matplotlib.rcParams["svg.hashsalt"] = SALT
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays <text> (readable, searchable, small)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH_INCHES, height), dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


def preload() -> None:
    """Import the parts of matplotlib a chart uses (a worker does it once at start: dugout/celery.py)."""
    _pyplot_free_figure(1.0)
    import matplotlib.lines
    import matplotlib.ticker  # noqa: F401
    import PIL.PngImagePlugin  # noqa: F401


def _measure(fig, ax, text: str, **font) -> float:
    """How wide `text` is drawn, in inches (one text laid out, then removed)."""
    probe = ax.text(0, 0, text, **font)
    width = probe.get_window_extent(renderer=fig.canvas.get_renderer()).width / fig.dpi
    probe.remove()
    return width


def _place(fig, ax, title: str, tick_labels: Sequence[str], legend_rows: int) -> None:
    """Title the chart and put the axes in fixed margins: the left one sized to the widest y tick label, the top
    one to the title, wrapped to the width there is (the figure grows a line's height for each line it adds).

    matplotlib's constrained layout found these margins by laying every text out several times before each
    save: two thirds of a chart's time (the weekly reports draw one per league). The margins are what it
    found for these charts: the title above, the x ticks and label below, then the legend's rows at the foot."""
    import textwrap

    import matplotlib

    left_in = Y_LABEL_IN + _measure(
        fig, ax, max(tick_labels, key=len, default=""), fontsize=matplotlib.rcParams["ytick.labelsize"]
    )
    room_in = WIDTH_INCHES - left_in - RIGHT_IN
    wide_in = _measure(fig, ax, title, **TITLE_FONT) if title else 0
    if wide_in > room_in:
        title = "\n".join(textwrap.wrap(title, max(12, int(len(title) * room_in / wide_in))))
    extra_in = TITLE_LINE_IN * title.count("\n")
    height = fig.get_figheight() + extra_in
    fig.set_figheight(height)
    # y given: matplotlib skips its search for clear space above the axes (no top ticks here: always 1.0).
    ax.set_title(title, loc="left", y=1.0, **TITLE_FONT)
    legend_in = LEGEND_ROW_IN * legend_rows + LEGEND_PAD_IN if legend_rows else 0
    fig.subplots_adjust(
        left=left_in / WIDTH_INCHES,
        right=1 - RIGHT_IN / WIDTH_INCHES,
        top=1 - (TOP_IN + extra_in) / height,
        bottom=(X_AXIS_IN + legend_in) / height,
    )


#: The legend's two columns: where each starts (inches from the left), the handle's length and the gap to its
#: label (inches), the labels' size (points) and how many characters of a name fit a column.
LEGEND_COLUMNS_IN = (0.7, WIDTH_INCHES / 2 + 0.2)
HANDLE_IN, HANDLE_PAD_IN, LEGEND_FONT = 0.25, 0.11, 9
NAME_CHARS = 20


def _short(name: str) -> str:
    """A legend's name, cut to fit its column (the chart's title, desc and series labels keep the whole name)."""
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1].rstrip() + "…"


def _legend(fig, lines, rows: int) -> None:
    """The legend at the chart's foot, in two columns filled top to bottom (as matplotlib's `ncols=2` fills them):
    each line's handle (a stretch of its line with one marker) and its label, placed at fixed positions.

    matplotlib's own legend lays out every entry's box and text to find the block's size and centre it, on each
    save: a third of a report chart's drawing. The columns here are fixed instead, the labels cut to
    fit them (`_short`)."""
    from matplotlib.lines import Line2D

    inches = fig.dpi_scale_trans
    for n, line in enumerate(lines):
        column, row = divmod(n, rows)
        x = LEGEND_COLUMNS_IN[column % 2]
        y = LEGEND_PAD_IN / 2 + (rows - row - 0.5) * LEGEND_ROW_IN
        fig.add_artist(
            Line2D(
                [x, x + HANDLE_IN / 2, x + HANDLE_IN],
                [y, y, y],
                transform=inches,
                color=line.get_color(),
                linestyle=line.get_linestyle(),
                linewidth=line.get_linewidth(),
                marker=line.get_marker(),
                markersize=line.get_markersize(),
                markevery=[1],
            )
        )
        fig.text(
            x + HANDLE_IN + HANDLE_PAD_IN, y, line.get_label(), transform=inches, va="center", fontsize=LEGEND_FONT
        )


def _png(fig) -> bytes:
    """The figure drawn by Agg, as an 8-bit palette PNG.

    A chart has a few hundred colours (its lines and their anti-aliased edges): an octree palette of 256 keeps
    them to the eye, and Pillow neither filters a palette image's rows (it tries five filters on every row of a
    true-colour one) nor deflates four bytes a pixel. A third of the file, in half the encoding time."""
    from PIL import Image

    fig.canvas.draw()
    width, height = fig.canvas.get_width_height()
    picture = Image.frombuffer("RGBA", (width, height), fig.canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    palette = picture.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)
    buffer = io.BytesIO()
    palette.save(buffer, format="png", compress_level=6)
    return buffer.getvalue()


def line_chart(
    series: Mapping[str, Sequence[tuple[str, float]]],
    *,
    title: str,
    y_label: str,
    x_label: str,
    empty: str,
    desc: str,
    legend: Callable[[str, float | None], str] | None = None,
    image: str = "svg",
) -> str | bytes | tuple[str, bytes]:
    """The chart as SVG text (`image="svg"`, safe to place in a page unescaped), PNG bytes (`image="png"`), or
    both from the one figure (`image="both"`: `(svg, png)` — a report shows the SVG and mails the PNG)."""
    if image not in ("svg", "png", "both"):
        raise ValueError(f"image: svg, png or both, not {image!r}")
    from matplotlib.ticker import FixedLocator, FuncFormatter

    names = list(series)
    axis: list[str] = []
    for points in sorted(series.values(), key=len, reverse=True):
        axis += [str(label) for label, _ in points if str(label) not in axis]
    column = {label: index for index, label in enumerate(axis)}
    values = [v for points in series.values() for _, v in points]
    legend_rows = math.ceil(len(names) / 2)
    fig = _pyplot_free_figure(3.4 + LEGEND_ROW_IN * legend_rows)
    ax = fig.add_subplot()
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    ax.grid(True, axis="y", color="#e5e5e5")
    ax.set_axisbelow(True)
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)
    ticks = nice_ticks(min(values), max(values)) if values else [0, 1]
    ax.yaxis.set_major_locator(FixedLocator(ticks))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: _number(v)))
    ax.set_ylim(ticks[0], ticks[-1])
    every = max(1, math.ceil(len(axis) / 12))
    shown = list(range(0, len(axis), every))
    if axis and shown[-1] != len(axis) - 1:  # the last column ("now") always, in place of a label too close
        shown[-1:] = [shown[-1], len(axis) - 1] if len(axis) - 1 - shown[-1] >= max(2, every / 2) else [len(axis) - 1]
    ax.set_xticks(shown, [axis[i] for i in shown])
    ax.set_xlim(-0.5, max(0.5, len(axis) - 0.5))
    if not values:
        ax.text(0.5, 0.5, empty, transform=ax.transAxes, ha="center", va="center", color="#666666")
    for n, (name, points) in enumerate(series.items()):
        xs = [column[str(x)] for x, _ in points]
        ys = [v for _, v in points]
        last = points[-1][1] if points else None
        (line,) = ax.plot(
            xs,
            ys,
            color=PALETTE[n % len(PALETTE)],
            linestyle=DASHES[(n // len(PALETTE)) % len(DASHES)],
            marker="o",
            markersize=3.5,
            linewidth=2,
            label=legend(_short(name), last) if legend else _short(name),
        )
        line.set_gid(f"series-{n}")
    _place(fig, ax, title, [_number(t) for t in ticks], legend_rows if names else 0)
    if names:
        _legend(fig, ax.get_lines(), legend_rows)
    try:
        svg = png = None
        if image in ("svg", "both"):
            text = io.StringIO()
            fig.savefig(text, format="svg", metadata={"Date": None, "Creator": None})
            svg = clean(text.getvalue(), title=title, desc=desc, series=names)
        if image in ("png", "both"):
            png = _png(fig)
        return (svg, png) if image == "both" else svg if image == "svg" else png
    finally:
        fig.clear()
