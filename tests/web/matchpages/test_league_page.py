"""The league page's table, fixtures and results, and what it offers to whom."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import services
from tests.factories import TeamFactory, UserFactory
from tests.web.matchpages.helpers import (
    fill,
    play_standard,
    report_url,
    rows,
    schedule_url,
    table,
    text,
    walk_to,
)

pytestmark = pytest.mark.django_db


# --- the league page ----------------------------------------------------------------------------


def league_url(league) -> str:
    return reverse("league-detail", args=[league.pk])


@pytest.fixture
def orcs(league):
    team = TeamFactory(league=league, coach=UserFactory(username="carol"), name="Carol's Orcs", roster="orc")
    fill(team, "lineman", "Orc")
    return team


def test_league_page_shows_the_table_fixtures_and_results_with_links_to_the_reports(
    client, league, match, humes, goblins, orcs, commissioner
):
    play_standard(match, humes, goblins)
    for team in (humes, goblins):
        walk_to(match, team, None)
    submitted = services.match_schedule(
        user=commissioner, league=league, team_ids=[goblins.pk, humes.pk], kind="friendly"
    )
    services.match_submit_result(
        user=goblins.coach,
        match_id=submitted.pk,
        body={"teams": [{"team": goblins.pk, "score": 0}, {"team": humes.pk, "score": 0}]},
    )
    scheduled = services.match_schedule(user=orcs.coach, league=league, team_ids=[humes.pk, orcs.pk])

    page = text(client.get(league_url(league)))

    # Humes won 2–1 and inflicted a casualty; the Orcs (no match) stand above the Goblins on touchdown difference.
    assert rows(table(page, "standings")) == [
        ["1", "Alice's Humes", "1", "1", "0", "0", "2", "1", "1", "1", "3"],
        ["2", "Carol's Orcs", "0", "0", "0", "0", "0", "0", "0", "0", "0"],
        ["3", "Bob's Goblins", "1", "0", "0", "1", "1", "2", "-1", "0", "0"],
    ]
    today = submitted.created_at.strftime("%Y-%m-%d")
    assert rows(table(page, "fixtures")) == [
        ["Bob's Goblins v Alice's Humes", "Friendly", "—", "Result submitted", today],
        ["Alice's Humes v Carol's Orcs", "League", "—", "Scheduled", today],
    ]
    assert rows(table(page, "results")) == [["Alice's Humes v Bob's Goblins", "2–1", "League", "—", today]]
    for m in (match, submitted, scheduled):
        assert f'href="{report_url(m)}"' in page
    assert f'href="{reverse("team-detail", args=[humes.pk])}"' in page


def test_league_page_before_any_match_says_so(client, league, team):
    page = text(client.get(league_url(league)))

    assert "The table starts with the first confirmed result." in page
    assert "No match is scheduled." in page and "No match has been played in this league yet." in page
    assert 'id="standings"' not in page


@pytest.mark.parametrize(
    ("viewer", "offered"),
    [("anonymous", False), ("stranger", False), ("coach", True), ("commissioner", True)],
)
def test_league_page_offers_scheduling_to_the_commissioner_and_coaches_with_a_team(
    client, league, team, request, viewer, offered
):
    if viewer != "anonymous":
        client.force_login(request.getfixturevalue(viewer))

    page = text(client.get(league_url(league)))

    assert (schedule_url(league) in page) is offered


def test_league_page_queries_do_not_grow_with_the_matches(client, league, match, humes, goblins, orcs, commissioner):
    def count() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(league_url(league)).status_code == 200
        return len(captured)

    client.force_login(commissioner)
    play_standard(match, humes, goblins)
    few = count()
    for team in (humes, goblins):
        walk_to(match, team, None)
    for home, away in [(orcs, humes), (goblins, orcs)]:
        services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    second = services.match_schedule(user=commissioner, league=league, team_ids=[humes.pk, goblins.pk])
    services.match_submit_result(
        user=humes.coach,
        match_id=second.pk,
        body={"teams": [{"team": humes.pk, "score": 0}, {"team": goblins.pk, "score": 0}]},
    )
    services.match_confirm(user=goblins.coach, match_id=second.pk)

    assert count() == few
