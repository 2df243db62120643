"""Notices addressed to players and delivered by channels (issue 27): an email row names
its player and why it was withdrawn (not an error), and the emails a player turned off
become their choice of channels per kind."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

EMAIL = "email"


def muted_to_channels(apps, schema_editor):
    PlayerSettings = apps.get_model("games", "PlayerSettings")
    for prefs in PlayerSettings.objects.exclude(muted_kinds=[]):
        prefs.channels = {kind: [] for kind in prefs.muted_kinds}
        prefs.save(update_fields=["channels"])


def channels_to_muted(apps, schema_editor):
    PlayerSettings = apps.get_model("games", "PlayerSettings")
    for prefs in PlayerSettings.objects.exclude(channels={}):
        prefs.muted_kinds = [k for k, chosen in prefs.channels.items() if EMAIL not in chosen]
        prefs.save(update_fields=["muted_kinds"])


def outbox_users(apps, schema_editor):
    Outbox = apps.get_model("games", "Outbox")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    users = User.objects.filter(username=models.OuterRef("recipient")).values("pk")[:1]
    Outbox.objects.filter(user__isnull=True).update(user=models.Subquery(users))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_analysis"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="outbox",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(outbox_users, migrations.RunPython.noop),
        migrations.AddField(
            model_name="outbox",
            name="withdrawn_because",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
        migrations.AddField(
            model_name="playersettings",
            name="channels",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(muted_to_channels, channels_to_muted),
        migrations.RemoveField(model_name="playersettings", name="muted_kinds"),
    ]
