"""Per-player match rows are the source of truth: totals are checked against them; the dead are remembered."""

from matches.audit import player_totals_audit
from matches.models import PlayerMatch
from teams.models import Player


def schedule(api_as, user, league, home, away):
    response = api_as(user).post("/api/v1/matches/", {"league": league.pk, "teams": [home.pk, away.pk]}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_spp_totals_match_the_rows_and_drift_is_reported(api_as, league, home, away, coach, other_coach, play):
    scorer = home.players.order_by("number").first()
    match_id = schedule(api_as, coach, league, home, away)
    play(
        match_id,
        {
            "teams": [{"team": home.pk, "score": 1, "mvp": scorer.pk}, {"team": away.pk, "score": 0}],
            "players": [{"player": scorer.pk, "touchdowns": 1}],
        },
        coach,
        other_coach,
    )
    assert PlayerMatch.objects.get(player=scorer).spp == 8  # H: touchdown 3 + MVP 5
    assert Player.objects.get(pk=scorer.pk).spp == 8
    assert player_totals_audit() == []
    Player.objects.filter(pk=scorer.pk).update(spp=20)
    assert player_totals_audit() == [f"player {scorer.pk}: SPP 20 but his match rows add up to 8"]


def test_injuries_come_from_the_match_rows_and_the_dead_go_to_the_memorial(
    api, api_as, league, home, away, coach, other_coach, play
):
    victim, hurt = away.players.order_by("number")[:2]
    match_id = schedule(api_as, coach, league, home, away)
    play(
        match_id,
        {
            "teams": [{"team": home.pk, "score": 0, "casualties_inflicted": 2}, {"team": away.pk, "score": 0}],
            "players": [
                {"player": victim.pk, "injury": "dead"},
                {"player": hurt.pk, "injury": "stat_loss", "stat": "av"},
            ],
        },
        coach,
        other_coach,
    )
    players = {p["id"]: p for p in api.get(f"/api/v1/teams/{away.pk}/").json()["players"]}
    assert players[hurt.pk]["injuries"] == [{"match": match_id, "injury": "stat_loss", "detail": "av"}]
    assert players[hurt.pk]["attributes"]["av"] == 7
    assert players[victim.pk]["status"] == "dead"
    memorial = api.get(f"/api/v1/leagues/{league.pk}/memorial/").json()
    assert [(m["player"], m["team"], m["died_in_match"]) for m in memorial] == [(victim.pk, away.pk, match_id)]
