"""Dugout's layers, lowest first: which modules may import which (plain data; tests/test_import_layers.py reads
every project module's imports and holds them to it).

A module may import its own layer and the layers below it, never one above. The three domain apps run one way,
matches → teams → league domain → campaigns; league's toolkit (the API's error shape, lookups, parsers, auth,
idempotency…) sits between the league domain and teams because every app's API uses it; the wiring (urls, the
API router, the pages and reads that compose several domains, the export, the feeds, the weekly reports, the
Celery tasks and app, settings) sits above all three, which is why it may import any of them and none of them
may import it.

An entry `x.*` is the package `x` and everything in it; any other entry is that one module (and wins over a
package entry holding it). Every module of
league/, teams/, matches/ and campaigns/ must be placed: a new module is put where it belongs here, on
purpose (docs/decisions.md, 2026-12-01 "Imports between the domain apps run one way").
"""

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rules", ("campaigns.*",)),
    (
        "league domain",
        (
            "league.models",
            "league.divisions_models",
            "league.selectors",
            "league.services",
            "league.policy",
            "league.logins",
            "league.tokens",
            "league.checks",
            "league.cache",
            "league.versioned_admin",
            "league.apps",
            "league.layers",
            "league.audit",
            "league.joining",
            "league.invite_links",
            "league.webhooks.*",  # the hooks, their outbox, the URL guard and the delivery (no pages, no tasks)
            "league.migrations.*",
        ),
    ),
    (
        "toolkit",
        (
            "league.api",
            "league.api.auth",
            "league.api.errors",
            "league.api.fields",
            "league.api.filters",
            "league.api.lookup",
            "league.api.pagination",
            "league.api.parsers",
            "league.api.permissions",
            "league.api.schema",
            "league.idempotency",
            "league.input_guard",
            "league.templatetags.*",
            "league.charts.*",  # drawing charts (matplotlib): pure, any app's pages may use it
            "league.paging",  # a `?page=` value read as a number: pure, for any view that pages a document
            "league.csvcells",  # the one CSV writer (formula cells neutralised): pure, for every CSV answer
        ),
    ),
    ("teams", ("teams.*",)),
    ("matches", ("matches.*",)),
    (
        "wiring",
        (
            "league",  # the project package: it loads the Celery app
            "league.settings",
            "league.celery",
            "league.wsgi",
            "league.urls",
            "league.admin",
            "league.api.urls",
            "league.api.views",
            "league.api.standings",
            "league.api.serializers",
            "league.api.seasons",
            "league.api.schedules",
            "league.api.divisions",
            "league.api.webhooks",
            "league.api.desk",
            "league.api.ratings",
            "league.ratings",  # the Elo ratings read the matches and the teams
            "league.api.players",
            "league.players.*",  # issue 14: players' careers, leaders and records read matches and teams
            "league.queue",  # the commissioner's queue reads matches, transfers and requests to join
            "league.seasons",  # closing a season reads the matches' table and sequences
            "league.web.*",
            "league.export.*",
            "league.importer.*",
            "league.api.imports",
            "league.feeds",
            "league.calendar",  # the iCalendar feeds read the matches and the teams
            "league.reports",
            "league.report_chart",
            "league.reporting.*",
            "league.tasks",
            "league.webhooks.tasks",
            "league.management.*",
            "league.benchmark.*",
        ),
    ),
)

#: The packages whose modules are placed in LAYERS.
PROJECT_PACKAGES = ("campaigns", "league", "teams", "matches")


def layer_of(module: str) -> int | None:
    """The index in LAYERS of the layer a dotted module name belongs to (None: not placed). The most specific
    entry wins: the module itself, else the innermost `x.*` package holding it — so one module of a wiring
    package (say a page helper every app's pages share) can be placed lower on its own line."""
    best: tuple[int, int] | None = None  # (specificity, layer)
    for index, (_name, entries) in enumerate(LAYERS):
        for entry in entries:
            if entry == module:
                return index
            package = entry[:-2] if entry.endswith(".*") else ""
            inside = package and (module == package or module.startswith(package + "."))
            if inside and (best is None or len(package) > best[0]):
                best = (len(package), index)
    return None if best is None else best[1]
