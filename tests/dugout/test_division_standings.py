"""The divisions' tables (issue 13, "Divisions"; decision: docs/decisions/ "Divisions"): each division's teams
ranked by the league's own tie-breakers, cached and invalidated with the league's table version; the API's
`?division=ID` and the league and table pages show them."""

from __future__ import annotations

import pytest

from league.models import Division, League, league_table_changed
from matches.models import Match, MatchTeam
from teams.models import Team
from tests.dugout.schedules.helpers import ready_teams

pytestmark = pytest.mark.django_db

URL = "/api/v1/leagues/{}/standings/"


def final(league, home: int, away: int, score: tuple[int, int]) -> None:
    """A final result as the confirmation leaves it (R, blitzbowl.md "League": win 3, draw 1, loss 0)."""
    match = Match.objects.create(league=league, created_by=league.created_by, status=Match.Status.FINAL)
    points = {1: (3, 0), 0: (1, 1), -1: (0, 3)}[(score[0] > score[1]) - (score[0] < score[1])]
    outcome = {3: "win", 1: "draw", 0: "loss"}
    MatchTeam.objects.bulk_create(
        [
            MatchTeam(match=match, team_id=t, order=i, score=s, outcome=outcome[p], league_points=p)
            for i, (t, s, p) in enumerate(zip((home, away), score, points, strict=True))
        ]
    )
    league_table_changed(league.pk)


@pytest.fixture
def split(league):
    """North: A, B; South: C, D. A beats B 2-0 and C 2-0 (across divisions), C and D draw 1-1."""
    a, b, c, d = ready_teams(league, 4)
    north = Division.objects.create(league=league, name="North", order=0)
    south = Division.objects.create(league=league, name="South", order=1)
    Team.objects.filter(pk__in=[a, b]).update(division=north)
    Team.objects.filter(pk__in=[c, d]).update(division=south)
    final(league, a, b, (2, 0))
    final(league, c, d, (1, 1))
    final(league, a, c, (2, 0))
    return {"a": a, "b": b, "c": c, "d": d, "north": north.pk, "south": south.pk}


def test_issue13_divisions_a_divisions_table_holds_only_its_teams_ranked_by_the_league_tie_breakers(league, split, api):
    north = api.get(URL.format(league.pk), {"division": split["north"]}).json()
    assert north["division"] == split["north"] and north["name"] == "North"
    assert [(r["team"], r["position"], r["points"], r["played"]) for r in north["rows"]] == [
        (split["a"], 1, 6, 2),
        (split["b"], 2, 0, 1),
    ]
    south = api.get(URL.format(league.pk), {"division": split["south"]}).json()
    # C and D level on 1 point: D's touchdown difference 0 beats C's -2 (C lost 0-2 to A across divisions).
    assert [(r["team"], r["position"], r["points"]) for r in south["rows"]] == [(split["d"], 1, 1), (split["c"], 2, 1)]


def test_issue13_divisions_a_divisions_table_is_cached_by_the_table_version_and_answers_304(league, split, api):
    first = api.get(URL.format(league.pk), {"division": split["north"]})
    etag = first["ETag"]
    assert etag != api.get(URL.format(league.pk))["ETag"]  # not the league's table's tag
    again = api.get(URL.format(league.pk), {"division": split["north"]}, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    Team.objects.filter(pk=split["c"]).update(division=split["north"])
    league_table_changed(league.pk)  # what the division services (and every result) do
    moved = api.get(URL.format(league.pk), {"division": split["north"]}, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert [r["team"] for r in moved.json()["rows"]] == [split["a"], split["c"], split["b"]]


def test_issue13_divisions_assigning_through_the_service_renews_the_divisions_table(league, split, commissioner, api):
    from teams.divisions import division_assign

    etag = api.get(URL.format(league.pk), {"division": split["south"]})["ETag"]
    division_assign(user=commissioner, league_id=league.pk, division_id=split["south"], team_ids=[split["b"]])
    answer = api.get(URL.format(league.pk), {"division": split["south"]}, HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 200
    assert [r["team"] for r in answer.json()["rows"]] == [split["d"], split["c"], split["b"]]


def test_issue13_divisions_an_unknown_or_foreign_division_is_404_and_a_bad_one_400(league, split, commissioner, api):
    other = League.objects.create(name="Other", ruleset="blitzbowl", created_by=commissioner)
    theirs = Division.objects.create(league=other, name="North")
    assert api.get(URL.format(league.pk), {"division": theirs.pk}).status_code == 404
    assert api.get(URL.format(league.pk), {"division": 99999999}).status_code == 404
    assert api.get(URL.format(league.pk), {"division": "abc"}).status_code == 400
    assert api.get(URL.format(league.pk), {"division": 0}).status_code == 400


def test_issue13_divisions_the_league_and_table_pages_show_one_table_per_division(league, split, client):
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert f'id="standings-division-{split["north"]}"' in page and f'id="standings-division-{split["south"]}"' in page
    assert page.index("North") < page.index("South")
    table = client.get(f"/leagues/{league.pk}/table/").content.decode()
    assert table.count('<h2 class="division-name">') == 2
    north_at = table.index(f'id="standings-division-{split["north"]}"')
    south_at = table.index(f'id="standings-division-{split["south"]}"')
    assert table.index(f'href="/teams/{split["a"]}/"') < south_at < table.index(f'href="/teams/{split["d"]}/"')
    assert north_at < south_at


def test_issue13_divisions_teams_in_no_division_get_their_table_last(league, split, client):
    (late,) = ready_teams(league, 1, prefix="Late")
    league_table_changed(league.pk)
    table = client.get(f"/leagues/{league.pk}/table/").content.decode()
    assert 'id="standings-no-division"' in table
    assert table.index(f'id="standings-division-{split["south"]}"') < table.index(f'href="/teams/{late}/"')
