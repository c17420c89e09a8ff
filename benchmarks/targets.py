"""Issue 12's targets (and issue 14's query budgets) as data, in one place: each is (figure key, comparison,
bound, what it says). A figure missing from a run (its scenario could not be measured) counts as a miss."""

from __future__ import annotations

#: (key, op, bound, label). op "<=" or ">=". Keys are the figures benchmarks/run.py records.
TARGETS: tuple[tuple[str, str, float, str], ...] = (
    ("league_page.big.rate_p95_ms", "<=", 50, "league page (10,000 matches) p95 under 50 ms"),
    ("league_page.big.bytes", "<=", 100_000, "league page under 100 KB"),
    ("standings.big.ratio", ">=", 0.50, "standings API ≥ 50 % of the bare view's throughput"),
    ("standings.big.rate_p95_ms", "<=", 20, "standings API p95 under 20 ms at 200 req/s offered"),
    ("queries.league_page.big", "<=", 8, "league page ≤ 8 queries (400 teams)"),
    ("queries.league_page.small", "<=", 8, "league page ≤ 8 queries (4 teams)"),
    ("queries.standings.big", "<=", 5, "standings API ≤ 5 queries (400 teams)"),
    ("queries.standings.small", "<=", 5, "standings API ≤ 5 queries (4 teams)"),
    ("queries.team_api", "<=", 5, "team API ≤ 5 queries"),
    ("queries.team_list_api", "<=", 5, "team list API ≤ 5 queries (400 teams)"),
    ("queries.team_sheet", "<=", 5, "team sheet ≤ 5 queries"),
    ("queries.match_report", "<=", 5, "match report ≤ 5 queries"),
    ("queries.home", "<=", 5, "home page ≤ 5 queries"),
    # Issue 14's public pages of the 400-team league: each page or list ≤ 5 queries.
    ("queries.leaders.big", "<=", 5, "leaders page ≤ 5 queries (400 teams)"),
    ("queries.leaders_api.all_time", "<=", 5, "leaders API, all time, ≤ 5 queries (400 teams)"),
    ("queries.player_page", "<=", 5, "player page ≤ 5 queries"),
    ("queries.records.big", "<=", 5, "records page ≤ 5 queries (400 teams)"),
    ("queries.ratings.big", "<=", 5, "ratings page ≤ 5 queries (400 teams)"),
    ("queries.match_card", "<=", 5, "a match's share card ≤ 5 queries"),
    ("match.total.p95_ms", "<=", 250, "a full match through the services under 250 ms (p95)"),
    ("match.confirm_sequences.p95_ms", "<=", 250, "confirm + both sequences p95 under 250 ms"),
    ("export.ttfb_s", "<=", 1.0, "export: first byte under 1 s"),
    ("export.total_s", "<=", 10.0, "export: whole document under 10 s"),
    ("export.rss_growth_mb", "<=", 50, "export: the worker grows by less than 50 MB"),
    ("reports.small_1000_s", "<=", 120, "1,000 small leagues' weekly reports under 2 minutes, one worker"),
    ("reports.big_s", "<=", 1.0, "the 400-team league's report under 1 s"),
)


def verdicts(figures: dict[str, float]) -> list[tuple[str, str, float | None, bool]]:
    """(label, bound as text, measured, met) for every target."""
    out = []
    for key, op, bound, label in TARGETS:
        value = figures.get(key)
        met = value is not None and (value <= bound if op == "<=" else value >= bound)
        out.append((label, f"{op} {bound:g}", value, met))
    return out
