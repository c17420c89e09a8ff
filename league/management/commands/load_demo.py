"""A demo league for each ruleset, with logins, so a newcomer has something to browse at once (the leagues' recipes:
league/management/demo/, one per ruleset)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from league.management.demo import DEMOS, build
from league.models import League

DEMO_PASSWORD = "dugout-demo"
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
        from league.reports import report_queue_now

        for league in League.objects.filter(name__startswith="Demo ", reports__isnull=True).distinct():
            if report_queue_now(league=league) is None:
                self.stdout.write(f"The report queue is unavailable: {league.name}'s report comes on its day.")
