"""Dugout's project package and the league domain, kept apart by layer (league/layers.py is the map, and
tests/test_import_layers.py holds every import to it).

- The **league domain** — `models`, `services`, `selectors`, `policy`, `logins`, `tokens`, `checks`, `cache`:
  League, Membership, Stadium, house rules, invitations, accounts. It imports only the rules (`campaigns`).
- The **toolkit** every app's API and pages use — `api.errors`, `api.lookup`, `api.parsers`, `api.pagination`,
  `api.schema`, `api.filters`, `api.auth`, `api.permissions` (the league's), `idempotency`, `input_guard`,
  `templatetags`: domain-free, it imports from league only the domain and nothing of teams or matches.
- The **wiring** above the three domain apps (matches → teams → league domain) — `settings`, `celery`, `wsgi`,
  `urls`, `admin`, `api.urls` (the router), `api.views` / `api.serializers` (league-level endpoints that also
  read teams and matches), `web` (the pages), `export`, `feeds`, the weekly reports (`reports`,
  `report_content`/`reporting`, `report_chart`), `tasks`, `management`: it may import any domain; no domain
  imports it.
"""

from league.celery import app as celery_app

__all__ = ("celery_app",)
