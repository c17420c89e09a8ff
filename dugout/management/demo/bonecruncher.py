"""The Bone Cruncher demo league: two squads, a Scorchball played with wounds and trainers, and a Terminix
fixture."""

from __future__ import annotations

from dugout.management.demo.recipe import DemoLeague


def play(league, users) -> None:
    """Iron Legion 3–2 Green Tide at Scorchball: a few wounds, a crippled leg, trainers at work."""
    from matches import aftermath, services
    from teams.models import Team

    legion = Team.objects.get(league=league, name="Iron Legion")
    tide = Team.objects.get(league=league, name="Green Tide")
    match = services.match_schedule(
        user=users["commissioner"], league=league, team_ids=[legion.pk, tide.pk], event="scorchball"
    )
    legion_squad = list(legion.players.order_by("number").values_list("pk", flat=True)[:8])
    tide_squad = list(tide.players.order_by("number").values_list("pk", flat=True)[:8])
    services.match_submit_result(
        user=users["coach_cid"],
        match_id=match.pk,
        body={
            "teams": [
                {"team": legion.pk, "score": 3, "squad": legion_squad},
                {"team": tide.pk, "score": 2, "squad": tide_squad},
            ],
            "wounds": [
                {"player": legion_squad[0], "wounds": 3},
                {"player": legion_squad[4], "wounds": 2, "critical": [2]},
                {"player": tide_squad[2], "wounds": 4},
            ],
        },
    )
    services.match_confirm(user=users["coach_gil"], match_id=match.pk)
    heals = {legion.pk: [{"player": legion_squad[4], "boxes": 3}], tide.pk: [{"player": tide_squad[2], "boxes": 3}]}
    for team, coach in ((legion, users["coach_cid"]), (tide, users["coach_gil"])):
        for step, choices in (
            ("wounds", {"heal": heals[team.pk]}),
            ("veterans", {"promote": []}),
            ("team_stats", {}),
        ):
            aftermath.aftermath_post(user=coach, match_id=match.pk, team_id=team.pk, step=step, choices=choices)
    services.match_schedule(user=users["commissioner"], league=league, team_ids=[tide.pk, legion.pk], event="terminix")


DEMO = DemoLeague(
    "Demo Bone Cruncher Circuit",
    "bonecruncher",
    [],
    [
        (
            "coach_cid",
            "Iron Legion",
            "humans_barbarians",
            [("player", "Conan", "captain"), ("player", "Gatekeeper", "goalie")]
            + [("player", f"Legionary {n}", "") for n in range(1, 11)],
            [("trainer", 2), ("coach", 1), ("cheerleader", 1)],
        ),
        (
            "coach_gil",
            "Green Tide",
            "orcs_goblins",
            [("player", "Gorbag", "captain"), ("player", "Snaga", "goalie")]
            + [("player", f"Boy {n}", "") for n in range(1, 11)],
            [("trainer", 1)],
        ),
    ],
    play=play,
)
