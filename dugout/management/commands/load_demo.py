"""A demo league for each ruleset, with logins, so a newcomer has something to browse at once (the leagues' recipes:
dugout/management/demo/, one per ruleset)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from dugout.management.demo import DEMOS, build
from league.models import League

DEMO_PASSWORD = "dugout-demo"
#: The team `--coachless-team` leaves without coach, and its players.
COACHLESS_TEAM = "Nibelheim Nobodies"
COACHLESS_PLAYERS = [("lineman", "Ronin"), ("lineman", "Drifter"), ("catcher", "Stray")]

#: The demo's logins, as printed by this command and, last of all once everything is up, by `make run`
#: (scripts/announce.py).
LOGINS = (
    f"  commissioner / {DEMO_PASSWORD}   (runs the three demo leagues)\n"
    f"  coach_cid    / {DEMO_PASSWORD}   (a team in each league)\n"
    f"  coach_gil    / {DEMO_PASSWORD}   (a team in each league)\n"
    f"  admin        / {DEMO_PASSWORD}   (Django admin at /admin/)\n"
    "  API docs at /api/docs/\n"
)


class Command(BaseCommand):
    help = "Create the demo leagues and logins (idempotent: an existing demo is left as it is)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--queue-reports",
            action="store_true",
            help="Queue each demo league's weekly report now (make run does, so the worker writes them at once).",
        )
        parser.add_argument(
            "--coachless-team",
            action="store_true",
            help=(
                "Also leave a team without coach in the Blitz Bowl demo league (its coach founded it and was "
                "removed), so the API fuzz run reads one as well."
            ),
        )
        parser.add_argument(
            "--no-logins",
            action="store_true",
            help="Do not print the logins (make run prints them last, once the server and the worker are up).",
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

        for demo in DEMOS.values():
            if build(demo, users) is not None:
                self.stdout.write(f"Created {demo.name} ({demo.ruleset}).")

        if options["coachless_team"]:
            self._coachless_team(users)
        if options["queue_reports"]:
            self._queue_reports()
        if options["no_logins"]:
            self.stdout.write("Dugout demo is ready.")
            return
        self.stdout.write(
            self.style.SUCCESS(
                "\nDugout demo is ready (`make run` prints its address once the server answers):\n" + LOGINS
            )
        )

    def _queue_reports(self) -> None:
        """Each demo league's weekly report is queued now, so the worker writes one within a minute of start."""
        from dugout.reports.services import report_queue_now

        for league in League.objects.filter(name__startswith="Demo ", reports__isnull=True).distinct():
            if report_queue_now(league=league) is None:
                self.stdout.write(f"The report queue is unavailable: {league.name}'s report comes on its day.")

    def _coachless_team(self, users: dict) -> None:
        """A team as a removed member leaves it: founded and staffed by `coach_gone`, whom the commissioner then
        removed from the league (`coach` and `coach_username` null in the API). Made once, through the services."""
        from league import services as league_services
        from teams import members
        from teams import services as team_services
        from teams.models import Team

        league = League.objects.filter(name=DEMOS["blitzbowl"].name).first()
        if league is None or Team.objects.filter(league=league, name=COACHLESS_TEAM).exists():
            return
        gone, created = get_user_model().objects.get_or_create(
            username="coach_gone", defaults={"email": "coach_gone@example.com"}
        )
        if created:
            gone.set_unusable_password()
            gone.save()
        with transaction.atomic():
            league_services.league_join(league=league, user=gone)
            team = team_services.team_create(user=gone, league=league, name=COACHLESS_TEAM, roster_key="hume")
            for number, (position, name) in enumerate(COACHLESS_PLAYERS, start=1):
                team_services.team_hire_player(team_id=team.pk, user=gone, position=position, name=name, number=number)
            members.member_remove(
                user=users["commissioner"], league_id=league.pk, member_id=gone.pk, reason="Left the demo league"
            )
        self.stdout.write(f"Created {COACHLESS_TEAM}, without coach, in {league.name}.")
