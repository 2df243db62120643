"""History even the app cannot change: the site's web role (``grant_web_role``) may read and
append events and nothing else, and the table's owner cannot TRUNCATE it either."""

import secrets

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from psycopg import sql

from events import store
from events.store import NewEvent

pytestmark = pytest.mark.django_db(transaction=True)

INSERT = (
    "INSERT INTO events_event (stream, seq, type, version, data, actor, reason, recorded_at,"
    " batch) VALUES ('game-9', 1, 'A', 1, '{}', 'system', '', now(), 1)"
)
REFUSED = {
    "TRUNCATE": "TRUNCATE events_event",
    "DISABLE TRIGGER": "ALTER TABLE events_event DISABLE TRIGGER events_event_append_only",
    "DISABLE TRIGGER ALL": "ALTER TABLE events_event DISABLE TRIGGER ALL",
    "DROP TRIGGER": "DROP TRIGGER events_event_append_only ON events_event",
    "ALTER COLUMN USING": (
        "ALTER TABLE events_event ALTER COLUMN type TYPE varchar(64) USING 'Forged'"
    ),
    "DROP TABLE": "DROP TABLE events_event",
    "UPDATE": "UPDATE events_event SET type = 'Forged'",
    "DELETE": "DELETE FROM events_event",
}


def _drop(cursor, role: str) -> None:
    cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
    if cursor.fetchone():
        cursor.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
        cursor.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


@pytest.fixture
def web_role():
    """A login role named after the test database (roles are shared by the whole server,
    and other test runs use it at the same time), granted by the command under test."""
    role = f"{connection.settings_dict['NAME']}_web"
    password = secrets.token_hex(12)
    with connection.cursor() as cursor:
        _drop(cursor, role)
        cursor.execute(
            sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
                sql.Identifier(role), sql.Literal(password)
            )
        )
    call_command("grant_web_role", role)
    settings = connection.settings_dict
    web = psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        dbname=settings["NAME"],
        user=role,
        password=password,
        autocommit=True,
    )
    yield web
    web.close()
    with connection.cursor() as cursor:
        _drop(cursor, role)


def test_the_web_role_reads_and_appends_events_and_writes_the_other_tables(web_role):
    web_role.execute(INSERT)
    assert web_role.execute("SELECT type FROM events_event").fetchall() == [("A",)]
    web_role.execute("UPDATE games_delivery SET attempts = 0 WHERE false")
    web_role.execute("DELETE FROM django_session WHERE false")


@pytest.mark.parametrize("statement", REFUSED.values(), ids=REFUSED.keys())
def test_the_web_role_cannot_change_history(web_role, statement):
    web_role.execute(INSERT)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        web_role.execute(statement)
    assert web_role.execute("SELECT seq, type FROM events_event").fetchall() == [(1, "A")]


def test_the_owner_cannot_truncate_the_event_table_either():
    store.append("game-1", 0, [NewEvent("A")], actor="system")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("TRUNCATE events_event")
    assert [e.type for e in store.load("game-1")] == ["A"]


def test_the_command_refuses_a_role_that_owns_the_tables():
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        (owner,) = cursor.fetchone()
    with pytest.raises(CommandError, match="superuser|owns the tables"):
        call_command("grant_web_role", owner)


def test_the_command_names_a_missing_role():
    with pytest.raises(CommandError, match="create it first"):
        call_command("grant_web_role", "no_such_role_anywhere")
