"""Imports between the packages run one way (the map is dugout/layers.py: a module's layer is its top-level
folder).

Reads every module of the project's packages with `ast` — module-level imports, imports inside
functions and under TYPE_CHECKING alike, relative imports resolved — and fails naming `module -> imported` for
each import that points at a layer above the importing module's. Strings handed to Django (urls' include(),
settings) are not imports and are not read.
"""

from __future__ import annotations

import ast
from pathlib import Path

from dugout.layers import LAYERS, layer_of

ROOT = Path(__file__).resolve().parent.parent


def _project_modules() -> dict[str, Path]:
    modules = {}
    for package in LAYERS:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


MODULES = _project_modules()


def _target(dotted: str) -> str | None:
    """The project module a dotted import name lands in (`core.api.errors.validated` → `core.api.errors`)."""
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


def test_every_top_level_package_is_a_layer():
    """A new top-level package is placed in dugout/layers.py on purpose: none of the repository's Python
    packages is left out of the map (tests, scripts and benchmarks are not imported by the service)."""
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests", "benchmarks"}
    assert packages == set(LAYERS), f"top-level packages not in dugout/layers.py: {packages - set(LAYERS)}"


def test_imports_between_layers_run_one_way():
    against = [
        f"{module}:{line} -> {imported}  ({LAYERS[layer_of(module)]} may not import {LAYERS[layer_of(imported)]})"
        for module, line, imported in _violations()
    ]
    assert not against, "imports against the layers (dugout/layers.py):\n" + "\n".join(against)


def test_the_reader_sees_function_level_and_relative_imports():
    """The checker itself: a function-level import (the weekly chart reads teams inside a function), a relative
    one (the teams API's permission classes) and a `from package import submodule` are all seen."""
    assert "teams.selectors" in {m for _line, m in imports_of("dugout.reports.chart")}
    assert "teams.permissions" in {m for _line, m in imports_of("teams.api")}
    assert "league.services" in {m for _line, m in imports_of("dugout.api.views")}


def test_the_domains_run_matches_then_teams_then_league():
    """matches → teams → league (models, services, selectors, policy), and the rules below them all; the toolkit
    between the league domain and teams, the project above everything."""
    order = [
        layer_of(m) for m in ("campaigns.engine", "league.models", "core.api.errors", "teams.models", "matches.models")
    ]
    assert order == sorted(order) and len(set(order)) == 5
    assert layer_of("dugout.urls") == len(LAYERS) - 1


RULES = LAYERS.index("campaigns")
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
