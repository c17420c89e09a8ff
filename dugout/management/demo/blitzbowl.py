"""The Blitz Bowl demo league: two teams, two stadiums, a played match with its whole post-match sequence
and a fixture at its inducements."""

from __future__ import annotations

from dugout.management.demo.recipe import DemoLeague

# The played match's post-match steps, every die fixed.
DEMO_STEPS = [
    {"step": "improvements", "choices": {"improvements": {}}},
    {"step": "team_stats"},
    {
        "step": "fortune",
        "rolls": {"winnings": [4], "fan_factor": [5, 4, 3], "residency": [6]},
        "choices": {"reroll_winnings": False, "residency": "reject", "seek_sponsor": False},
    },
    {"step": "hire_fire"},
    {"step": "prepare", "rolls": {"expensive_mistakes": [5]}},
]


def play(league, users) -> None:
    """Midgar Marauders 2–1 Gaia Goblins at Midgar Dome, both post-match sequences walked; the return fixture is
    at its inducements."""
    from matches import aftermath, services
    from teams.models import Team

    marauders, goblins = Team.objects.filter(league=league).order_by("name").reverse()
    stadium = league.stadiums.get(name="Midgar Dome")
    match = services.match_schedule(
        user=users["commissioner"], league=league, team_ids=[marauders.pk, goblins.pk], stadium_id=stadium.pk
    )
    cloud, zack = marauders.players.order_by("number")[:2]
    gob = goblins.players.order_by("number").first()
    services.match_submit_result(
        user=users["coach_cid"],
        match_id=match.pk,
        body={
            "teams": [
                {"team": marauders.pk, "score": 2, "casualties_inflicted": 1, "mvp": cloud.pk},
                {"team": goblins.pk, "score": 1, "casualties_inflicted": 0, "mvp": gob.pk},
            ],
            "players": [
                {"player": cloud.pk, "touchdowns": 1, "completions": 1},
                {"player": zack.pk, "touchdowns": 1, "casualties": 1},
                {"player": gob.pk, "touchdowns": 1},
            ],
        },
    )
    services.match_confirm(user=users["coach_gil"], match_id=match.pk)
    for team, coach in ((marauders, users["coach_cid"]), (goblins, users["coach_gil"])):
        mvp = cloud if team is marauders else gob
        for step in DEMO_STEPS:
            body = dict(step)
            if step["step"] == "improvements":  # the MVPs reach 6 SPP: a normal skill each
                skill = "Sure Hands" if team is marauders else "Sure Feet"
                body = {
                    "step": "improvements",
                    "rolls": {"improvement": [2, 3]},
                    "choices": {"improvements": {str(mvp.pk): [skill]}},
                }
            if step["step"] == "fortune" and team is goblins:
                body = {
                    "step": "fortune",
                    "rolls": {"winnings": [3], "fan_factor": [1, 2], "residency": [2]},
                    "choices": {"residency": "reject", "seek_sponsor": False},
                }
            aftermath.aftermath_post(
                user=coach,
                match_id=match.pk,
                team_id=team.pk,
                step=body["step"],
                choices=body.get("choices"),
                rolls=body.get("rolls"),
            )
    fixture = services.match_schedule(user=users["commissioner"], league=league, team_ids=[goblins.pk, marauders.pk])
    # The fixture's pre-match sequence is under way: the weather and the fans are in, shopping is open.
    from matches import prematch

    commissioner = users["commissioner"]
    prematch.prematch_post(user=commissioner, match_id=fixture.pk, step="weather", rolls={"weather": [4, 5]})
    fans = {str(goblins.pk): [3, 2], str(marauders.pk): [5, 4]}
    prematch.prematch_post(user=commissioner, match_id=fixture.pk, step="fans", rolls={"fans": fans})


DEMO = DemoLeague(
    "Demo Gil Cup",
    "blitzbowl",
    [("Midgar Dome", "Mako lights"), ("Zanarkand Arena", "")],
    [
        (
            "coach_cid",
            "Midgar Marauders",
            "hume",
            [("blitzer", "Cloud", ""), ("blitzer", "Zack", ""), ("thrower", "Aeris", ""), ("catcher", "Tifa", "")]
            + [("lineman", f"Guard {n}", "") for n in range(1, 8)],
            [("reroll", 2), ("fan_factor", 2), ("assistant_coach", 1), ("white_mage", 1)],
        ),
        (
            "coach_gil",
            "Gaia Goblins",
            "goblin",
            [("goblin", f"Gob {n}", "") for n in range(1, 10)] + [("troll", "Big Grunk", ""), ("pogoer", "Boing", "")],
            [("reroll", 3), ("cheerleader", 2)],
        ),
    ],
    play=play,
)
