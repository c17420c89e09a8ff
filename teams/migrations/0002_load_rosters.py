"""Data migration: a freshly migrated database already holds every ruleset's rosters."""

from django.db import migrations


def load(apps, schema_editor):
    from teams.rosters import sync_rosters

    sync_rosters(apps.get_model("teams", "Roster"), apps.get_model("teams", "Position"))


class Migration(migrations.Migration):
    dependencies = [("teams", "0001_initial")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
