"""`manage.py seed_benchmark` at a tiny size: the shape real use gives a league (issue 12, "The benchmark")."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db.models import Count, Min

from dugout.benchmark.seed import BIG_LEAGUE, SMALL_PREFIX
from league.models import League
from matches.models import Aftermath, Match, MatchTeam, PlayerMatch, Roll
from teams.models import LedgerEntry, Player, Team

pytestmark = pytest.mark.django_db(transaction=False)

SIZE = ["--teams", "6", "--matches", "20", "--small-leagues", "3", "--small-matches", "2", "--real-matches", "2"]


@pytest.fixture
def seeded():
    call_command("seed_benchmark", *SIZE)
    return League.objects.get(name=BIG_LEAGUE)


def test_seeding_a_small_benchmark_gives_the_asked_counts(seeded):
    assert Team.objects.filter(league=seeded).count() == 6
    assert Match.objects.filter(league=seeded).count() == 20
    smalls = League.objects.filter(name__startswith=SMALL_PREFIX)
    assert smalls.count() == 3
    assert all(lg.teams.count() == 4 and lg.matches.count() == 2 for lg in smalls)
    # 12 or 13 players a team (the big league's 4,978 over 400 teams).
    assert set(
        Player.objects.filter(team__league=seeded).values("team").annotate(n=Count("pk")).values_list("n", flat=True)
    ) <= {12, 13}


def test_every_seeded_match_is_final_with_two_sides_and_two_walked_sequences(seeded):
    matches = Match.objects.filter(league__name__startswith="Bench ")
    assert set(matches.values_list("status", flat=True)) == {"final"}
    assert set(matches.annotate(n=Count("sides")).values_list("n", flat=True)) == {2}
    assert not Aftermath.objects.filter(match__in=matches, complete=False).exists()
    assert Aftermath.objects.filter(match__in=matches).count() == 2 * matches.count()
    assert MatchTeam.objects.filter(match__in=matches, outcome="").count() == 0
    assert PlayerMatch.objects.filter(match__in=matches).exists()
    assert Roll.objects.filter(match__in=matches, step="fortune", key="winnings").count() == 2 * matches.count()


def test_seeded_ledgers_run_in_sequence_and_never_go_below_zero(seeded):
    entries = LedgerEntry.objects.filter(team__league__name__startswith="Bench ")
    assert entries.aggregate(low=Min("balance_after"))["low"] >= 0
    for team_id in entries.values_list("team", flat=True).distinct():
        rows = list(
            entries.filter(team_id=team_id).order_by("sequence").values_list("sequence", "amount", "balance_after")
        )
        assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
        running = 0
        for _, amount, balance in rows:
            running += amount
            assert balance == running


def test_players_spp_are_the_sums_of_their_match_rows(seeded):
    for player in Player.objects.filter(team__league=seeded):
        assert player.spp == sum(player.match_rows.values_list("spp", flat=True))


def test_seeding_again_reuses_the_leagues_and_reset_rebuilds_them(seeded):
    call_command("seed_benchmark", *SIZE)
    assert League.objects.filter(name=BIG_LEAGUE).count() == 1
    call_command("seed_benchmark", *SIZE, "--reset")
    assert League.objects.filter(name=BIG_LEAGUE).count() == 1
    assert Match.objects.filter(league__name=BIG_LEAGUE).count() == 20


def test_the_bare_benchmark_view_is_not_wired_outside_the_benchmark(client):
    assert client.get("/bench/bare/").status_code == 404
