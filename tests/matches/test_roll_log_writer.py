"""The roll log has one writer (matches/rolls.py `record_rolls`): the result's table dice, the pre- and
post-match steps' dice and the Challenge roller all go through it, so every row is shaped the same way."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# benchmarks/ seeds throwaway databases with synthetic rows; it is not a path the product writes rolls by.
SKIP_DIRS = {"tests", "migrations", ".venv", "node_modules", "benchmarks"}


def _writes_rolls(tree: ast.AST) -> list[int]:
    """Lines that build a `Roll(...)` or call `Roll.objects.create/bulk_create/get_or_create/update_or_create`."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        builds = isinstance(func, ast.Name) and func.id == "Roll"
        saves = (
            isinstance(func, ast.Attribute)
            and func.attr in {"create", "bulk_create", "get_or_create", "update_or_create"}
            and isinstance(func.value, ast.Attribute)
            and func.value.attr == "objects"
            and isinstance(func.value.value, ast.Name)
            and func.value.value.id == "Roll"
        )
        if builds or saves:
            lines.append(node.lineno)
    return lines


def test_only_record_rolls_writes_the_roll_log():
    writers = {}
    for path in ROOT.rglob("*.py"):
        relative = path.relative_to(ROOT)
        if SKIP_DIRS.intersection(relative.parts[:-1]):
            continue
        lines = _writes_rolls(ast.parse(path.read_text()))
        if lines:
            writers[relative.as_posix()] = lines
    assert set(writers) == {"matches/rolls.py"}, writers
