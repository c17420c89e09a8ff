"""The weekly report's team-value chart (dugout.reports.chart, drawn with matplotlib by core.charts): an SVG the
page shows without JavaScript, a PNG for the e-mail, and the season's series read from the match snapshots."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dugout.reports import build_report, sections
from dugout.reports.chart import nice_ticks, season_series, team_value_chart, team_value_charts, team_value_png
from league.models import League
from tests.dugout.reports.test_report_content import BLITZ_STEPS, ids, play, walk, week_window
from tests.factories import LeagueFactory, UserFactory
from tests.matches.conftest import full_team

SVG = "{http://www.w3.org/2000/svg}"

SERIES = {
    "Ash Apes": [("1", 55_000), ("2", 58_000), ("now", 61_000)],
    "<Evil & Co>": [("1", 60_000), ("2", 57_000), ("now", 57_000)],
    "Quote \"Q\" 'Team'": [("1", 50_000), ("now", 52_000)],
}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def series_groups(root: ET.Element) -> list[ET.Element]:
    """The chart's series: the groups labelled with a team's name (each holds that team's line)."""
    return [g for g in root.iter(f"{SVG}g") if g.get("aria-label")]


def test_the_chart_is_well_formed_svg_with_one_labelled_line_per_team():
    """Issue 14 (brief I): drawn by matplotlib now; the report's intent kept — a title, an aria-label, one line
    per team whose points sit at their labels' columns, round y ticks and a legend with each team's value now."""
    svg = team_value_chart(SERIES, title="Gil Cup: team value", unit="gil")
    root = parse(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("aria-label", "").startswith("Gil Cup: team value")
    assert root.find(f"{SVG}title").text == "Gil Cup: team value"
    assert root.find(f"{SVG}desc").text.startswith("Gil Cup: team value: Ash Apes 55,000 to 61,000 gil")
    groups = series_groups(root)
    assert [g.get("aria-label") for g in groups] == list(SERIES)
    assert [g.find(f"{SVG}title").text for g in groups] == list(SERIES)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert {"50,000", "60,000"} <= set(texts) and {"1", "2", "now"} <= set(texts)
    assert "Ash Apes — 61,000 gil" in texts and "<Evil & Co> — 57,000 gil" in texts
    assert "Team value (gil)" in texts and "Matches played" in texts


def test_the_chart_is_deterministic_and_quick_to_draw():
    """The same series draw the same bytes (fixed hash salt, no date), so a cached or stored chart is stable."""
    import time

    team_value_chart(SERIES, title="warm", unit="gil")  # the first chart pays matplotlib's import
    started = time.perf_counter()
    one = team_value_chart(SERIES, title="Same", unit="gil")
    assert time.perf_counter() - started < 2.0
    assert one == team_value_chart(SERIES, title="Same", unit="gil")
    assert "<metadata" not in one and "dc:date" not in one.lower()


def test_the_png_is_an_image_pillow_opens():
    """The e-mail's PNG (mail clients drop inline SVG): a real PNG, 640 px wide."""
    import io

    from PIL import Image

    png = team_value_png(SERIES, title="Gil Cup", unit="gil")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size[0] == 640 and 300 <= image.size[1] <= 500
    assert png == team_value_png(SERIES, title="Gil Cup", unit="gil")
    # Issue 12: an 8-bit palette image (Pillow filters no rows of it); the octree palette keeps the lines'
    # colours and the white ground to within a step or two of each channel.
    assert image.mode == "P"
    colours = [rgb for _, rgb in image.convert("RGB").getcolors(256)]
    for wanted in ((0x1F, 0x77, 0xB4), (0xD6, 0x27, 0x28), (0x2C, 0xA0, 0x2C), (0xFF, 0xFF, 0xFF)):
        assert min(max(abs(a - b) for a, b in zip(rgb, wanted, strict=True)) for rgb in colours) <= 2, wanted


def test_the_legend_has_each_line_in_two_columns_and_cuts_a_long_name_only_there():
    """The legend is placed in fixed columns (issue 12: matplotlib's legend was a third of a chart's drawing),
    filled top to bottom as before; a name too long for its column is cut in the legend alone."""
    long_name = "The Extraordinarily Long-Named Reavers of the North"
    series = {**SERIES, long_name: [("1", 40_000), ("now", 45_000)]}
    root = parse(team_value_chart(series, title="Cup", unit="gil"))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    labels = [t for t in texts if t and " — " in t]
    assert labels == [
        "Ash Apes — 61,000 gil",
        "<Evil & Co> — 57,000 gil",
        "Quote \"Q\" 'Team' — 52,000 gil",
        "The Extraordinarily… — 45,000 gil",
    ]
    assert [g.get("aria-label") for g in series_groups(root)] == list(series)  # the whole name stays
    # Two rows: the first two entries in the left column, the next two in the right one, row by row.
    placed = {t.text: t for t in root.iter(f"{SVG}text") if t.text in labels}
    xs = [float(placed[label].get("x")) for label in labels]
    ys = [float(placed[label].get("y")) for label in labels]
    assert xs[0] == xs[1] < xs[2] == xs[3]
    assert ys[0] == ys[2] < ys[1] == ys[3]


def test_the_chart_escapes_team_names_and_carries_no_script_style_or_external_asset():
    svg = team_value_chart(SERIES, title="<b>Cup</b> & co", unit="gil")
    assert "<Evil & Co>" not in svg and "&lt;Evil &amp; Co&gt;" in svg
    assert "<b>" not in svg
    root = parse(svg)  # still well formed with quotes in an attribute
    assert any(g.get("aria-label") == "Quote \"Q\" 'Team'" for g in root.iter(f"{SVG}g"))
    assert "<Evil & Co>" in [t.text for t in root.iter(f"{SVG}title")]
    lowered = svg.lower()
    for forbidden in ("<script", "javascript:", "onload", "onclick", "@import", "<style", "style=", "<image"):
        assert forbidden not in lowered, forbidden
    assert "url(" not in lowered.replace("url(#", "")  # clip paths refer to the document's own clip paths
    # The only links are matplotlib's references to its own markers in the document.
    hrefs = [v for e in root.iter() for k, v in e.attrib.items() if k.endswith("href")]
    assert hrefs and all(h.startswith("#") for h in hrefs)


def test_an_empty_or_flat_chart_still_renders():
    root = parse(team_value_chart({}, title="Nothing yet", unit="gil"))
    assert series_groups(root) == []
    assert "No team value recorded yet" in [t.text for t in root.iter(f"{SVG}text")]
    flat = parse(team_value_chart({"Solo": [("now", 55_000)]}, title="One", unit="points"))
    assert [g.get("aria-label") for g in series_groups(flat)] == ["Solo"]


def test_nice_ticks_cover_the_range_with_round_steps():
    assert nice_ticks(54_000, 61_000) == [54_000, 56_000, 58_000, 60_000, 62_000]
    assert nice_ticks(90, 105) == [90, 95, 100, 105]
    assert nice_ticks(55_000, 55_000)[0] < 55_000 < nice_ticks(55_000, 55_000)[-1]


# --- the season's series ------------------------------------------------------------------------------------------


def _league(api_as, size: int, tag: str) -> League:
    commissioner = UserFactory(username=f"commish-{tag}")
    league = LeagueFactory(created_by=commissioner, name=f"Chart {tag}", ruleset="blitzbowl")
    teams = [full_team(league, UserFactory(username=f"{tag}{n}"), f"{tag} {n}") for n in range(size)]
    for home, away in zip(teams[::2], teams[1::2], strict=True):
        h = ids(home)
        mid = play(
            api_as,
            commissioner,
            away.coach,
            league,
            [home, away],
            {
                "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 0}],
                "players": [{"player": h[1], "touchdowns": 1}],
            },
        )
        # The winner: winnings 3,000; Fan Factor 3d6 1 + 1 + 1 = 3 > 0 → FF 1 (+1,000 team value).
        walk(
            api_as,
            commissioner,
            mid,
            home,
            BLITZ_STEPS,
            fortune=({"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [3], "fan_factor": [1, 1, 1]}),
            prepare=({}, {"expensive_mistakes": [6]}),
        )
    return League.objects.get(pk=league.pk)


@pytest.mark.django_db
def test_season_series_reads_the_snapshots_and_the_value_now_in_fixed_queries(api_as):
    small, large = _league(api_as, 2, "S"), _league(api_as, 6, "L")
    counts = []
    for league in (small, large):
        with CaptureQueriesContext(connection) as queries:
            series = season_series(league)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
    # Eleven linemen (55,000) before the match; the winner gained a point of Fan Factor (+1,000).
    assert season_series(small) == {"S 0": [("1", 55_000), ("now", 56_000)], "S 1": [("1", 55_000), ("now", 55_000)]}
    assert len(series) == 6
    assert len(series_groups(parse(team_value_chart(series, title="L", unit="gil")))) == 6


@pytest.mark.django_db
def test_the_reports_chart_draws_only_the_highest_team_values_and_says_so(api_as, monkeypatch):
    """Issue 12: a 400-team league's chart of every team was 1.5 MB of SVG no one could read; the report's chart
    draws the `CHART_TEAMS` highest values now (a league that small draws every team, unchanged)."""
    league = _league(api_as, 6, "T")
    start, end = week_window()
    every = parse(build_report(league=league, week_start=start, week_end=end)["chart"])
    assert len(series_groups(every)) == 6
    assert every.find(f"{SVG}title").text == "Chart T: team value over the season"

    monkeypatch.setattr(sections, "CHART_TEAMS", 3)
    top = parse(build_report(league=league, week_start=start, week_end=end)["chart"])
    # The three winners gained a point of Fan Factor (56,000); the three losers stayed at 55,000.
    drawn = [g.get("aria-label") for g in series_groups(top)]
    assert drawn == ["T 0", "T 2", "T 4"]
    assert top.find(f"{SVG}title").text == "Chart T: team value over the season (the 3 highest of 6)"
    assert "T 0 55,000 to 56,000 gil" in top.get("aria-label") and "T 1" not in top.get("aria-label")


def test_the_chart_keeps_its_default_namespace_whatever_another_library_registered():
    """WeasyPrint (the printable PDFs, issue 14) registers ElementTree's empty prefix for its own metadata; a chart
    drawn after it is still plain `<svg …>` (browsers render no `ns0:svg`)."""
    import xml.etree.ElementTree as ET

    from dugout.reports.chart import team_value_chart

    registry = dict(ET._namespace_map)
    try:
        ET.register_namespace("", "")  # what weasyprint.pdf.metadata does at import
        svg = team_value_chart({"A": [("1", 50_000), ("2", 60_000)]}, title="Team value", unit="gil")
    finally:
        ET._namespace_map.clear()
        ET._namespace_map.update(registry)
    assert svg.startswith("<svg") and "ns0:" not in svg
    assert ET.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"  # still SVG to an XML reader


def test_both_images_from_one_drawing_are_the_svg_and_the_png_drawn_alone():
    """A report draws its chart once for the page (SVG) and the e-mail (PNG): the same SVG as drawn alone, and a
    PNG of the same size and picture as the PNG drawn alone — but for sub-pixel placement, as the layout is worked
    out once, with the SVG renderer's text metrics."""
    import io

    from PIL import Image, ImageChops, ImageOps, ImageStat

    svg, png = team_value_charts(SERIES, title="Gil Cup", unit="gil")
    assert svg == team_value_chart(SERIES, title="Gil Cup", unit="gil")
    alone = Image.open(io.BytesIO(team_value_png(SERIES, title="Gil Cup", unit="gil"))).convert("L")
    both = Image.open(io.BytesIO(png)).convert("L")
    assert both.size == alone.size
    ink = [ImageOps.invert(image).getbbox() for image in (alone, both)]  # where anything is drawn
    assert all(abs(a - b) <= 4 for a, b in zip(*ink, strict=True)), ink
    assert ImageStat.Stat(ImageChops.difference(both, alone)).mean[0] < 12


def _texts(svg: str) -> list[str]:
    import re

    return re.findall(r">([^<>]+)</text>", svg)


def test_a_long_title_wraps_and_the_figure_grows_to_hold_it():
    """With fixed margins (no constrained layout) a title wider than the chart wraps onto another line, and the
    figure is a line taller, rather than the title running off the picture."""
    import re

    series = {"Ash Apes": [("1", 100), ("now", 120)]}
    long = "Bench big league: team value over the season (the 10 highest of 400 teams in the league)"
    short_svg = team_value_chart(series, title="Short", unit="gil")
    long_svg = team_value_chart(series, title=long, unit="gil")
    height = lambda svg: float(re.search(r'<svg[^>]* height="([0-9.]+)pt"', svg).group(1))  # noqa: E731
    lines = [t for t in _texts(long_svg) if t in long and " " in t]
    assert len(lines) >= 2 and " ".join(lines) == long
    assert height(long_svg) > height(short_svg)


def test_the_last_column_is_always_labelled_and_never_crowded():
    """Every `n`th column is labelled and the last ("now") always; a label too close before it gives way."""
    series = {"Ash Apes": [(str(k), 100 + k) for k in range(1, 52)] + [("now", 170)]}
    labels = [t for t in _texts(team_value_chart(series, title="T", unit="gil")) if t.isdigit() or t == "now"]
    x_labels = labels[: labels.index("now") + 1]
    assert x_labels[0] == "1" and x_labels[-1] == "now" and "51" not in x_labels
    assert x_labels == ["1", "6", "11", "16", "21", "26", "31", "36", "41", "46", "now"]
