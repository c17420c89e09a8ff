"""Table versions start random (issue 12): a new league's first cached table is keyed by a version no other
league row, past or restored, ever had — and the leagues still at the old default 0 get one now."""

import secrets

from django.db import migrations, models

import league.models


def randomise_zero_versions(apps, schema_editor):
    League = apps.get_model("league", "League")
    leagues = list(League.objects.filter(table_version=0).only("pk"))
    for row in leagues:
        row.table_version = secrets.randbits(62) + 1
    League.objects.bulk_update(leagues, ["table_version"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0006_league_table_version"),
    ]

    operations = [
        migrations.AlterField(
            model_name="league",
            name="table_version",
            field=models.BigIntegerField(default=league.models.new_table_version, editable=False),
        ),
        migrations.RunPython(randomise_zero_versions, migrations.RunPython.noop),
    ]
