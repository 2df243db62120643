"""History even the table's owner cannot erase at once: a ``BEFORE TRUNCATE`` trigger joins
the row triggers of 0002 (TRUNCATE fires no row trigger). SQLite has no TRUNCATE: its
``DELETE`` trigger (0002) already covers a ``DELETE`` of every row.

Django's test runner empties tables with TRUNCATE between transactional tests; it does so
as a superuser with ``session_replication_role = replica`` (``tests/conftest.py``), which
PostgreSQL reserves to superusers, so the site's own roles never can."""

from django.db import migrations

INSTALL = """
CREATE TRIGGER events_event_no_truncate
BEFORE TRUNCATE ON events_event
FOR EACH STATEMENT EXECUTE FUNCTION events_event_refuse_change()
"""
REMOVE = "DROP TRIGGER IF EXISTS events_event_no_truncate ON events_event"


def run(sql: str):
    def apply(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return apply


class Migration(migrations.Migration):
    dependencies = [("events", "0002_append_only")]

    operations = [migrations.RunPython(run(INSTALL), run(REMOVE))]
