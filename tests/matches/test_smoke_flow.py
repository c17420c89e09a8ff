def test_a_match_can_be_played_and_its_aftermath_walked(api_as, league, home, away, coach, other_coach, play):
    r = api_as(coach).post("/api/v1/matches/", {"league": league.pk, "teams": [home.pk, away.pk]}, format="json")
    assert r.status_code == 201, r.json()
    mid = r.json()["id"]
    p1 = home.players.order_by("number").first()
    body = {
        "teams": [
            {"team": home.pk, "score": 1, "casualties_inflicted": 0, "mvp": p1.pk},
            {"team": away.pk, "score": 0, "casualties_inflicted": 0},
        ],
        "players": [{"player": p1.pk, "touchdowns": 1}],
    }
    final = play(mid, body, coach, other_coach)
    assert final["status"] == "final"
    a = api_as(coach)
    url = f"/api/v1/matches/{mid}/aftermath/{home.pk}/"
    r = a.post(url, {"step": "improvements", "rolls": {"improvement": [3, 4]}}, format="json")
    assert r.status_code == 200, r.json()
    print(r.json())
    r = a.post(url, {"step": "improvements", "choices": {"improvements": {str(p1.pk): ["Block"]}}}, format="json")
    print(r.json())
    r = a.post(url, {"step": "team_stats"}, format="json")
    print(r.json())
    r = a.post(
        url,
        {
            "step": "fortune",
            "rolls": {"winnings": [4], "fan_factor": [6, 6, 6]},
            "choices": {"reroll_winnings": False, "seek_sponsor": False},
        },
        format="json",
    )
    print(r.json())
    r = a.post(url, {"step": "hire_fire"}, format="json")
    r = a.post(url, {"step": "prepare", "rolls": {"expensive_mistakes": [6]}}, format="json")
    print(r.json())
    assert r.json()["complete"]
    print(api_as(None).get(f"/api/v1/leagues/{league.pk}/standings/").json())
    assert a.post(url, {"step": "prepare"}, format="json").status_code == 409


def test_a_terminix_event_schedules_three_bone_cruncher_teams(api_as, commissioner):
    from tests.factories import LeagueFactory, TeamFactory

    league = LeagueFactory(created_by=commissioner, ruleset="bonecruncher")
    teams = [TeamFactory(league=league) for _ in range(3)]
    ids = [t.pk for t in teams]
    client = api_as(commissioner)
    r = client.post("/api/v1/matches/", {"league": league.pk, "teams": ids, "event": "terminix"}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["teams"] == ids
    r = client.post("/api/v1/matches/", {"league": league.pk, "teams": ids, "event": "scorchball"}, format="json")
    assert r.status_code == 400 and "teams" in r.json()
