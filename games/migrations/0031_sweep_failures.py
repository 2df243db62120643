"""The minute sweep's items that failed, resting before their job tries them again (issue 58:
a game whose job always fails no longer stays first in its queue every minute)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0030_tournament_cancelled_notice"),
    ]

    operations = [
        migrations.CreateModel(
            name="SweepFailure",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("job", models.CharField(max_length=40)),
                ("kind", models.CharField(max_length=20)),
                ("item", models.BigIntegerField()),
                ("failures", models.PositiveIntegerField(default=1)),
                ("first_failed_at", models.DateTimeField()),
                ("last_failed_at", models.DateTimeField()),
                ("next_try_at", models.DateTimeField()),
                ("error", models.TextField(blank=True)),
            ],
            options={
                "indexes": [
                    models.Index(fields=["job", "next_try_at"], name="sweep_failures_resting")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("job", "kind", "item"), name="one_failure_an_item"
                    )
                ],
            },
        ),
    ]
