"""No module imports another module's private names (`from x import _name`): what two modules share is public
and named after what it does (issue 11: `_make_final`, `_lock_teams` were imported across matches/). Read from
the source with `ast`, over every project module outside tests/ and migrations."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {"tests", "migrations", ".venv", "node_modules", "static", "templates"}


def _project_modules() -> list[Path]:
    return sorted(
        path
        for path in ROOT.rglob("*.py")
        if not SKIP_DIRS.intersection(path.relative_to(ROOT).parts[:-1]) and not path.name.startswith(".")
    )


def _project_packages() -> set[str]:
    return {p.relative_to(ROOT).parts[0] for p in _project_modules() if len(p.relative_to(ROOT).parts) > 1}


def private_imports(source: str, packages: set[str]) -> list[str]:
    """`from x import _name` statements of `source` where x is a project module (relative, or absolute under one
    of `packages`), as `line: statement`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = node.module or ""
        if node.level == 0 and module.split(".")[0] not in packages:
            continue  # the standard library or a third-party package
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                found.append(f"{node.lineno}: from {'.' * node.level}{module} import {alias.name}")
    return found


def test_no_project_module_imports_another_modules_private_names():
    packages = _project_packages()
    offenders = []
    for path in _project_modules():
        name = path.relative_to(ROOT).as_posix()
        offenders += [f"{name}:{line}" for line in private_imports(path.read_text(), packages)]
    assert offenders == [], "make what is shared public, named after what it does:\n" + "\n".join(offenders)


def test_the_check_sees_relative_and_absolute_private_imports_of_project_modules_only():
    source = (
        "from .services import _lock_teams\n"
        "from matches.services import parse_match_result, _make_final\n"
        "from os import _exit\n"
        "from . import __version__\n"
        "from matches.services import match_confirm\n"
    )
    assert private_imports(source, {"matches"}) == [
        "1: from .services import _lock_teams",
        "2: from matches.services import _make_final",
    ]
