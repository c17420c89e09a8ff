"""The data migration matches/0011_player_match_played: the final matches confirmed before every player who
played got his row are given the rows of the players who played without a stat line (read from each side's
snapshot of its team before the match), and their leagues' season tallies are summed again."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from matches.models import PlayerMatch
from matches.tally import season_tallies, tally_rebuild
from tests.matches.test_season_tally import summed, tallied

pytestmark = pytest.mark.django_db

backfill = importlib.import_module("matches.migrations.0011_player_match_played")

FACTS = ("match_id", "team_id", "player_id", "touchdowns", "spp", "mvp", "injury")


def test_the_backfill_gives_back_the_rows_of_players_who_played_without_a_stat_line(league, history, home):
    written = set(PlayerMatch.objects.values_list(*FACTS))
    quiet = home.players.get(name="Home 3")
    # As the service used to leave them: rows only for the players a result named, the tally summed from those.
    PlayerMatch.objects.filter(touchdowns=0, casualties=0, completions=0, interceptions=0, mvp=False).delete()
    tally_rebuild(league_id=league.pk)
    assert quiet.pk not in season_tallies(league_id=league.pk, season=1)

    backfill.played_rows(apps, None)

    assert set(PlayerMatch.objects.values_list(*FACTS)) == written
    assert season_tallies(league_id=league.pk, season=1)[quiet.pk]["matches"] == 2
    assert tallied(league) == summed(league)
    # Run again, it adds nothing.
    backfill.played_rows(apps, None)
    assert PlayerMatch.objects.count() == len(written)
