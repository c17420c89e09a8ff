import django.db.models
from django.db import migrations

import league.models


class Migration(migrations.Migration):
    """The league page's fixtures, results and reports panels are cached per activity version (docs/decisions/
    2026-12-01). Existing leagues share one fresh random value: the cache keys carry the league's id as well."""

    dependencies = [
        ("league", "0007_league_table_version_random"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="activity_version",
            field=django.db.models.BigIntegerField(default=league.models.new_table_version, editable=False),
        ),
    ]
