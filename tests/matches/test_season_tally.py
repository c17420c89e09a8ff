"""Each player's season tally (matches/tally.py, docs/decisions/ "The season's tally", issue 12 "a 400-team
league's report under 1 s") is exactly the sum of his final matches' rows of that season, after a confirm, a
correction (which takes the old rows away and adds the new ones, in its transaction) and a rejection (which
leaves it as it was)."""

from __future__ import annotations

from django.db.models import Count, Sum

from matches.models import Aftermath, Match, PlayerMatch
from matches.tally import TALLIED, PlayerSeason, season_tallies, tally_rebuild
from tests.matches.test_corrections import schedule


def summed(league) -> dict[tuple[int, int], dict]:
    """The tally worked out from the rows: (player, season) → matches and the summed fields (non-zero only)."""
    rows = (
        PlayerMatch.objects.filter(match__league=league, match__status=Match.Status.FINAL)
        .order_by()
        .values("player_id", "match__season")
        .annotate(matches=Count("id"), **{name: Sum(name) for name in TALLIED})
    )
    return {(r["player_id"], r["match__season"]): {k: r[k] for k in ("matches", *TALLIED)} for r in rows}


def tallied(league) -> dict[tuple[int, int], dict]:
    rows = PlayerSeason.objects.filter(league=league, matches__gt=0).values("player_id", "season", "matches", *TALLIED)
    return {(r["player_id"], r["season"]): {k: r[k] for k in ("matches", *TALLIED)} for r in rows}


def test_the_tally_is_the_sum_of_the_rows_after_confirm_correct_and_reject_issue_12(
    api_as, league, home, away, coach, other_coach, commissioner, play
):
    scorer = home.players.order_by("number").first()
    hitter = away.players.order_by("number").first()
    first = schedule(api_as, coach, league, home, away)
    play(
        first,
        {
            "teams": [{"team": home.pk, "score": 2}, {"team": away.pk, "score": 0}],
            "players": [{"player": scorer.pk, "touchdowns": 2}, {"player": hitter.pk, "casualties": 1}],
        },
        coach,
        other_coach,
    )
    assert tallied(league) == summed(league)
    assert season_tallies(league_id=league.pk, season=1)[scorer.pk]["touchdowns"] == 2

    corrected = {
        "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 1}],
        "players": [{"player": scorer.pk, "touchdowns": 1}, {"player": hitter.pk, "touchdowns": 1}],
    }
    response = api_as(commissioner).post(f"/api/v1/matches/{first}/correct/", corrected, format="json")
    assert response.status_code == 200, response.json()
    assert tallied(league) == summed(league)
    after = season_tallies(league_id=league.pk, season=1)
    assert (after[scorer.pk]["touchdowns"], after[hitter.pk]["touchdowns"], after[hitter.pk]["casualties"]) == (1, 1, 0)

    Aftermath.objects.filter(match_id=first).update(complete=True, step_index=5)  # a result waits for them
    second = schedule(api_as, coach, league, home, away)
    body = {"teams": [{"team": home.pk, "score": 3}, {"team": away.pk, "score": 0}], "players": []}
    body["players"] = [{"player": scorer.pk, "touchdowns": 3}]
    assert api_as(coach).post(f"/api/v1/matches/{second}/result/", body, format="json").status_code == 201
    assert api_as(commissioner).post(f"/api/v1/matches/{second}/reject/").status_code == 200
    assert tallied(league) == summed(league), "a rejected result adds nothing"
    assert season_tallies(league_id=league.pk, season=1)[scorer.pk]["matches"] == 1


def test_a_rebuild_gives_the_same_tally_as_the_services_kept_issue_12(
    api_as, league, home, away, coach, other_coach, play
):
    scorer = home.players.order_by("number").first()
    for score in (1, 2):
        match_id = schedule(api_as, coach, league, home, away)
        body = {"teams": [{"team": home.pk, "score": score}, {"team": away.pk, "score": 0}]}
        play(match_id, {**body, "players": [{"player": scorer.pk, "touchdowns": score}]}, coach, other_coach)
        Aftermath.objects.filter(match_id=match_id).update(complete=True, step_index=5)
    kept = tallied(league)
    tally_rebuild(league_id=league.pk)
    assert tallied(league) == kept == summed(league)
    assert kept[(scorer.pk, 1)] == {"matches": 2, "touchdowns": 3, "casualties": 0, "goal_points": 0}
