"""One way to turn path ids into rows: every id is an integer in the database's range, or the answer is 404.

`get_object_or_404(Model, pk="abc")` raised ValueError (a 500) and, on PostgreSQL, an id past the bigint
range reached the database; the routers also only accept digits (`ID_PATTERN`), so this is the second lock
on the same door, for ids that reach a view another way.
"""

from __future__ import annotations

from django.db.models import Model, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

#: What a path id looks like in every API route (ASCII digits: `\d` would also match other scripts' digits).
ID_PATTERN = "[0-9]+"
_BIGINT_MAX = 2**63 - 1


def path_id(value) -> int:
    """A path id as an int, or Http404: not digits, or beyond any row's id."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.isascii() and value.isdigit():
        number = int(value)
    else:
        raise Http404("Not found.")
    if not 0 < number <= _BIGINT_MAX:
        raise Http404("Not found.")
    return number


def object_or_404(source: type[Model] | QuerySet, **ids):
    """`get_object_or_404` with each keyword (`pk=`, `team_id=`, …) validated by `path_id` first."""
    return get_object_or_404(source, **{name: path_id(value) for name, value in ids.items()})
