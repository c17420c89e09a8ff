"""Dugout's layers, lowest first: which packages may import which. A module's layer is its top-level folder;
tests/test_import_layers.py reads every module's imports and holds them to this order.

A module may import its own package and the packages below it, never one above:

- `campaigns` — the rules: pure functions per ruleset, dice injected; no framework, no database.
- `notifications` — what tells a user something: the notifications, their outbox and each user's choices; it
  names the league's, teams' and matches' models only by their labels, so every domain's services can write one.
- `league` — the league domain: leagues, seasons, members, house rules, the audit, accounts, webhooks.
- `core` — the toolkit every app's API and pages share: the API's error shape, parsers and lookups, idempotency,
  the input guard, paging, charts, template tags. It knows the league domain (a league's policy and tokens),
  nothing of teams or matches.
- `teams` — teams, players, the ledger, transfers.
- `matches` — matches, results, the post-match and pre-match sequences, schedules, disputes.
- `dugout` — the project: settings, URLs, the Celery app and tasks, and whatever composes several domains (the
  API router, the pages, the weekly reports, export and import, players and records, ratings, seasons, the queue,
  calendars, management commands, the benchmark's seeder).

A new module is placed by the folder it is written in; a new top-level package must be added here on purpose
(docs/decisions/0059-the-tree-is-the-layer-map.md).
"""

#: The project's packages, lowest layer first.
LAYERS: tuple[str, ...] = ("campaigns", "notifications", "league", "core", "teams", "matches", "dugout")


def layer_of(module: str) -> int | None:
    """The index in LAYERS of a dotted module name's top-level package (None: not a project module)."""
    top = module.partition(".")[0]
    return LAYERS.index(top) if top in LAYERS else None
