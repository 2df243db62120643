"""One table of deliveries for every notice channel (``Delivery``, with ``channel``): the
outbox's emails and the push deliveries move into it with their history (sent, cancelled,
in doubt, attempts, errors). An email keeps its id, so a sign-in link sent before the move
(its code is the row's id) still opens; a push is numbered after them. Backwards, the rows of the
two channels go back to their tables (a row of another channel has no table to go to)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.core.management.color import no_style
from django.db import migrations, models

# The columns every channel shares, named alike in the old tables and the new one.
SHARED = (
    "game_id, kind, payload, created_at, due_at, claimed_at, sent_at, cancelled_at,"
    " attempts, last_error, withdrawn_because"
)


def _tables(apps) -> tuple[str, str, str]:
    return tuple(
        apps.get_model("games", name)._meta.db_table
        for name in ("Delivery", "Outbox", "PushDelivery")
    )


def _numbered(apps, schema_editor, *names: str) -> None:
    """The ids to come follow the ids copied."""
    models_ = [apps.get_model("games", name) for name in names]
    for sql in schema_editor.connection.ops.sequence_reset_sql(no_style(), models_):
        schema_editor.execute(sql)


def rows_moved(apps, schema_editor):
    delivery, outbox, push = _tables(apps)
    subscription = apps.get_model("games", "PushSubscription")._meta.db_table
    schema_editor.execute(
        f"INSERT INTO {delivery} (id, channel, key, recipient, user_id, handed_over_at,"
        f" in_doubt_at, message_id, {SHARED}) SELECT id, 'email', seq, recipient, user_id,"
        f" data_started_at, in_doubt_at, message_id, {SHARED} FROM {outbox}"
    )
    shared = ", ".join(f"p.{column.strip()}" for column in SHARED.split(","))
    schema_editor.execute(
        f"INSERT INTO {delivery} (id, channel, key, recipient, user_id, subscription_id,"
        f" {SHARED}) SELECT p.id + (SELECT COALESCE(MAX(id), 0) FROM {outbox}), 'push',"
        f" p.key, '', s.user_id, p.subscription_id, {shared} FROM {push} p"
        f" JOIN {subscription} s ON s.id = p.subscription_id"
    )
    _numbered(apps, schema_editor, "Delivery")


def rows_moved_back(apps, schema_editor):
    delivery, outbox, push = _tables(apps)
    schema_editor.execute(
        f"INSERT INTO {outbox} (id, seq, recipient, user_id, data_started_at, in_doubt_at,"
        f" message_id, {SHARED}) SELECT id, key, recipient, user_id, handed_over_at,"
        f" in_doubt_at, message_id, {SHARED} FROM {delivery} WHERE channel = 'email'"
    )
    schema_editor.execute(
        f"INSERT INTO {push} (id, key, subscription_id, {SHARED}) SELECT id, key,"
        f" subscription_id, {SHARED} FROM {delivery} WHERE channel = 'push'"
    )
    _numbered(apps, schema_editor, "Outbox", "PushDelivery")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0025_player_name_search"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Delivery",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("channel", models.CharField(max_length=24)),
                ("key", models.PositiveIntegerField(default=0)),
                ("recipient", models.CharField(blank=True, default="", max_length=254)),
                (
                    "kind",
                    models.CharField(
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
                            ("sign_in", "Sign In"),
                            ("plan_dropped", "Plan Dropped"),
                            ("data_export_ready", "Data Export Ready"),
                        ],
                        max_length=24,
                    ),
                ),
                ("payload", models.JSONField(blank=True, default=dict)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("due_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("claimed_at", models.DateTimeField(blank=True, null=True)),
                ("handed_over_at", models.DateTimeField(blank=True, null=True)),
                ("sent_at", models.DateTimeField(blank=True, null=True)),
                ("cancelled_at", models.DateTimeField(blank=True, null=True)),
                ("in_doubt_at", models.DateTimeField(blank=True, null=True)),
                (
                    "message_id",
                    models.CharField(blank=True, max_length=255, null=True, unique=True),
                ),
                ("attempts", models.PositiveSmallIntegerField(default=0)),
                ("last_error", models.TextField(blank=True, default="")),
                ("withdrawn_because", models.CharField(blank=True, default="", max_length=200)),
                (
                    "game",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.game",
                    ),
                ),
                (
                    "subscription",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="deliveries",
                        to="games.pushsubscription",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.RunPython(rows_moved, rows_moved_back),
        migrations.DeleteModel(
            name="Outbox",
        ),
        migrations.DeleteModel(
            name="PushDelivery",
        ),
        migrations.AddIndex(
            model_name="delivery",
            index=models.Index(
                condition=models.Q(("cancelled_at__isnull", True), ("sent_at__isnull", True)),
                fields=["channel", "due_at"],
                name="delivery_pending",
            ),
        ),
        migrations.AddIndex(
            model_name="delivery",
            index=models.Index(
                condition=models.Q(("in_doubt_at__isnull", False)),
                fields=["in_doubt_at"],
                name="delivery_in_doubt",
            ),
        ),
        migrations.AddConstraint(
            model_name="delivery",
            constraint=models.UniqueConstraint(
                condition=models.Q(("subscription__isnull", True)),
                fields=("channel", "game", "key", "recipient", "kind"),
                name="delivery_once_per_address",
            ),
        ),
        migrations.AddConstraint(
            model_name="delivery",
            constraint=models.UniqueConstraint(
                condition=models.Q(("subscription__isnull", False)),
                fields=("subscription", "game", "key", "kind"),
                name="delivery_once_per_device",
            ),
        ),
        migrations.CreateModel(
            name="Outbox",
            fields=[],
            options={
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("games.delivery", models.Model),
        ),
        migrations.CreateModel(
            name="PushDelivery",
            fields=[],
            options={
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("games.delivery", models.Model),
        ),
    ]
