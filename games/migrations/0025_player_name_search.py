"""The archive's search by a player's name (``ratings.selectors.archive_search``): the name
is the first name, or the part of the address before the @ for a player without one, in
any case. Without these indexes each search read every account (issue 44: a scan of 10,000
accounts at 100,000 games, ``docs/scale.md``). PostgreSQL only: the embedded SQLite site
has a few accounts, and compares without case by ``LIKE``, which these would not serve."""

from django.db import migrations

INDEXES = {
    "auth_user_name_upper": "UPPER(first_name::text)",
    # text_pattern_ops: a prefix (``LIKE 'NAME@%'``) is found whatever the collation.
    "auth_user_address_upper": "UPPER(email::text) text_pattern_ops",
}


def indexes_made(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, expression in INDEXES.items():
            schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON auth_user ({expression})")


def indexes_dropped(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name in INDEXES:
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0024_data_export_notice"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(indexes_made, indexes_dropped)]
