"""Cursors kept per connection, for the statements every request runs.

A new psycopg cursor copies the connection's adapters and finds a dumper for each of the
statement's parameters afresh, and a loader for each column of its answer: for an append,
a move's read of the game with its seats and its held writes (``games.prepared``) alike
(the figures are in docs/service.md, "What a move costs"). A cursor kept for one use
(``purpose``) while the connection lasts keeps them. Each use runs its statement and reads
its answer before the next statement on the connection, so no two ever interleave on one
cursor.
"""

import weakref
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper

# Each connection's kept cursors by purpose, kept while the connection lasts.
_KEPT: "weakref.WeakKeyDictionary[BaseDatabaseWrapper, dict[str, Any]]" = (
    weakref.WeakKeyDictionary()
)


def kept_cursor(database: BaseDatabaseWrapper, purpose: str) -> Any:
    """The connection's cursor for ``purpose`` (PostgreSQL): in Django's wrapper where
    statements are logged or wrapped (tests count them), else the driver's own, which
    ``execute`` and ``fetchall`` then run as the wrapper would."""
    database.close_if_health_check_failed()
    database.ensure_connection()
    kept = _KEPT.setdefault(database, {})
    cursor = kept.get(purpose)
    if cursor is None or cursor.closed or cursor.connection is not database.connection:
        with database.wrap_database_errors:
            cursor = kept[purpose] = database.create_cursor()
    database.validate_thread_sharing()
    if database.queries_logged:
        return database.make_debug_cursor(cursor)
    if database.execute_wrappers:
        return database.make_cursor(cursor)
    return cursor


def execute(database: BaseDatabaseWrapper, cursor: Any, sql: str, params: list) -> None:
    """``sql`` run by a ``kept_cursor``. The driver's own is run as Django's wrapper would,
    without its layers of calls (none has anything to do here: no wrapper is installed
    and no statement is logged)."""
    if isinstance(cursor, CursorWrapper):
        cursor.execute(sql, params)
        return
    database.validate_no_broken_transaction()
    with database.wrap_database_errors:
        cursor.execute(sql, params)


def fetchall(database: BaseDatabaseWrapper, cursor: Any) -> list:
    """The rows of the statement ``execute`` ran on a ``kept_cursor``."""
    if isinstance(cursor, CursorWrapper):
        return cursor.fetchall()
    with database.wrap_database_errors:
        return cursor.fetchall()
