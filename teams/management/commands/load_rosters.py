from django.core.management.base import BaseCommand

from teams.models import Position, Roster
from teams.rosters import sync_rosters


class Command(BaseCommand):
    help = "Add or update the rosters shipped with the rulesets (keeps rosters added in the admin)."

    def handle(self, *args, **options):
        count = sync_rosters(Roster, Position)
        self.stdout.write(self.style.SUCCESS(f"{count} rosters loaded."))
