"""The team sheet with its history and charts stays within the page budget (5 queries) at 4 and 400 teams (issue
12's budget; issue 14): the history rides on the sheet's team query, and the charts are drawn once per table
version (a second view draws nothing)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import MatchTeam
from tests.bulk_league import bulk_league

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("size", [4, 400], ids=["4-teams", "400-teams"])
def test_the_sheet_with_history_and_charts_reads_in_five_queries(client, size):
    assert connection.features.supports_json_field
    league = bulk_league(teams=size)
    MatchTeam.objects.filter(match__league=league).update(
        snapshot={"team_value": 55_000, "treasury": 10_000, "fan_factor": 1}
    )
    team = MatchTeam.objects.filter(match__league=league, match__status="final").order_by("team_id").first().team
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/teams/{team.pk}/").content.decode()
    assert len(queries) <= 5, [q["sql"][:120] for q in queries]
    assert 'id="team-matches"' in page and 'id="team-chart-team_value"' in page
    drawn_again = mock.patch("core.charts.line_chart", side_effect=AssertionError("drawn again"))
    with drawn_again, CaptureQueriesContext(connection) as again:
        assert 'id="team-chart-treasury"' in client.get(f"/teams/{team.pk}/").content.decode()
    assert len(again) == len(queries)
