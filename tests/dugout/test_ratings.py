"""Elo ratings (issue 14; docs/decisions/ "Elo ratings"): teams and coaches over the league's confirmed matches in
order, K and the start rating as house rules, hand-worked numbers through the API, a correction changes them,
the page shows them with a chart, and both read in fixed queries."""

from __future__ import annotations

import pytest

from campaigns.elo import Game, expected, rate
from league.models import League, Membership
from teams.members import team_reassign
from tests.dugout.reports.test_report_content import BLITZ_STEPS, ids, play, walk
from tests.factories import LeagueFactory, UserFactory
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db


def test_expected_score_and_a_win_a_draw_worked_by_hand():
    """Ea = 1/(1+10^((Rb−Ra)/400)); equal ratings expect ½; K·(S−E) moves both sides by the same amount."""
    assert expected(1500, 1500) == 0.5
    assert round(expected(1516, 1500), 6) == 0.52301  # 1 / (1 + 10^(−16/400)) = 1 / 1.912011
    out = rate([Game(1, 10, 20, 1, 2, "win"), Game(2, 10, 30, 1, 3, "draw")], k=32, start=1500)
    assert out.teams[20] == 1484.0
    assert round(out.teams[10], 2) == 1515.26 and round(out.teams[30], 2) == 1500.74
    assert round(sum(out.teams.values()), 9) == 4500  # no rating made or lost
    assert out.coaches == {1: out.teams[10], 2: 1484.0, 3: out.teams[30]}  # one team each: the same numbers
    k16 = rate([Game(1, 10, 20, None, None, "loss")], k=16, start=1000)
    assert k16.teams == {10: 992.0, 20: 1008.0} and k16.coaches == {}


def test_a_match_between_two_teams_of_one_coach_moves_no_coach_rating():
    out = rate([Game(1, 10, 20, 7, 7, "win")], k=32, start=1500)
    assert out.teams == {10: 1516.0, 20: 1484.0} and out.coaches == {}


def _three_teams(api_as, tag: str, **overrides):
    commissioner = UserFactory(username=f"elo-commish-{tag}")
    league = LeagueFactory(created_by=commissioner, name=f"Elo {tag}", ruleset="blitzbowl", **overrides)
    a, b, c = (full_team(league, UserFactory(username=f"elo-{tag}-{n}"), f"{tag} {n}") for n in "ABC")
    return commissioner, league, a, b, c


def res(x, sx, y, sy) -> dict:
    """A result whose scores are the first players' touchdowns."""
    players = [{"player": ids(t)[1], "touchdowns": n} for t, n in ((x, sx), (y, sy)) if n]
    return {"teams": [{"team": x.pk, "score": sx}, {"team": y.pk, "score": sy}], "players": players}


def _walk(api_as, commissioner, match_id, team) -> None:
    """The team's whole Blitz Bowl sequence: no winnings re-roll, no sponsor, no expensive mistake."""
    walk(
        api_as,
        commissioner,
        match_id,
        team,
        BLITZ_STEPS,
        fortune=({"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [3], "fan_factor": [1, 1, 1]}),
        prepare=({}, {"expensive_mistakes": [6]}),
    )


def _by_team(body):
    return {row["name"]: (row["rating"], row["matches"]) for row in body["teams"]}


def test_ratings_through_the_api_worked_by_hand_and_a_correction_changes_them(api_as):
    commissioner, league, a, b, c = _three_teams(api_as, "E")
    first = play(api_as, commissioner, b.coach, league, [a, b], res(a, 1, b, 0))
    _walk(api_as, commissioner, first, a)
    second = play(api_as, commissioner, c.coach, league, [a, c], res(a, 1, c, 1))

    body = api_as(None).get(f"/api/v1/leagues/{league.pk}/ratings/").json()
    # A beat B: 1500 ± 32·½ = 1516 / 1484; A (1516) drew C (1500): Ea 0.523009, A −0.74 → 1515.3, C 1500.7.
    assert body["k"] == 32 and body["start"] == 1500
    assert _by_team(body) == {"E A": (1515.3, 2), "E C": (1500.7, 1), "E B": (1484.0, 1)}
    assert [row["name"] for row in body["teams"]] == ["E A", "E C", "E B"]
    assert [p["rating"] for p in body["teams"][0]["history"]] == [1516.0, 1515.3]
    assert {row["username"]: row["rating"] for row in body["coaches"]} == {
        "elo-E-A": 1515.3,
        "elo-E-C": 1500.7,
        "elo-E-B": 1484.0,
    }

    corrected = res(a, 0, c, 1)  # only a team's latest match can be corrected
    response = api_as(commissioner).post(f"/api/v1/matches/{second}/correct/", corrected, format="json")
    assert response.status_code == 200, response.json()
    body = api_as(None).get(f"/api/v1/leagues/{league.pk}/ratings/").json()
    # C beat A (1516) instead: Ea 0.523010, A −32·0.523010 = −16.74 → 1499.3, C 1516.7.
    assert _by_team(body) == {"E C": (1516.7, 1), "E A": (1499.3, 2), "E B": (1484.0, 1)}


def test_a_match_counts_for_the_coach_who_had_the_team_not_for_its_next_coach(api_as):
    """A team handed to another coach (`team_reassign`) keeps its rating; its past matches stay its old coach's
    (the side's snapshot keeps the coach), and only its matches after the handover count for the new one."""
    commissioner, league, a, b, c = _three_teams(api_as, "H")
    first = play(api_as, commissioner, b.coach, league, [a, b], res(a, 1, b, 0))
    carol = UserFactory(username="elo-H-carol")
    Membership.objects.create(league=league, user=carol, role=Membership.Role.COACH)
    team_reassign(user=commissioner, team_id=a.pk, coach_id=carol.pk, reason="A's coach moved away")
    _walk(api_as, commissioner, first, a)
    play(api_as, commissioner, c.coach, league, [a, c], res(a, 0, c, 1))

    body = api_as(None).get(f"/api/v1/leagues/{league.pk}/ratings/").json()
    # The team: beat B (1516), then lost to C (1500) at Ea 0.523010: −16.74 → 1499.3; C 1516.7.
    assert _by_team(body) == {"H C": (1516.7, 1), "H A": (1499.3, 2), "H B": (1484.0, 1)}
    # The coaches: the old one keeps the win (1516, one match, though he coaches no team now); Carol rated
    # 1500 lost to C's coach at 1500: 1500 − 16 = 1484.
    coaches = {row["username"]: (row["rating"], row["matches"]) for row in body["coaches"]}
    assert coaches == {
        "elo-H-A": (1516.0, 1),
        "elo-H-C": (1516.0, 1),
        "elo-H-B": (1484.0, 1),
        "elo-H-carol": (1484.0, 1),
    }
    row = next(row for row in body["teams"] if row["name"] == "H A")
    assert row["coach"] == carol.pk  # the team's coach now


def test_k_and_the_start_are_house_rules_validated_like_the_others(api_as):
    commissioner, league, a, b, _c = _three_teams(api_as, "K", house_rules_overrides={"elo_k": 16, "elo_start": 1000})
    play(
        api_as,
        commissioner,
        b.coach,
        league,
        [a, b],
        res(a, 1, b, 0),
    )
    body = api_as(None).get(f"/api/v1/leagues/{league.pk}/ratings/").json()
    assert (body["k"], body["start"]) == (16, 1000)
    assert _by_team(body) == {"K A": (1008.0, 1), "K B": (992.0, 1), "K C": (1000.0, 0)}
    for bad, field in (({"elo_k": "32"}, "elo_k"), ({"elo_start": -5}, "elo_start")):
        response = api_as(commissioner).patch(f"/api/v1/leagues/{league.pk}/", {"house_rules": bad}, format="json")
        assert response.status_code == 400 and field in str(response.json())
    assert League.objects.get(pk=league.pk).house_rules["elo_k"] == 16


def test_an_unknown_league_is_a_404():
    assert api_client().get("/api/v1/leagues/999999/ratings/").status_code == 404


def api_client():
    from rest_framework.test import APIClient

    return APIClient()


def test_the_page_shows_both_tables_and_a_chart_readable_without_javascript(api_as, client):
    commissioner, league, a, b, _c = _three_teams(api_as, "P")
    play(
        api_as,
        commissioner,
        b.coach,
        league,
        [a, b],
        res(a, 1, b, 0),
    )
    page = client.get(f"/leagues/{league.pk}/ratings/").content.decode()
    assert 'id="ratings-teams"' in page and 'id="ratings-coaches"' in page
    assert "1516.0" in page and "1484.0" in page and "elo-P-A" in page
    assert "<svg" in page and "<title>Elo P: Elo rating after each match</title>" in page
    assert 'aria-label="P A"' in page and "style=" not in page.split("<svg", 1)[1].split("</svg>", 1)[0]


def test_the_leagues_document_lists_each_teams_latest_ratings_and_the_team_its_whole_history_paged():
    """Issue 12's rule for issue 14's ratings: the league's document grows with its teams, not its matches; a
    team's whole history is its own, 50 a page (an unknown page is the nearest one)."""
    from matches.models import MatchTeam
    from teams.models import Team
    from tests.bulk_league import bulk_league

    league = bulk_league(teams=3, finals=90, fixtures=0, prefix="hist")
    api = api_client()
    body = api.get(f"/api/v1/leagues/{league.pk}/ratings/").json()
    team = Team.objects.filter(league=league).order_by("pk").first()
    played = MatchTeam.objects.filter(team=team, match__status="final").count()
    assert 50 < played <= 90
    row = next(r for r in body["teams"] if r["team"] == team.pk)
    assert row["matches"] == played and row["history_count"] == played and len(row["history"]) == 20

    url = f"/api/v1/leagues/{league.pk}/ratings/teams/{team.pk}/"
    first, second = api.get(url).json(), api.get(url + "?page=2").json()
    assert first["history_page"] == {"page": 1, "pages": 2, "count": played} and len(first["history"]) == 50
    assert second["history_page"]["page"] == 2 and len(second["history"]) == played - 50
    whole = first["history"] + second["history"]
    assert whole[-20:] == row["history"] and whole[-1]["rating"] == row["rating"]
    mine = MatchTeam.objects.filter(team=team).order_by("match__confirmed_at", "match_id")
    assert [p["match"] for p in whole] == list(mine.values_list("match_id", flat=True))  # oldest first
    for odd in ("99", "²", "9" * 5000, "-1", "x"):
        response = api.get(url, {"page": odd})
        assert response.status_code == 200, odd
        assert response.json()["history_page"]["page"] == (2 if odd == "99" else 1), odd
    other = bulk_league(teams=2, finals=0, fixtures=0, prefix="other")
    stranger = Team.objects.filter(league=other).first()
    assert api.get(f"/api/v1/leagues/{league.pk}/ratings/teams/{stranger.pk}/").status_code == 404
    assert api.get(f"/api/v1/leagues/999999/ratings/teams/{team.pk}/").status_code == 404


def test_the_chart_draws_each_top_teams_latest_ratings_ending_together(client):
    """The page's chart: the top teams' last 20 ratings, each line ending at the same "latest" column."""
    from tests.bulk_league import bulk_league

    league = bulk_league(teams=3, finals=45, fixtures=0, prefix="chart")
    page = client.get(f"/leagues/{league.pk}/ratings/").content.decode()
    svg = page.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert "Matches before the latest" in svg and ">latest<" in svg and ">−19<" in svg and ">−20<" not in svg


def test_the_summary_is_rebuilt_from_the_cached_full_document_without_a_query(django_assert_num_queries):
    """Both forms are cached together; a summary evicted alone is made again from the full one, not recomputed."""
    from django.core.cache import cache

    from dugout.ratings import _documents, league_ratings
    from tests.bulk_league import bulk_league

    league = League.objects.get(pk=bulk_league(teams=3, finals=30, fixtures=0, prefix="evict").pk)
    cache.clear()
    first = league_ratings(league)
    cache.delete(_documents(league)[0])
    with django_assert_num_queries(0):
        assert league_ratings(league) == first
    assert cache.get(_documents(league)[0]) == first
