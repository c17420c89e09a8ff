"""`changes_write`: one UPDATE for many rows, writing on each row only the fields that changed on it."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.changes import changes_write, field_changes
from teams.models import Player
from tests.factories import TeamFactory, hire


def test_each_row_gets_its_own_changes_and_keeps_every_other_field(league):
    team = TeamFactory(league=league)
    a, b, c = (hire(team, "lineman", name=f"P{n}", number=n) for n in (1, 2, 3))
    read = {p.pk: {"spp": p.spp, "status": p.status, "attributes": p.attributes} for p in (a, b, c)}
    a.spp += 3
    b.status = Player.Status.MISS_NEXT_MATCH
    b.attributes = {**b.attributes, "MA": 9}
    # Written elsewhere meanwhile (a field nobody changed here): not overwritten with the value read.
    Player.objects.filter(pk__in=[a.pk, b.pk, c.pk]).update(value=12345)
    with CaptureQueriesContext(connection) as ctx:
        rows = changes_write(Player, {p.pk: field_changes(p, read[p.pk]) for p in (a, b, c)})
    assert rows == 2 and len(ctx.captured_queries) == 1
    got = {p.pk: p for p in Player.objects.filter(pk__in=[a.pk, b.pk, c.pk])}
    assert (got[a.pk].spp, got[a.pk].status, got[a.pk].attributes) == (a.spp, read[a.pk]["status"], a.attributes)
    assert (got[b.pk].spp, got[b.pk].status, got[b.pk].attributes["MA"]) == (read[b.pk]["spp"], "miss_next_match", 9)
    assert got[c.pk].spp == c.spp and got[c.pk].status == c.status
    assert {p.value for p in got.values()} == {12345}


def test_nothing_changed_writes_nothing(league):
    team = TeamFactory(league=league)
    player = hire(team, "lineman", name="P", number=1)
    read = {"spp": player.spp}
    with CaptureQueriesContext(connection) as ctx:
        assert changes_write(Player, {player.pk: field_changes(player, read)}) == 0
    assert ctx.captured_queries == []
