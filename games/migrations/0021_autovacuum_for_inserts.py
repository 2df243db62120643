"""Autovacuum for the site's tables that grow by inserts (``events/migrations/0004``'s
reasons): the results and rating changes (rows only ever added, but for a rebuild), and
the outbox and push deliveries (each row updated once or twice when sent, never deleted:
a visit after 2% of their rows died rather than PostgreSQL's 20%, millions of rows at a
year's size). ``docs/scale.md`` has the figures."""

import importlib

from django.db import migrations

events_storage = importlib.import_module("events.migrations.0004_autovacuum_for_inserts")
SENT_ONCE = {**events_storage.SETTINGS, "autovacuum_vacuum_scale_factor": "0.02"}


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_tournament_snapshots"),
        ("events", "0004_autovacuum_for_inserts"),
    ]

    operations = [
        migrations.RunPython(
            *events_storage.storage_parameters(
                ["games_gameresult", "games_resultseat", "games_ratingchange"],
                events_storage.SETTINGS,
            )
        ),
        migrations.RunPython(
            *events_storage.storage_parameters(["games_outbox", "games_pushdelivery"], SENT_ONCE)
        ),
    ]
