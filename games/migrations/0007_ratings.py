import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_security"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="RatingLadder",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("game_type", models.CharField(max_length=32, unique=True)),
            ],
        ),
        # Games played before ratings existed stay unrated: nobody chose otherwise.
        migrations.AddField(
            model_name="game",
            name="rated",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="game",
            name="rated",
            field=models.BooleanField(
                default=True, help_text="The result counts for the players' ratings (issue 16)."
            ),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="profile_hidden",
            field=models.BooleanField(
                default=False, help_text="Only signed-in players may see the profile (issue 16)."
            ),
        ),
        migrations.CreateModel(
            name="GameResult",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="result",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                ("game_type", models.CharField(max_length=32)),
                ("side", models.CharField(blank=True, default="", max_length=16)),
                ("players", models.PositiveSmallIntegerField()),
                ("ended_at", models.DateTimeField()),
                ("end_seq", models.PositiveIntegerField()),
                ("private", models.BooleanField(default=False)),
                ("shared_win", models.BooleanField(default=False)),
                (
                    "excluded",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("", "counted"),
                            ("unrated", "unrated game"),
                            ("bot", "a computer player took part"),
                        ],
                        default="",
                        max_length=16,
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(fields=["-ended_at", "-game"], name="result_recent"),
                    models.Index(
                        fields=["game_type", "-ended_at", "-game"], name="result_game_recent"
                    ),
                    models.Index(
                        condition=models.Q(("excluded", "")),
                        fields=["game_type", "ended_at", "game"],
                        name="result_ladder_order",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Rating",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("game_type", models.CharField(max_length=32)),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("display", models.IntegerField()),
                ("games", models.PositiveIntegerField(default=0)),
                ("last_played_at", models.DateTimeField()),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ratings",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(
                        fields=["game_type", "-display", "user"], name="rating_leaderboard"
                    )
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "game_type"), name="rating_one_per_ladder"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="RatingChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("game_type", models.CharField(max_length=32)),
                ("ended_at", models.DateTimeField()),
                ("mu_before", models.FloatField()),
                ("sigma_before", models.FloatField()),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("display", models.IntegerField()),
                (
                    "result",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="changes",
                        to="games.gameresult",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(
                        fields=["game_type", "ended_at", "result"], name="rating_change_order"
                    ),
                    models.Index(
                        fields=["user", "game_type", "ended_at"], name="rating_change_history"
                    ),
                ],
                "constraints": [
                    models.UniqueConstraint(fields=("result", "user"), name="rating_change_unique")
                ],
            },
        ),
        migrations.CreateModel(
            name="ResultSeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("actor", models.CharField(max_length=100)),
                ("seat", models.PositiveSmallIntegerField()),
                ("place", models.PositiveSmallIntegerField()),
                ("score", models.IntegerField()),
                ("won", models.BooleanField(default=False)),
                ("resigned", models.BooleanField(default=False)),
                ("timed_out", models.BooleanField(default=False)),
                ("game_type", models.CharField(max_length=32)),
                ("ended_at", models.DateTimeField()),
                (
                    "result",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="games.gameresult",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["result", "seat"],
                "indexes": [
                    models.Index(
                        fields=["user", "-ended_at", "-result"], name="result_seat_player_recent"
                    ),
                    models.Index(
                        fields=["user", "game_type", "-ended_at"], name="result_seat_player_game"
                    ),
                    models.Index(
                        fields=["game_type", "ended_at", "result"], name="result_seat_ladder"
                    ),
                ],
                "constraints": [
                    models.UniqueConstraint(fields=("result", "seat"), name="result_seat_unique")
                ],
            },
        ),
    ]
