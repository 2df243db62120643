"""Autovacuum visits the event table for its inserts, not only for dead rows (it has none:
history is never updated or deleted). PostgreSQL's defaults vacuum a table after inserts of
20% of its rows: at ten million events, once every two million appends, and then a long
pass that freezes and marks visible two million rows at once. Here: after 1% (and at least
10,000 rows), so each pass is short, the visibility map stays current (the append's
``MAX(seq)`` and the stream reads stay index-only on older pages) and freezing happens in
small steps instead of one anti-wraparound pass; statistics after 1% of new rows too.
``docs/scale.md`` has the figures. SQLite has no autovacuum: nothing to do there."""

from django.db import migrations

SETTINGS = {
    "autovacuum_vacuum_insert_scale_factor": "0.01",
    "autovacuum_vacuum_insert_threshold": "10000",
    "autovacuum_analyze_scale_factor": "0.01",
}


def storage_parameters(tables: list[str], settings: dict[str, str]):
    """A migration's forward and backward steps setting (and resetting) ``settings`` on
    ``tables`` on PostgreSQL."""

    def apply(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            given = ", ".join(f"{name} = {value}" for name, value in settings.items())
            for table in tables:
                schema_editor.execute(f"ALTER TABLE {table} SET ({given})", params=None)

    def revert(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            for table in tables:
                schema_editor.execute(f"ALTER TABLE {table} RESET ({', '.join(settings)})")

    return apply, revert


class Migration(migrations.Migration):
    dependencies = [("events", "0003_truncate_refused")]

    operations = [migrations.RunPython(*storage_parameters(["events_event"], SETTINGS))]
