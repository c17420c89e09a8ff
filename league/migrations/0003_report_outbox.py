"""ReportDelivery becomes the report's outbox: a state per row (pending → sending → sent) and when it was
claimed. Rows written before this migration were written when their mail went out: sent_at set means sent;
any without (a send that failed) are pending, so they are mailed by the next run."""

import django.utils.timezone
from django.db import migrations, models


def states_from_sent_at(apps, schema_editor):
    ReportDelivery = apps.get_model("league", "ReportDelivery")
    ReportDelivery.objects.filter(sent_at__isnull=False).update(state="sent")
    ReportDelivery.objects.filter(sent_at__isnull=True).update(state="pending")


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0002_weekly_reports"),
    ]

    operations = [
        migrations.AddField(
            model_name="reportdelivery",
            name="state",
            field=models.CharField(
                choices=[("pending", "pending"), ("sending", "sending"), ("sent", "sent")],
                default="pending",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="reportdelivery",
            name="created_at",
            field=models.DateTimeField(auto_now_add=True, default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="reportdelivery",
            name="claimed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(states_from_sent_at, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="reportdelivery",
            index=models.Index(fields=["league", "week", "state"], name="report_outbox_by_state"),
        ),
    ]
