"""Writing back rows a service changed in memory: one UPDATE for many rows that writes, per row, only the
fields that changed on it — Django's `bulk_update` writes every field of every row, as one CASE arm each, and
building those arms cost more CPU than anything else in a confirmation (docs/decisions/, 2026-12-01)."""

from __future__ import annotations

from typing import Any

from django.db import connections, models
from django.db.models import Case, F, Value, When
from django.db.models.functions import Cast


def field_changes(row: models.Model, before: dict[str, Any]) -> dict[str, Any]:
    """The fields of `before` ({field: value as it was read}) whose value on `row` is not that one now."""
    return {name: getattr(row, name) for name, value in before.items() if getattr(row, name) != value}


def changes_write(model: type[models.Model], changes: dict[Any, dict[str, Any]]) -> int:
    """Write `changes` ({pk: {field: new value}}) in one UPDATE: each field a CASE over the rows it changed on,
    every other row keeping its own value. Nothing changed, no query. Returns the rows updated."""
    changes = {pk: fields for pk, fields in changes.items() if fields}
    if not changes:
        return 0
    by_field: dict[str, list[tuple[Any, Any]]] = {}
    for pk, fields in changes.items():
        for name, value in fields.items():
            by_field.setdefault(name, []).append((pk, value))
    manager = model._base_manager
    casting = connections[manager.db].features.requires_casted_case_in_updates
    updates = {}
    for name, rows in by_field.items():
        field = model._meta.get_field(name)
        case = Case(
            *[When(pk=pk, then=Value(value, output_field=field)) for pk, value in rows],
            default=F(field.attname),
            output_field=field,
        )
        updates[field.attname] = Cast(case, output_field=field) if casting else case
    return manager.filter(pk__in=list(changes)).update(**updates)
