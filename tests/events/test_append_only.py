"""History cannot be changed, by the ORM or by raw SQL: the database refuses."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import DatabaseError, connection, transaction

from events import store
from events.models import Event
from events.store import NewEvent

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sql",
    ["UPDATE events_event SET type = 'Forged'", "DELETE FROM events_event"],
)
def test_postgresql_refuses_raw_update_and_delete(sql):
    assert connection.vendor == "postgresql"
    store.append("game-1", 0, [NewEvent("A")], actor="system")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql)
    assert [(e.type, e.seq) for e in store.load("game-1")] == [("A", 1)]


@pytest.mark.django_db
def test_the_orm_cannot_delete_or_edit_an_event_either():
    store.append("game-1", 0, [NewEvent("A")], actor="system")
    row = Event.objects.get()
    row.type = "Forged"
    with pytest.raises(DatabaseError), transaction.atomic():
        row.save()
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.all().delete()
    assert Event.objects.get().type == "A"


def test_sqlite_refuses_raw_update_and_delete(tmp_path):
    database = tmp_path / "site.sqlite3"
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
        "AZULSITE_VAR_DIR": str(tmp_path / "var"),
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "events", "--no-input"],
        cwd=ROOT,
        env=environment,
        check=True,
        capture_output=True,
    )
    db = sqlite3.connect(database)
    db.execute(
        "INSERT INTO events_event (stream, seq, type, version, data, actor, reason,"
        " recorded_at, batch) VALUES ('game-1', 1, 'A', 1, '{}', 'system', '', '2026-01-01', 1)"
    )
    db.commit()
    for sql in ("UPDATE events_event SET type = 'Forged'", "DELETE FROM events_event"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute(sql)
    assert db.execute("SELECT type FROM events_event").fetchall() == [("A",)]


@pytest.mark.django_db(transaction=True)
def test_autovacuum_visits_the_event_table_for_its_inserts_and_the_events_stay_readable():
    from django.core.management import call_command

    store.append("game-7", 0, [NewEvent("A", {"n": 1}), NewEvent("B")], actor="system")

    def options() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'events_event'")
            return cursor.fetchone()[0] or []

    assert "autovacuum_vacuum_insert_scale_factor=0.01" in options()
    call_command("migrate", "events", "0003", verbosity=0)
    assert options() == []
    call_command("migrate", verbosity=0)
    assert "autovacuum_vacuum_insert_threshold=10000" in options()
    assert [(e.seq, e.type, e.data) for e in store.load("game-7")] == [
        (1, "A", {"n": 1}),
        (2, "B", {}),
    ]
