"""``manage.py grant_web_role [ROLE]``: let the site run as a database role that cannot
change history (see the README, "A database role that cannot change history").

Run it as the role that owns the tables (the one ``migrate`` runs as), after every
``migrate``: it grants ROLE what the web, worker and beat processes need on every table of
the schema (SELECT, INSERT, UPDATE, DELETE), except the event table, where ROLE may only
SELECT and INSERT, and Django's migration record, which it may only read. ROLE owns
nothing, so PostgreSQL refuses it TRUNCATE, ALTER TABLE (``DISABLE TRIGGER``, ``ALTER
COLUMN … USING``), DROP TRIGGER and DROP TABLE; the event table's triggers refuse UPDATE,
DELETE and TRUNCATE even to its owner.
"""

import os

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from psycopg import sql

from events.models import Event

ALL_WRITES = "SELECT, INSERT, UPDATE, DELETE"
# Tables the web role may not rewrite: their privileges instead of ALL_WRITES.
LIMITED = {
    Event._meta.db_table: "SELECT, INSERT",
    "django_migrations": "SELECT",
}


class Command(BaseCommand):
    help = (
        "Grant a database role (default: $DATABASE_WEB_ROLE) what the site needs to run, "
        "with only SELECT and INSERT on the event table. Run as the tables' owner after "
        "every migrate."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "role",
            nargs="?",
            default=os.environ.get("DATABASE_WEB_ROLE", ""),
            help="the role web, worker and beat connect as",
        )

    def handle(self, *args, role: str, **options) -> None:
        if not role:
            self.stdout.write(
                "No web role named (argument or DATABASE_WEB_ROLE): nothing granted. The site "
                "runs as the role that owns the tables, which the event table's triggers "
                "still hold to appending."
            )
            return
        if connection.vendor != "postgresql":
            raise CommandError(
                f"database roles are a PostgreSQL feature; this database is {connection.vendor}"
            )
        with transaction.atomic(), connection.cursor() as cursor:
            schema, tables = _check(cursor, role)
            target = sql.Identifier(role)
            cursor.execute(
                sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(sql.Identifier(schema), target)
            )
            cursor.execute(
                sql.SQL("REVOKE ALL ON ALL TABLES IN SCHEMA {} FROM {}").format(
                    sql.Identifier(schema), target
                )
            )
            for table in tables:
                cursor.execute(
                    sql.SQL("GRANT {} ON TABLE {} TO {}").format(
                        sql.SQL(LIMITED.get(table, ALL_WRITES)),
                        sql.Identifier(schema, table),
                        target,
                    )
                )
            cursor.execute(
                sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {} TO {}").format(
                    sql.Identifier(schema), target
                )
            )
        self.stdout.write(
            f"Granted {role} the site's tables in schema {schema} ({len(tables)} tables; "
            f"{Event._meta.db_table}: SELECT and INSERT only)."
        )


def _check(cursor, role: str) -> tuple[str, list[str]]:
    """The schema and its tables, once sure ``role`` can own or bypass nothing."""
    cursor.execute("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = %s", [role])
    found = cursor.fetchone()
    if found is None:
        raise CommandError(
            f"there is no database role {role!r}: create it first, e.g. "
            f"CREATE ROLE {role} LOGIN PASSWORD '…'"
        )
    if any(found):
        raise CommandError(f"{role!r} is a superuser (or bypasses row security): use a plain role")
    cursor.execute("SELECT current_schema()")
    (schema,) = cursor.fetchone()
    cursor.execute(
        "SELECT tablename, tableowner FROM pg_tables WHERE schemaname = %s ORDER BY tablename",
        [schema],
    )
    tables = cursor.fetchall()
    if Event._meta.db_table not in {name for name, _ in tables}:
        raise CommandError(f"no table {Event._meta.db_table} in schema {schema}: run migrate first")
    for owner in sorted({owner for _, owner in tables}):
        cursor.execute("SELECT pg_has_role(%s, %s, 'USAGE')", [role, owner])
        if cursor.fetchone()[0]:
            raise CommandError(
                f"{role!r} is (or is a member of) {owner!r}, which owns the tables: the web "
                "role must be a separate role that owns nothing"
            )
    return schema, [name for name, _ in tables]
