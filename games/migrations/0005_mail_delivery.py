"""Outbox: how far the SMTP transaction got (DATA started, in doubt) and a Message-ID per
row that is unique across installs (issue 17)."""

import uuid

from django.conf import settings
from django.db import migrations, models

import games.models


def give_each_row_a_message_id(apps, schema_editor):
    Outbox = apps.get_model("games", "Outbox")
    for pk in Outbox.objects.values_list("pk", flat=True).iterator():
        Outbox.objects.filter(pk=pk).update(
            message_id=f"<{uuid.uuid4().hex}@{settings.MAIL_REPLY_DOMAIN}>"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_seatclock_increment_earned"),
    ]

    operations = [
        migrations.AddField(
            model_name="outbox",
            name="data_started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="outbox",
            name="in_doubt_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="outbox",
            name="message_id",
            field=models.CharField(max_length=255, null=True),
        ),
        migrations.RunPython(give_each_row_a_message_id, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="outbox",
            name="message_id",
            field=models.CharField(
                default=games.models.new_message_id, max_length=255, unique=True
            ),
        ),
        migrations.AddIndex(
            model_name="outbox",
            index=models.Index(
                condition=models.Q(in_doubt_at__isnull=False),
                fields=["in_doubt_at"],
                name="outbox_in_doubt",
            ),
        ),
    ]
