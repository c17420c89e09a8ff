"""Query budgets of generated schedules (issue 13): publishing a round robin takes the same number of queries
for 4 teams as for 20 (the rounds, matches and sides are bulk inserts; the recent opponents one query), and the
schedule and bracket reads stay within the API's five queries at 4 and 400 teams (tests/bulk_league.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import Match
from tests.bulk_league import bulk_league
from tests.dugout.schedules.helpers import bulk_ready_teams
from tests.factories import token_for

pytestmark = pytest.mark.django_db

#: A published double round robin through the API: token authentication (2), the view's league, the
#: transaction's savepoint and its release (2), the league row locked, the commissioner's membership, the
#: existing schedule, the teams, the recent opponents, the team locks, the schedule, its rounds, its matches,
#: their sides, the league page's activity version, the creation update and the audit entry; then the coaches'
#: `round_published` notification: the teams' coaches, their settings, their push subscriptions and the
#: notifications (these coaches have no address: no e-mail delivery to insert).
PUBLISH = 22
READ = 5


@pytest.fixture(autouse=True)
def _json_feature_known():
    """SQLite's JSON support is probed with a query the first time a JSON column is read: ask first."""
    assert connection.features.supports_json_field


@pytest.mark.parametrize("teams", [4, 20])
def test_publishing_a_double_round_robin_takes_the_same_queries_for_4_and_20_teams(league, commissioner, api_as, teams):
    bulk_ready_teams(league, teams)
    client = api_as(commissioner)
    body = {"format": "round_robin", "legs": 2, "start": "2027-01-04"}
    with CaptureQueriesContext(connection) as queries:
        r = client.post(f"/api/v1/leagues/{league.pk}/schedule/", body, format="json")
    assert r.status_code == 201, r.json()
    assert Match.objects.filter(league=league).count() == teams * (teams - 1)
    assert len(statements(queries)) == PUBLISH, "\n".join(q["sql"][:150] for q in queries)
    if connection.features.max_query_params is None:  # PostgreSQL: one statement per bulk insert, as counted
        assert len(queries) == PUBLISH


def statements(queries) -> list[str]:
    """The queries Dugout asks, a bulk insert counted once: SQLite's backend splits one into batches of 999
    parameters (Django's `max_query_params` there), consecutive INSERTs into the same table."""
    asked: list[str] = []
    for query in queries:
        sql = query["sql"]
        head = sql.split("(", 1)[0] if sql.startswith("INSERT INTO") else None
        if head is not None and asked and asked[-1] == head:
            continue
        asked.append(head or sql)
    return asked


@pytest.fixture(params=[4, 400], ids=["4-teams", "400-teams"])
def big(request):
    league = bulk_league(teams=request.param, finals=12, fixtures=4)
    client_user = league.created_by
    ids = list(league.teams.order_by("pk").values_list("pk", flat=True))
    import datetime as dt

    from matches.schedules import schedule_generate

    league.teams.update(creation_closed_at=league.created_at)
    schedule_generate(
        user=client_user, league_id=league.pk, format="knockout", teams=ids[:8], start=dt.date(2027, 1, 4)
    )
    schedule_generate(user=client_user, league_id=league.pk, format="swiss", teams=ids, start=dt.date(2027, 1, 4))
    return league


@pytest.mark.parametrize("url", ["/api/v1/leagues/{}/schedule/", "/api/v1/leagues/{}/bracket/"])
def test_the_schedule_and_bracket_reads_stay_within_five_queries(big, url, api, django_assert_max_num_queries):
    with django_assert_max_num_queries(READ):
        r = api.get(url.format(big.pk))
    assert r.status_code == 200
    assert token_for  # (the reads are public: no token paid)
