"""The ElfBall demo league: two teams, a played match of Tests with a potion drunk, and a fixture."""

from __future__ import annotations

from dugout.management.demo.recipe import DemoLeague


def play(league, users) -> None:
    """Silk Stranglers beat Frost Maidens two Tests to one; a knocked-out Widow drinks a potion (6: cured)."""
    from matches import aftermath, services
    from teams.models import Team

    widows = Team.objects.get(league=league, name="Silk Stranglers")
    maidens = Team.objects.get(league=league, name="Frost Maidens")
    match = services.match_schedule(user=users["commissioner"], league=league, team_ids=[widows.pk, maidens.pk])
    w = list(widows.players.order_by("number").values_list("pk", flat=True))
    m = list(maidens.players.order_by("number").values_list("pk", flat=True))
    services.match_submit_result(
        user=users["coach_cid"],
        match_id=match.pk,
        body={
            "teams": [{"team": widows.pk, "score": 2}, {"team": maidens.pk, "score": 1}],
            "goals": [
                {"team": widows.pk, "on_field": w[:5]},
                {"team": maidens.pk, "on_field": m[:5]},
                {"team": widows.pk, "on_field": w[1:6]},
            ],
            "players": [{"player": m[3], "injury": "out_for_game"}, {"player": w[0], "injury": "unconscious"}],
            "potions": [{"player": w[0], "roll": 6}],
        },
    )
    services.match_confirm(user=users["coach_gil"], match_id=match.pk)
    for team, coach in ((widows, users["coach_cid"]), (maidens, users["coach_gil"])):
        for step in ("goal_points", "abilities", "injuries", "team_stats"):
            aftermath.aftermath_post(user=coach, match_id=match.pk, team_id=team.pk, step=step)
    services.match_schedule(user=users["commissioner"], league=league, team_ids=[maidens.pk, widows.pk])


DEMO = DemoLeague(
    "Demo ElfBall Campaign",
    "elfball",
    [],
    [
        (
            "coach_cid",
            "Silk Stranglers",
            "black_widows",
            [
                ("hunter", "Arachne", ""),
                ("hunter", "Weaver", ""),
                ("midfielder", "Ms. Muffet", ""),
                ("midfielder", "Anansi", ""),
                ("striker", "Shelob", ""),
                ("striker", "Charlotte", ""),
                ("striker", "Tarantella", ""),
            ],
            [("magic_potion", 2), ("cheerleader", 1)],
        ),
        (
            "coach_gil",
            "Frost Maidens",
            "valkyries",
            [
                ("hunter", "Brunhild", ""),
                ("hunter", "Sigrun", ""),
                ("ice_troll", "Hrimthurs", ""),
                ("midfielder", "Gudrun", ""),
                ("midfielder", "Svava", ""),
                ("midfielder", "Kara", ""),
            ],
            [("beer_garden_beauty", 1)],
        ),
    ],
    play=play,
)
