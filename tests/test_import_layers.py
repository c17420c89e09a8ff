"""Imports between the domain apps run one way (issue 11 "Shape"; the map is league/layers.py).

Reads every module of league/, teams/, matches/ and campaigns/ with `ast` — module-level imports, imports inside
functions and under TYPE_CHECKING alike, relative imports resolved — and fails naming `module -> imported` for
each import that points at a layer above the importing module's. Strings handed to Django (urls' include(),
settings) are not imports and are not read.
"""

from __future__ import annotations

import ast
from pathlib import Path

from league.layers import LAYERS, PROJECT_PACKAGES, layer_of

ROOT = Path(__file__).resolve().parent.parent

#: Imports against the direction that another helper's branch removes; the lead empties this at merge (an entry
#: that no longer occurs fails below, so it cannot linger).
PENDING: dict[tuple[str, str], str] = {}


def _project_modules() -> dict[str, Path]:
    modules = {}
    for package in PROJECT_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


MODULES = _project_modules()


def _target(dotted: str) -> str | None:
    """The project module a dotted import name lands in (`league.api.errors.validated` → `league.api.errors`)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in MODULES:
            return candidate
    return None


def imported_names(module: str) -> list[tuple[int, str]]:
    """(line, dotted name) for every import statement anywhere in `module`, relative ones made absolute;
    `from x import y` gives `x.y` (y may be a submodule, as in `from league import services`, or a name)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found += [(node.lineno, f"{source}.{alias.name}") for alias in node.names]
    return found


def imports_of(module: str) -> list[tuple[int, str]]:
    """(line, imported project module) for every import of another project module anywhere in `module`."""
    found = []
    for line, name in imported_names(module):
        target = _target(name)
        if target is not None and target != module:
            found.append((line, target))
    return found


def _violations() -> list[tuple[str, int, str]]:
    out = []
    for module in MODULES:
        own = layer_of(module)
        if own is None:
            continue  # reported by the placement test
        for line, imported in imports_of(module):
            theirs = layer_of(imported)
            if theirs is not None and theirs > own:
                out.append((module, line, imported))
    return out


def test_every_project_module_has_a_layer():
    unplaced = [m for m in MODULES if layer_of(m) is None]
    assert not unplaced, f"place these modules in league/layers.py LAYERS: {unplaced}"


def test_no_entry_is_listed_twice():
    entries = [e for _name, layer in LAYERS for e in layer]
    assert len(entries) == len(set(entries))


def test_imports_between_layers_run_one_way():
    names = [name for name, _ in LAYERS]
    against = [
        f"{module}:{line} -> {imported}  ({names[layer_of(module)]} may not import {names[layer_of(imported)]})"
        for module, line, imported in _violations()
        if (module, imported) not in PENDING
    ]
    assert not against, "imports against the layers (league/layers.py):\n" + "\n".join(against)


def test_pending_exceptions_still_occur():
    """Each PENDING entry names an import another branch removes: once it is gone, drop the entry."""
    occurring = {(module, imported) for module, _line, imported in _violations()}
    stale = [f"{pair} ({who})" for pair, who in PENDING.items() if pair not in occurring]
    assert not stale, f"remove from PENDING, these imports are gone: {stale}"


def test_the_reader_sees_function_level_and_relative_imports():
    """The checker itself: a function-level import (the weekly chart reads teams inside a function), a relative
    one (the teams API's permission classes) and a `from package import submodule` are all seen."""
    assert "teams.selectors" in {m for _line, m in imports_of("league.report_chart")}
    assert "teams.permissions" in {m for _line, m in imports_of("teams.api")}
    assert "league.services" in {m for _line, m in imports_of("league.api.views")}


def test_the_domains_run_matches_then_teams_then_league():
    """Issue 11: matches → teams → league (models, services, selectors, policy), and the rules below them all."""
    order = [layer_of(m) for m in ("campaigns.engine", "league.models", "teams.models", "matches.models")]
    assert order == sorted(order) and len(set(order)) == 4
    assert layer_of("league.urls") == len(LAYERS) - 1


RULES = [name for name, _ in LAYERS].index("rules")
#: What pure rule code never touches (architecture.md "Rules are pure"): the framework, the database, the queue.
IMPURE = ("django", "rest_framework", "drf_spectacular", "celery", "redis", "psycopg", "requests")


def test_the_rules_import_no_framework_database_or_queue():
    """The rules layer is plain Python: only its Django app declaration (campaigns/apps.py) names Django."""
    impure = [
        f"{module}:{line} -> {name}"
        for module in MODULES
        if layer_of(module) == RULES and module != "campaigns.apps"
        for line, name in imported_names(module)
        if name.split(".")[0] in IMPURE
    ]
    assert not impure, "rule code imports the framework:\n" + "\n".join(impure)
