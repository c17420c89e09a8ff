"""A player's matches are the matches he played, not only those he has a stat line in: a Blitz Bowl player on the
roster who scored nothing still played (every player able to play gets his per-match row when a result becomes
final; the ruleset says who played), and his career, seasons, history, season tally and page count the match."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.models import PlayerMatch
from matches.tally import season_tallies

pytestmark = pytest.mark.django_db


def quiet_player(home):
    """Home 3: on the roster for all three matches of `history`, never named in a result."""
    return home.players.get(name="Home 3")


def test_a_player_without_a_stat_line_counts_the_match_in_his_career_seasons_and_history(api, history, home, away):
    player = quiet_player(home)
    body = api.get(f"/api/v1/players/{player.pk}/").json()
    assert body["career"]["matches"] == 3
    assert body["career"]["touchdowns"] == 0 and body["career"]["spp"] == 0
    assert [(s["season"], s["matches"], s["spp"]) for s in body["seasons"]] == [(1, 2, 0), (2, 1, 0)]
    first, second, third = history["matches"]
    assert [(h["match"], h["opponent"], h["touchdowns"], h["outcome"]) for h in body["history"]] == [
        (third, away.pk, 0, "loss"),
        (second, away.pk, 0, "win"),
        (first, away.pk, 0, "win"),
    ]
    assert body["history_page"]["count"] == 3


def test_the_season_tally_and_the_player_page_count_it_too(client, league, history, home):
    player = quiet_player(home)
    assert season_tallies(league_id=league.pk, season=1)[player.pk]["matches"] == 2
    assert season_tallies(league_id=league.pk, season=2)[player.pk]["matches"] == 1
    page = client.get(reverse("player-detail", args=[player.pk])).content.decode()
    for match_id in history["matches"]:
        assert reverse("match-detail", args=[match_id]) in page


def test_every_player_able_to_play_has_a_row_and_one_missing_the_match_has_none(
    api_as, league, home, away, coach, other_coach, play
):
    """I (campaigns/rulesets/base.py `match_players`): on the roster and able to play; a player serving a
    miss-next-match did not play that match."""
    out = home.players.get(name="Home 11")
    out.status = "miss_next_match"
    out.save(update_fields=["status"])
    match_id = play(
        home, away, {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}]}, coach, other_coach
    )
    played = set(PlayerMatch.objects.filter(match_id=match_id).values_list("player_id", flat=True))
    expected = {p.pk for p in (*home.players.all(), *away.players.all())} - {out.pk}
    assert played == expected
