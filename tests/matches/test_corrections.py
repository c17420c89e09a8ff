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
    # Every player still has the row of the match he played; only the corrected line says anything.
    rows = list(PlayerMatch.objects.filter(match_id=match_id))
    assert len(rows) == 22 and [r.player_id for r in rows if r.touchdowns or r.spp or r.injury] == [other.pk]
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


def test_correcting_an_elfball_result_gives_back_goal_points_potions_and_attributes(api_as, commissioner):
    """A correction undoes a campaign's steps too: Goal Points (a counter), the potion drunk (support stock),
    a lasting injury (attributes) and its note on the row; the corrected result then applies alone."""
    from tests.factories import LeagueFactory, TeamFactory, hire

    league = LeagueFactory(created_by=commissioner, ruleset="elfball")
    widows = TeamFactory(league=league, roster="black_widows")
    dogs = TeamFactory(league=league, roster="black_widows")
    for team in (widows, dogs):
        for n, position in enumerate(["midfielder"] * 4 + ["striker"] * 2, start=1):
            hire(team, position, name=f"{team.name} {n}", number=n)
    api_as(widows.coach).post(f"/api/v1/teams/{widows.pk}/purchases/", {"item": "magic_potion", "quantity": 1})
    w = list(widows.players.order_by("number"))
    mid = (
        api_as(commissioner)
        .post("/api/v1/matches/", {"league": league.pk, "teams": [widows.pk, dogs.pk]}, format="json")
        .json()["id"]
    )
    body = {
        "teams": [{"team": widows.pk, "score": 2}, {"team": dogs.pk, "score": 0}],
        "goals": [{"team": widows.pk, "on_field": [w[0].pk, w[1].pk]}] * 2,
        # Midfielders are 5 3 3 3 3 3: Jog is the one highest attribute; the seizure (potion 2) lowers it.
        "potions": [{"player": w[2].pk, "roll": 2}],
    }
    assert api_as(widows.coach).post(f"/api/v1/matches/{mid}/result/", body, format="json").status_code == 201
    assert api_as(dogs.coach).post(f"/api/v1/matches/{mid}/confirm/").status_code == 200
    for step in ("goal_points", "abilities", "injuries", "team_stats"):
        r = api_as(widows.coach).post(f"/api/v1/matches/{mid}/aftermath/{widows.pk}/", {"step": step}, format="json")
        assert r.status_code == 200 and not r.json()["pending"], r.json()
    w[0].refresh_from_db()
    w[2].refresh_from_db()
    widows.refresh_from_db()
    assert (w[0].goal_points, w[2].attributes["jog"], widows.staff["magic_potion"]) == (2, 4, 0)

    corrected = {
        "teams": [{"team": widows.pk, "score": 2}, {"team": dogs.pk, "score": 0}],
        "goals": [{"team": widows.pk, "on_field": [w[1].pk]}] * 2,
    }
    r = api_as(commissioner).post(f"/api/v1/matches/{mid}/correct/", corrected, format="json")
    assert r.status_code == 200, r.json()
    for player in (w[0], w[1], w[2]):
        player.refresh_from_db()
    widows.refresh_from_db()
    assert (w[0].goal_points, w[1].goal_points) == (0, 2)
    assert (w[2].attributes["jog"], widows.staff["magic_potion"]) == (5, 1)
    # He still played the match, but his row no longer holds the potion (nor any Goal Point).
    row = PlayerMatch.objects.get(match_id=mid, player=w[2])
    assert (row.goal_points, row.detail["potion"], row.detail["potions"]) == (0, None, [])


def test_correcting_a_bone_cruncher_result_heals_the_wounds_it_gave(api_as, commissioner):
    """A correction puts wounds, armour, conditions and matches survived back as they stood before."""
    from tests.factories import LeagueFactory, TeamFactory, hire

    league = LeagueFactory(created_by=commissioner, ruleset="bonecruncher")
    teams = [TeamFactory(league=league, roster="dwarves") for _ in range(2)]
    for team in teams:
        for n, role in enumerate(("captain", "goalie", "", ""), start=1):
            hire(team, "player", name=f"{team.name} {n}", number=n, role=role)
    squads = [list(t.players.order_by("number").values_list("pk", flat=True)) for t in teams]
    mid = (
        api_as(commissioner)
        .post("/api/v1/matches/", {"league": league.pk, "teams": [t.pk for t in teams], "event": "scorchball"})
        .json()["id"]
    )
    victim = squads[0][3]
    body = {
        "teams": [
            {"team": teams[0].pk, "score": 1, "squad": squads[0]},
            {"team": teams[1].pk, "score": 2, "squad": squads[1]},
        ],
        "wounds": [{"player": victim, "wounds": 10, "critical": [6]}],  # no armour: the 10th wound kills him
    }
    assert api_as(teams[0].coach).post(f"/api/v1/matches/{mid}/result/", body, format="json").status_code == 201
    assert api_as(teams[1].coach).post(f"/api/v1/matches/{mid}/confirm/").status_code == 200
    for step in ("wounds", "veterans", "team_stats"):
        url = f"/api/v1/matches/{mid}/aftermath/{teams[0].pk}/"
        assert api_as(teams[0].coach).post(url, {"step": step}, format="json").status_code == 200
    dead = Player.objects.get(pk=victim)
    assert (dead.status, dead.wounds, dead.left_at is not None) == ("dead", 10, True)

    body["wounds"] = [{"player": victim, "wounds": 1}]
    r = api_as(commissioner).post(f"/api/v1/matches/{mid}/correct/", body, format="json")
    assert r.status_code == 200, r.json()
    alive = Player.objects.get(pk=victim)
    assert (alive.status, alive.wounds, alive.conditions, alive.matches_survived, alive.left_at) == (
        "active",
        0,
        [],
        0,
        None,
    )
