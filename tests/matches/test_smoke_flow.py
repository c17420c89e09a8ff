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


def test_a_terminix_of_three_bone_cruncher_teams_is_played_and_walked(api_as, commissioner):
    """R: Terminix placings and eliminations; wounds apply in the post-match `wounds` step, armour first."""
    from tests.factories import LeagueFactory, TeamFactory, hire

    league = LeagueFactory(created_by=commissioner, ruleset="bonecruncher")
    teams = [TeamFactory(league=league, roster="orcs_goblins") for _ in range(3)]
    for team in teams:
        hire(team, "player", name="Captain", number=1, role="captain")
        hire(team, "player", name="Goalie", number=2, role="goalie")
        for n in range(3, 6):
            hire(team, "player", name=f"Player {n}", number=n)
    ids = [t.pk for t in teams]
    client = api_as(commissioner)
    mid = client.post("/api/v1/matches/", {"league": league.pk, "teams": ids, "event": "terminix"}, format="json")
    mid = mid.json()["id"]
    captain = teams[0].players.get(number=1)
    body = {
        "teams": [
            {"team": ids[0], "placing": 2, "eliminations": 1},
            {"team": ids[1], "placing": 1, "eliminations": 3},
            {"team": ids[2], "placing": 3, "eliminations": 0},
        ],
        "wounds": [{"player": captain.pk, "wounds": 3, "critical": [2]}],
    }
    r = api_as(teams[0].coach).post(f"/api/v1/matches/{mid}/result/", body, format="json")
    assert r.status_code == 201, r.json()
    r = api_as(teams[1].coach).post(f"/api/v1/matches/{mid}/confirm/", format="json")
    assert r.status_code == 200, r.json()
    url = f"/api/v1/matches/{mid}/aftermath/{ids[0]}/"
    coach = api_as(teams[0].coach)
    for step in ("wounds", "veterans", "team_stats"):
        r = coach.post(url, {"step": step}, format="json")
        assert r.status_code == 200, r.json()
    assert r.json()["complete"]
    sheet = api_as(None).get(f"/api/v1/teams/{ids[0]}/").json()
    row = next(p for p in sheet["players"] if p["id"] == captain.pk)
    # 3 wounds + the incapacitated leg's 2 = 5 hits: the Captain's 2 armour boxes take the first two.
    assert (row["armour_used"], row["wounds"], row["matches_survived"]) == (2, 3, 1)
    assert row["conditions"] == [{"key": "incapacitated_leg", "side": "left"}]
    standings = api_as(None).get(f"/api/v1/leagues/{league.pk}/standings/").json()["rows"]
    assert [(r["team"], r["points"]) for r in standings] == [(ids[1], 3), (ids[0], 1), (ids[2], 0)]
