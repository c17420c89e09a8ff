"""The divisions, read before the teams that name them: each `{id, name, order}`;
names unique in the league ignoring case, as the divisions' services keep them."""

from __future__ import annotations

from typing import Any

from dugout.importer.checks import bad, field, integer, text
from dugout.importer.state import ImportState
from league.models import Division
from league.models.divisions import NAME_LENGTH
from teams.divisions import MAX_DIVISIONS


def read_divisions(state: ImportState, chunk: list[tuple[str, Any]]) -> None:
    made = []
    for path, record in chunk:
        old = field(record, path, "id", integer(None))
        if old in state.divisions or any(old == o for o, _ in made):
            raise bad(f"{path}.id", "Two divisions have this id.")
        name = field(record, path, "name", text(NAME_LENGTH)).strip()
        if not name:
            raise bad(f"{path}.name", "A division has a name.")
        if name.casefold() in state.division_names:
            raise bad(f"{path}.name", "Two divisions of the league have this name.")
        state.division_names.add(name.casefold())
        made.append(
            (old, Division(league=state.league, name=name, order=field(record, path, "order", integer(0, 999), 0)))
        )
        if len(state.division_names) > MAX_DIVISIONS:
            raise bad(path, f"A league has at most {MAX_DIVISIONS} divisions.")
    Division.objects.bulk_create([d for _, d in made])
    state.divisions.update((old, d.pk) for old, d in made)
