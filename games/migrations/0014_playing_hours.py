from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_web_push"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="playing_hours",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="hours_start",
            field=models.CharField(default="08:00", max_length=5),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="hours_end",
            field=models.CharField(default="22:00", max_length=5),
        ),
    ]
