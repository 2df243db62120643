"""A notice kind more: the invitation to an invitation-only tournament (issue 31). Only the
choices of the two ``kind`` columns change (no SQL)."""

from django.db import migrations, models

KINDS = [
    (value, value.replace("_", " ").title())
    for value in (
        "invitation",
        "game_started",
        "your_turn",
        "reminder",
        "deadline_warning",
        "timeout",
        "game_over",
        "takeback_request",
        "move_confirmed",
        "reply_refused",
        "digest",
        "tournament_joined",
        "tournament_round",
        "tournament_results",
        "tournament_finished",
        "tournament_invitation",
        "sign_in",
        "plan_dropped",
    )
]


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_tournaments"),
    ]

    operations = [
        migrations.AlterField(
            model_name=model,
            name="kind",
            field=models.CharField(choices=KINDS, max_length=24),
        )
        for model in ("outbox", "pushdelivery")
    ]
