"""A demo league for each ruleset, with logins, so a newcomer has something to browse at once."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from league import services as league_services
from league.models import League, Membership
from teams import services as team_services

DEMO_PASSWORD = "dugout-demo"

# (league name, ruleset, stadiums, [(coach, team name, roster, [(position, name, role) …], purchases)])
DEMO = [
    (
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
                [("goblin", f"Gob {n}", "") for n in range(1, 10)]
                + [("troll", "Big Grunk", ""), ("pogoer", "Boing", "")],
                [("reroll", 3), ("cheerleader", 2)],
            ),
        ],
    ),
    (
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
    ),
    (
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
    ),
]


# The demo's played match: Midgar Marauders 2–1 Gaia Goblins at Midgar Dome, every die fixed.
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


class Command(BaseCommand):
    help = "Create the demo leagues and logins (idempotent: an existing demo is left as it is)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--queue-reports",
            action="store_true",
            help="Queue each demo league's weekly report now (make run does, so the worker writes them at once).",
        )

    def handle(self, *args, **options):
        User = get_user_model()
        users = {}
        for username in ("commissioner", "coach_cid", "coach_gil"):
            user, created = User.objects.get_or_create(username=username, defaults={"email": f"{username}@example.com"})
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[username] = user
        if not User.objects.filter(username="admin").exists():
            User.objects.create_superuser("admin", "admin@example.com", DEMO_PASSWORD)

        for name, ruleset, stadiums, teams in DEMO:
            if League.objects.filter(name=name).exists():
                continue
            with transaction.atomic():
                league = league_services.league_create(user=users["commissioner"], name=name, ruleset=ruleset)
                for stadium, attribute in stadiums:
                    league_services.stadium_create(
                        user=users["commissioner"], league=league, name=stadium, special_attribute=attribute
                    )
                for coach, team_name, roster, players, purchases in teams:
                    Membership.objects.get_or_create(league=league, user=users[coach], role=Membership.Role.COACH)
                    team = team_services.team_create(
                        user=users[coach], league=league, name=team_name, roster_key=roster
                    )
                    for number, (position, player_name, role) in enumerate(players, start=1):
                        team_services.team_hire_player(
                            team_id=team.pk,
                            user=users[coach],
                            position=position,
                            name=player_name,
                            number=number,
                            role=role,
                        )
                    for item, quantity in purchases:
                        team_services.team_purchase(team_id=team.pk, user=users[coach], item=item, quantity=quantity)
                if ruleset == "blitzbowl":
                    self._play_demo_match(league, users)
                elif ruleset == "elfball":
                    self._play_demo_tests(league, users)
                elif ruleset == "bonecruncher":
                    self._play_demo_scorchball(league, users)
            self.stdout.write(f"Created {name} ({ruleset}).")

        if options["queue_reports"]:
            self._queue_reports()
        self.stdout.write(
            self.style.SUCCESS(
                "\nDugout demo is ready (`make run` prints its address once the server answers):\n"
                f"  commissioner / {DEMO_PASSWORD}   (runs the three demo leagues)\n"
                f"  coach_cid    / {DEMO_PASSWORD}   (a team in each league)\n"
                f"  coach_gil    / {DEMO_PASSWORD}   (a team in each league)\n"
                f"  admin        / {DEMO_PASSWORD}   (Django admin at /admin/)\n"
                "  API docs at /api/docs/\n"
            )
        )

    def _play_demo_match(self, league, users) -> None:
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
        fixture = services.match_schedule(
            user=users["commissioner"], league=league, team_ids=[goblins.pk, marauders.pk]
        )
        # The fixture's pre-match sequence is under way: the weather and the fans are in, shopping is open.
        from matches import prematch

        commissioner = users["commissioner"]
        prematch.prematch_post(user=commissioner, match_id=fixture.pk, step="weather", rolls={"weather": [4, 5]})
        fans = {str(goblins.pk): [3, 2], str(marauders.pk): [5, 4]}
        prematch.prematch_post(user=commissioner, match_id=fixture.pk, step="fans", rolls={"fans": fans})

    def _play_demo_scorchball(self, league, users) -> None:
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
        services.match_schedule(
            user=users["commissioner"], league=league, team_ids=[tide.pk, legion.pk], event="terminix"
        )

    def _play_demo_tests(self, league, users) -> None:
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

    def _queue_reports(self) -> None:
        """Each demo league's weekly report is queued now, so the worker writes one within a minute of start."""
        from league.reports import report_queue_now

        for league in League.objects.filter(name__startswith="Demo ", reports__isnull=True).distinct():
            if report_queue_now(league=league) is None:
                self.stdout.write(f"The report queue is unavailable: {league.name}'s report comes on its day.")
