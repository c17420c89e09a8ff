"""The export's divisions: each `Division` of the league in its order — id, name and
order; each team record names its division (`division`, a division's id here, or null). One query."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dugout.export.encoding import json_array
from league.models import Division

if TYPE_CHECKING:
    from dugout.export.sections import Context


def divisions_section(ctx: Context) -> Iterator[bytes]:
    """The league's divisions in their order (their tables' order on the pages)."""
    rows = Division.objects.filter(league=ctx.league).order_by("order", "name", "id").values("id", "name", "order")
    return json_array(rows, 100)
