"""A notice of a tournament called off, to its players (issue 52: one whose organiser closed
their account is called off, and nobody stays registered in it unawares)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0029_hidden_reasons_out_of_the_row"),
    ]

    operations = [
        migrations.AlterField(
            model_name="delivery",
            name="kind",
            field=models.CharField(
                choices=[
                    ("invitation", "Invitation"),
                    ("game_started", "Game Started"),
                    ("your_turn", "Your Turn"),
                    ("reminder", "Reminder"),
                    ("deadline_warning", "Deadline Warning"),
                    ("timeout", "Timeout"),
                    ("game_over", "Game Over"),
                    ("takeback_request", "Takeback Request"),
                    ("move_confirmed", "Move Confirmed"),
                    ("reply_refused", "Reply Refused"),
                    ("digest", "Digest"),
                    ("tournament_joined", "Tournament Joined"),
                    ("tournament_round", "Tournament Round"),
                    ("tournament_results", "Tournament Results"),
                    ("tournament_finished", "Tournament Finished"),
                    ("tournament_invitation", "Tournament Invitation"),
                    ("tournament_cancelled", "Tournament Cancelled"),
                    ("sign_in", "Sign In"),
                    ("plan_dropped", "Plan Dropped"),
                    ("data_export_ready", "Data Export Ready"),
                ],
                max_length=24,
            ),
        ),
    ]
