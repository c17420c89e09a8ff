"""`manage.py seed_benchmark` at a tiny size: the shape real use gives a league (issue 12, "The benchmark")."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db.models import Count, Min

from dugout.benchmark.seed import BIG_LEAGUE, SMALL_PREFIX
from dugout.players.career import player_career
from league.models import League
from matches.models import Aftermath, Match, MatchTeam, PlayerMatch, Roll
from matches.tally import season_tallies
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


def test_a_seeded_player_without_a_stat_line_in_a_match_he_played_has_its_row_and_his_career_counts_it(seeded):
    """Who played is the ruleset's answer (every Blitz Bowl player able to play), as when a result becomes final:
    the seeded history gives each of them a row, a stat line or not, like the matches played through the services."""
    match = Match.objects.filter(league=seeded).order_by("pk").first()  # a bulk-written one (the real ones come last)
    named = {r["player"] for r in match.result["players"]} | {t["mvp"] for t in match.result["teams"]}
    team_ids = [t["team"] for t in match.result["teams"]]
    quiet = Player.objects.filter(team_id__in=team_ids).exclude(pk__in=named).order_by("pk").first()
    assert quiet is not None
    row = PlayerMatch.objects.get(match=match, player=quiet)
    assert (row.team_id, row.touchdowns, row.spp) == (quiet.team_id, 0, 0)
    played = Match.objects.filter(league=seeded, status="final", sides__team=quiet.team_id).count()
    assert player_career(quiet)["career"]["matches"] == played
    assert season_tallies(league_id=seeded.pk, season=1)[quiet.pk]["matches"] == played


def test_every_seeded_player_has_a_row_for_each_match_his_team_played_and_the_tally_counts_them(seeded):
    for league in League.objects.filter(name__startswith="Bench "):
        tallies = season_tallies(league_id=league.pk, season=1)
        for player in Player.objects.filter(team__league=league):
            played = Match.objects.filter(league=league, status="final", sides__team=player.team_id).count()
            assert player.match_rows.count() == played
            assert tallies.get(player.pk, {"matches": 0})["matches"] == played


def test_seeding_again_reuses_the_leagues_and_reset_rebuilds_them(seeded):
    call_command("seed_benchmark", *SIZE)
    assert League.objects.filter(name=BIG_LEAGUE).count() == 1
    call_command("seed_benchmark", *SIZE, "--reset")
    assert League.objects.filter(name=BIG_LEAGUE).count() == 1
    assert Match.objects.filter(league__name=BIG_LEAGUE).count() == 20


def test_the_bare_benchmark_view_is_not_wired_outside_the_benchmark(client):
    assert client.get("/bench/bare/").status_code == 404
