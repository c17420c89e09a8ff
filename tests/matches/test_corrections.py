"""The commissioner corrects a final result: effects reversed through the ledger, never by editing history."""

from matches.models import Match, PlayerMatch
from teams.models import LedgerEntry, Player
from teams.selectors import team_treasury


def schedule(api_as, user, league, home, away):
    return (
        api_as(user)
        .post("/api/v1/matches/", {"league": league.pk, "teams": [home.pk, away.pk]}, format="json")
        .json()["id"]
    )


def walk(api_as, user, match_id, team_id, steps):
    for body in steps:
        response = api_as(user).post(f"/api/v1/matches/{match_id}/aftermath/{team_id}/", body, format="json")
        assert response.status_code == 200, response.json()
        assert not response.json()["pending"], response.json()
    return response.json()


HOME_STEPS = [
    {"step": "improvements", "choices": {"improvements": {}}},
    {"step": "team_stats"},
    {
        "step": "fortune",
        "rolls": {"winnings": [4], "fan_factor": [6, 6, 6]},
        "choices": {"reroll_winnings": False, "seek_sponsor": False},
    },
    {"step": "hire_fire"},
    {"step": "prepare", "rolls": {"expensive_mistakes": [6]}},
]


def test_correcting_a_result_reverses_its_effects_and_applies_the_corrected_one(
    api_as, league, home, away, coach, other_coach, commissioner, play
):
    scorer = home.players.order_by("number").first()
    other = away.players.order_by("number").first()
    match_id = schedule(api_as, coach, league, home, away)
    treasury_before = team_treasury(team=home)
    play(
        match_id,
        {
            "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 0}],
            "players": [{"player": scorer.pk, "touchdowns": 1, "injury": "miss_next_match"}],
        },
        coach,
        other_coach,
    )
    walk(api_as, coach, match_id, home.pk, HOME_STEPS)
    assert team_treasury(team=home) == treasury_before + 5000  # 4 × 1,000 + win 1,000
    home.refresh_from_db()
    assert home.fan_factor == 1
    entries_before = LedgerEntry.objects.filter(team=home).count()

    corrected = {
        "teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 1}],
        "players": [{"player": other.pk, "touchdowns": 1}],
    }
    assert api_as(other_coach).post(f"/api/v1/matches/{match_id}/correct/", corrected, format="json").status_code == 403
    response = api_as(commissioner).post(f"/api/v1/matches/{match_id}/correct/", corrected, format="json")
    assert response.status_code == 200, response.json()

    home.refresh_from_db()
    assert team_treasury(team=home) == treasury_before, "the winnings were reversed"
    assert LedgerEntry.objects.filter(team=home).count() == entries_before + 1, "reversed by a new entry"
    assert LedgerEntry.objects.filter(team=home, kind="correction").get().amount == -5000
    assert home.fan_factor == 0
    assert Player.objects.get(pk=scorer.pk).spp == 0 and Player.objects.get(pk=scorer.pk).status == "active"
    assert Player.objects.get(pk=other.pk).spp == 3
    assert list(PlayerMatch.objects.filter(match_id=match_id).values_list("player_id", flat=True)) == [other.pk]
    match = Match.objects.get(pk=match_id)
    assert match.status == "final" and len(match.corrections) == 1
    assert match.corrections[0]["result"]["teams"][0]["score"] == 1
    assert {s["team"]: s["outcome"] for s in response.json()["sides"]} == {home.pk: "loss", away.pk: "win"}
    assert all(a["step"] == "improvements" for a in response.json()["aftermath"])


def test_only_the_latest_match_can_be_corrected(api_as, league, home, away, coach, other_coach, commissioner, play):
    body = {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}], "players": []}
    first = schedule(api_as, coach, league, home, away)
    play(first, body, coach, other_coach)
    for team in (home, away):
        walk(
            api_as,
            team.coach,
            first,
            team.pk,
            [
                {"step": "improvements", "choices": {"improvements": {}}},
                {"step": "team_stats"},
                {
                    "step": "fortune",
                    "rolls": {"winnings": [1], "fan_factor": [1, 1]},
                    "choices": {"seek_sponsor": False},
                },
                {"step": "hire_fire"},
                {"step": "prepare", "rolls": {"expensive_mistakes": [6]}},
            ],
        )
    second = schedule(api_as, coach, league, home, away)
    play(second, body, coach, other_coach)
    response = api_as(commissioner).post(f"/api/v1/matches/{first}/correct/", body, format="json")
    assert response.status_code == 400
    assert "latest match" in response.json()["detail"]


def test_stadium_deals_refused_where_the_rules_do_not_allow_them(api_as, league, home, away, coach, other_coach, play):
    """R: only an owner sells; the Stadium Fund only serves a resident team that does not own its stadium yet."""
    match_id = schedule(api_as, coach, league, home, away)
    play(
        match_id,
        {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}], "players": []},
        coach,
        other_coach,
    )
    walk(
        api_as,
        coach,
        match_id,
        home.pk,
        [
            *HOME_STEPS[:2],
            {"step": "fortune", "rolls": {"winnings": [1], "fan_factor": [1, 1]}, "choices": {"seek_sponsor": False}},
        ],
    )
    url = f"/api/v1/matches/{match_id}/aftermath/{home.pk}/"
    response = api_as(coach).post(url, {"step": "hire_fire", "choices": {"sell_stadium": True}}, format="json")
    assert response.status_code == 400 and "choices.sell_stadium" in response.json()
    response = api_as(coach).post(url, {"step": "hire_fire", "choices": {"stadium_fund_payments": 1}}, format="json")
    assert response.status_code == 400 and "choices.stadium_fund_payments" in response.json()
